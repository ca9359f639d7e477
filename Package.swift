// swift-tools-version:6.0
//
// lifesim: a deterministic simulator of the iOS application lifecycle, driven from Lua.
//
// Layers (each one target, each one folder):
//   CLua           Debian's liblua5.4, through pkg-config.
//   CLuaShim       C: the Lua macros Swift cannot import, the trampolines that raise
//                  Lua errors after Swift has returned, the allocator and the hooks.
//   LifeSimEngine  pure Swift: clock, kernel, devices, apps, lifecycle tables, trace.
//   LifeSimPlatform Glibc or Darwin, and the calls that differ between them.
//   LifeSimLua     the bridge: adapts the engine to Lua 5.4.
//   LifeSimPictures state diagrams and timelines drawn from the engine's tables and traces.
//   LifeSimExplain  `lifesim explain`: reading lifecycle logs, and the search for the
//                  steps that produce them.
//   LifeSimBatch   experiments: worker threads, result files, summaries, plots.
//   LifeSimBench   the measurements of `lifesim bench`.
//   CEdit          Debian's libedit (readline interface), through pkg-config.
//   LifeSimREPL    the interactive session: libedit input, live traces, :commands.
//   lifesim        the command-line tool, built on swift-argument-parser.
import PackageDescription

// No unsafe flags: SwiftPM refuses a package that depends on a tagged version
// of one with them. The engine's and the bridge's hot classes mark their
// stored properties @exclusivity(unchecked) instead (Device.swift).
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
    .package(url: "https://github.com/apple/swift-numerics", from: "1.1.1"),
    .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
    .package(url: "https://github.com/ordo-one/TextTable", from: "0.0.2"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
  ],
  targets: [
    .systemLibrary(
      name: "CLua",
      pkgConfig: "lua5.4",
      providers: [.apt(["liblua5.4-dev"])]
    ),
    .systemLibrary(
      name: "CEdit",
      pkgConfig: "libedit",
      providers: [.apt(["libedit-dev"])]
    ),
    .target(name: "CLuaShim", dependencies: ["CLua"]),
    // Glibc or Darwin, and the few calls that differ between them.
    .target(name: "LifeSimPlatform", swiftSettings: swift5),
    .target(
      name: "LifeSimEngine",
      dependencies: [
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "RealModule", package: "swift-numerics"),
      ],
      swiftSettings: swift5
    ),
    .target(
      name: "LifeSimLua",
      dependencies: ["LifeSimEngine", "LifeSimPlatform", "CLuaShim", "CLua", .product(name: "CSV", package: "CSV.swift")],
      swiftSettings: swift5
    ),
    .target(name: "LifeSimPictures", dependencies: ["LifeSimEngine", "LifeSimPlatform"], swiftSettings: swift5),
    .target(name: "LifeSimExplain", dependencies: ["LifeSimEngine"], swiftSettings: swift5),
    .target(
      name: "LifeSimBatch",
      dependencies: [
        "LifeSimEngine", "LifeSimLua",
        .product(name: "CSV", package: "CSV.swift"),
        .product(name: "TextTable", package: "TextTable"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      swiftSettings: swift5
    ),
    .target(
      name: "LifeSimBench",
      dependencies: ["LifeSimEngine", "LifeSimLua", "LifeSimBatch", "LifeSimPlatform"],
      swiftSettings: swift5
    ),
    .target(
      name: "LifeSimREPL",
      dependencies: [
        "LifeSimEngine", "LifeSimLua", "LifeSimPlatform", "CLuaShim", "CEdit",
        .product(name: "TextTable", package: "TextTable"),
      ],
      swiftSettings: swift5
    ),
    .executableTarget(
      name: "lifesim",
      dependencies: [
        "LifeSimEngine", "LifeSimLua", "LifeSimBatch", "LifeSimBench", "LifeSimREPL", "LifeSimPictures", "LifeSimExplain", "LifeSimPlatform",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swift5
    ),
    // Writes docs/api.md from the bridge's API rows and the trace schema's enumerations from the
    // engine's tables (tests check both are current).
    .executableTarget(name: "generate-api-doc", dependencies: ["LifeSimEngine", "LifeSimLua"], swiftSettings: swift5),
    // The helpers the bridge's and the command's tests share.
    .target(
      name: "LifeSimTestSupport",
      dependencies: ["LifeSimLua"],
      path: "Tests/LifeSimTestSupport",
      swiftSettings: swift5
    ),
    // The fuzzer's random action sequences, shared by the engine's fuzz test
    // and explain's round trip (no Lua: the engine's tests run without it).
    .target(
      name: "LifeSimFuzzSupport",
      dependencies: ["LifeSimEngine"],
      path: "Tests/LifeSimFuzzSupport",
      swiftSettings: swift5
    ),
    .testTarget(
      name: "LifeSimEngineTests",
      dependencies: ["LifeSimEngine", "LifeSimFuzzSupport"],
      swiftSettings: swift5
    ),
    .testTarget(
      name: "LifeSimLuaTests",
      dependencies: ["LifeSimLua", "LifeSimEngine", "LifeSimTestSupport"],
      swiftSettings: swift5
    ),
    .testTarget(
      name: "LifeSimPicturesTests",
      dependencies: ["LifeSimPictures", "LifeSimEngine"],
      swiftSettings: swift5
    ),
    .testTarget(
      name: "LifeSimExplainTests",
      dependencies: ["LifeSimExplain", "LifeSimEngine", "LifeSimFuzzSupport"],
      swiftSettings: swift5
    ),
    .testTarget(
      name: "LifeSimCLITests",
      dependencies: ["lifesim", "LifeSimEngine", "LifeSimTestSupport"],
      swiftSettings: swift5
    ),
  ]
)
