// swift-tools-version:6.0
//
// lifesim: a deterministic simulator of the iOS application lifecycle, driven from Lua.
//
// Layers (each one target, each one folder):
//   CLua           Debian's liblua5.4, through pkg-config.
//   CLuaShim       C: the Lua macros Swift cannot import, the trampolines that raise
//                  Lua errors after Swift has returned, the allocator and the hooks.
//   LifeSimEngine  pure Swift: clock, kernel, devices, apps, lifecycle tables, trace.
//   LifeSimLua     the bridge: adapts the engine to Lua 5.4.
//   lifesim        the command-line tool, built on swift-argument-parser.
import PackageDescription

let swift5: [SwiftSetting] = [.swiftLanguageMode(.v5)]

let package = Package(
  name: "lifesim",
  products: [
    .executable(name: "lifesim", targets: ["lifesim"]),
    .library(name: "LifeSimEngine", targets: ["LifeSimEngine"]),
    .library(name: "LifeSimLua", targets: ["LifeSimLua"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"])]
    ),
    .target(name: "CLuaShim", dependencies: ["CLua"]),
    .target(
      name: "LifeSimEngine",
      dependencies: [.product(name: "HeapModule", package: "swift-collections")],
      swiftSettings: swift5
    ),
    .target(
      name: "LifeSimLua",
      dependencies: ["LifeSimEngine", "CLuaShim", "CLua"],
      swiftSettings: swift5
    ),
    .executableTarget(
      name: "lifesim",
      dependencies: [
        "LifeSimEngine", "LifeSimLua",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swift5
    ),
    .testTarget(
      name: "LifeSimEngineTests",
      dependencies: ["LifeSimEngine"],
      swiftSettings: swift5
    ),
    .testTarget(
      name: "LifeSimLuaTests",
      dependencies: ["LifeSimLua", "LifeSimEngine"],
      swiftSettings: swift5
    ),
    .testTarget(
      name: "LifeSimCLITests",
      dependencies: ["lifesim", "LifeSimEngine"],
      swiftSettings: swift5
    ),
  ]
)
