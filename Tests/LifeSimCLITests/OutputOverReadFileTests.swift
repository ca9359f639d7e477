import Foundation
import Testing

/// `-o` naming a file the script reads (a module it requires, a CSV it reads):
/// the command refuses, exit 2, naming both, and the file is left as it was,
/// with --stream too (which would otherwise have emptied it before the read).
struct OutputOverReadFileTests {
  static let module = "return { answer = 42 }\n"
  static let usage = "time,app,event\n1,com.example.notes,open\n"

  static func folder(_ name: String) throws -> String {
    let dir = try HostileCLITests.folder("out-over-read-\(name)")
    try HostileCLITests.write(dir + "/helper.lua", module)
    try HostileCLITests.write(dir + "/usage.csv", usage)
    try HostileCLITests.write(dir + "/requires.lua", """
      local h = require("helper")
      local dev = lifesim.device{}
      print(h.answer)
      """)
    try HostileCLITests.write(dir + "/reads.lua", """
      local dev = lifesim.device{}
      local rows = lifesim.workload.read_csv("usage.csv")
      print(#rows)
      """)
    return dir
  }

  @Test(arguments: [[], ["--stream"]])
  func anOutputThatTheScriptRequiresIsRefused(extra: [String]) throws {
    let dir = try Self.folder("require\(extra.count)")
    let r = try lifesim(["run", dir + "/requires.lua", "-o", dir + "/helper.lua"] + extra)
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("requires.lua:1:"), "\(r.stderr)")
    #expect(r.stderr.contains("helper.lua is also --output"), "\(r.stderr)")
    #expect(contents(dir + "/helper.lua") == Self.module)
  }

  @Test(arguments: [[], ["--stream"], ["--format", "jsonl", "--stream"]])
  func anOutputThatTheScriptReadsAsCSVIsRefused(extra: [String]) throws {
    let dir = try Self.folder("csv\(extra.count)")
    let r = try lifesim(["run", dir + "/reads.lua", "-o", dir + "/usage.csv"] + extra)
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("reads.lua:2:"), "\(r.stderr)")
    #expect(r.stderr.contains("usage.csv is also --output"), "\(r.stderr)")
    #expect(contents(dir + "/usage.csv") == Self.usage)
    // Nothing else was left beside it (the streamed records went nowhere).
    let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    #expect(left == ["helper.lua", "reads.lua", "requires.lua", "usage.csv"], "\(left)")
  }

  /// An existing output that the script does not read is replaced as before.
  @Test func anExistingStreamOutputIsStillReplaced() throws {
    let dir = try Self.folder("replace")
    try HostileCLITests.write(dir + "/old.txt", "yesterday\n")
    let r = try lifesim(["run", dir + "/reads.lua", "-o", dir + "/old.txt", "--stream"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!contents(dir + "/old.txt").contains("yesterday"))
    #expect(contents(dir + "/old.txt").contains("1"), "\(contents(dir + "/old.txt"))")
  }
}

extension OutputOverReadFileTests {
  /// The same refusal where an experiment or an explored script requires its own output.
  @Test func batchAndExploreRefuseAnOutputTheScriptRequires() throws {
    let dir = try Self.folder("batch-explore")
    try HostileCLITests.write(dir + "/exp.lua", """
      local rows = lifesim.workload.read_csv("usage.csv")
      return lifesim.experiment{ name = "e", params = { x = { 1 } }, seeds = 1,
        run = function(p, seed) return { v = #rows } end }
      """)
    let batch = try lifesim(["batch", dir + "/exp.lua", "-o", dir + "/usage.csv", "--force", "--quiet"])
    #expect(batch.status == 2, "\(batch.stderr)")
    #expect(batch.stderr.contains("usage.csv is also --output"), "\(batch.stderr)")
    #expect(contents(dir + "/usage.csv") == Self.usage)
    try HostileCLITests.write(dir + "/search.lua", """
      local h = require("helper")
      local dev = lifesim.device{}
      dev:install{ bundle = "com.example.a" }
      lifesim.invariant("never", function() return false end)
      """)
    let explore = try lifesim(["explore", dir + "/search.lua", "-o", dir + "/helper.lua", "--depth", "1"])
    #expect(explore.status == 2, "\(explore.stderr)")
    #expect(explore.stderr.contains("helper.lua is also --output"), "\(explore.stderr)")
    #expect(contents(dir + "/helper.lua") == Self.module)
  }
}
