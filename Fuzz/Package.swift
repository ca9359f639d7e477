// swift-tools-version:6.0
//
// libFuzzer target over script text. It lives in its own package because
// it links only with `-sanitize=fuzzer`, which the main package's `swift build` and
// `swift test` do not use:
//
//   cd Fuzz && swift build -c release -Xswiftc -sanitize=fuzzer
//   .build/release/lifesim-fuzz corpus -max_total_time=300 ../Scripts
//
// The first folder collects new inputs; the shipped scripts are the seeds.
import PackageDescription

let package = Package(
  name: "lifesim-fuzz",
  dependencies: [.package(name: "lifesim", path: "..")],
  targets: [
    .executableTarget(
      name: "lifesim-fuzz",
      dependencies: [
        .product(name: "LifeSimLua", package: "lifesim"),
        .product(name: "LifeSimEngine", package: "lifesim"),
      ],
      swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-parse-as-library"])]
    ),
  ]
)
