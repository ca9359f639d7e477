import Foundation
import Testing

/// The package's shape, read from its files: the C shim is split by concern,
/// the package can be depended on, and only one file knows which C library
/// (and which kernel) it runs on.
struct PackageLayoutTests {
  private func text(_ path: String) throws -> String {
    try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
  }

  /// Each C file of the shim owns one concern, says which in its first lines,
  /// and stays small enough to read; none reads Lua's private table layout.
  @Test func theShimIsSplitByConcern() throws {
    let folder = repositoryRoot.appendingPathComponent("Sources/CLuaShim")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".c") }.sorted()
    for want in ["alloc.c", "arena.c", "snapshot.c", "track.c", "stats.c", "format.c", "shim.c"] {
      #expect(files.contains(want), "no \(want) in \(files)")
    }
    for file in files {
      let source = try text("Sources/CLuaShim/" + file)
      let lines = source.split(separator: "\n", omittingEmptySubsequences: false).count
      #expect(lines <= 600, "\(file) has \(lines) lines")
      #expect(source.hasPrefix("//") || source.hasPrefix("/*"), "\(file) does not begin with what it owns")
      #expect(!source.contains("lsizenode"), "\(file) reads Lua's private Table layout")
    }
  }

  /// SwiftPM refuses a dependency on a tagged version of a package with
  /// unsafe flags (PackageDependencyTests builds one, when slow tests run).
  @Test func thePackageHasNoUnsafeFlags() throws {
    #expect(!(try text("Package.swift")).contains("unsafeFlags"))
  }

  /// Glibc, /proc and the like appear in Sources/LifeSimPlatform only.
  @Test func onlyThePlatformFileKnowsTheCLibrary() throws {
    for folder in ["Sources/LifeSimEngine", "Sources/LifeSimLua", "Sources/LifeSimBatch", "Sources/LifeSimBench",
                   "Sources/LifeSimREPL", "Sources/LifeSimPictures", "Sources/lifesim"] {
      for (path, lines) in try swiftSources(under: folder) {
        for line in lines {
          #expect(!line.contains("import Glibc") && !line.contains("import Darwin") && !line.contains("/proc/"),
                  "\(path): \(line)")
        }
      }
    }
  }

  /// CI runs the tests that change the machine; a developer's run does not.
  @Test func ciAsksForTheSystemTests() throws {
    #expect(try text(".ci/run").contains("export CI=true"))
    let env = ProcessInfo.processInfo.environment
    #expect(systemTestsEnabled == (env["CI"] == "true" || env["LIFESIM_SYSTEM_TESTS"] == "1"))
  }
}
