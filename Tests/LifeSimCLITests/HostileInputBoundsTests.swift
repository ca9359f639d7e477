import Foundation
import Testing

/// Hostile inputs end in a message, within bounds: none of them may end in a
/// signal, a hang or unbounded host memory.
struct HostileInputBoundsTests {
  private var dir: URL {
    let d = FileManager.default.temporaryDirectory.appendingPathComponent("lifesim-review-\(getpid())")
    try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
    return d
  }

  @Test func aBrokenSurrogatePairInAJSONLTraceIsReplaced() throws {
    let trace = dir.appendingPathComponent("surrogate.jsonl").path
    let line = #"{"t":0.0,"seq":1,"kind":"action","app":"a\ud800\u0041b","action":"launch"}"# + "\n"
    try line.write(toFile: trace, atomically: true, encoding: .utf8)
    let svg = dir.appendingPathComponent("surrogate.svg").path
    unlink(svg)
    let r = try lifesim(["timeline", trace, "-o", svg])
    #expect(r.status == 0 || r.status == 2, "\(r.status) \(r.stderr)")
  }

  @Test func aHugeGridIsRefusedBeforeItIsListed() throws {
    let values = (1...2000).map(String.init).joined(separator: ",")
    let path = try script("huge_grid.lua", """
      return lifesim.experiment{ name = "huge", seeds = 1,
        params = { a = { \(values) }, b = { \(values) }, c = { \(values) } },
        run = function(p) return { x = 1 } end }
      """)
    let out = dir.appendingPathComponent("huge.csv").path
    unlink(out)
    let r = try lifesim(["batch", path, "-o", out])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("the experiment's grid has more than 1000000 points"), "\(r.stderr)")
  }

  @Test func aConstraintThatLoopsStopsAtTheInstructionLimit() throws {
    let path = try script("slow_constraint.lua", """
      return lifesim.experiment{ name = "slow", seeds = 1,
        params = { a = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, b = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 } },
        constraint = function(p) local n = 0; for i = 1, 1e5 do n = n + i end; return false end,
        run = function(p) return { x = 1 } end }
      """)
    let out = dir.appendingPathComponent("slow.csv").path
    unlink(out)
    let r = try lifesim(["batch", path, "-o", out, "--max-instructions", "1000000"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("instruction"), "\(r.stderr)")
  }

  @Test func aHugeErrorMessageIsCut() throws {
    let path = try script("huge_error.lua", """
      error(string.rep("x", 10 * 1024 * 1024))
      """)
    let r = try lifesim(["run", path])
    #expect(r.status == 2)
    #expect(r.stderr.contains("the message goes on: "), "\(r.stderr.prefix(200))")
    #expect(r.stderr.utf8.count < 200_000, "\(r.stderr.utf8.count) bytes of stderr")
  }

  @Test func aFIFONeitherHangsTestNorRequire() throws {
    let folder = dir.appendingPathComponent("fifo")
    try? FileManager.default.removeItem(at: folder)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    #expect(mkfifo(folder.appendingPathComponent("zz_test.lua").path, 0o600) == 0)
    #expect(mkfifo(folder.appendingPathComponent("ff.lua").path, 0o600) == 0)
    let t = try runTool([binary.path, "test", folder.path], timeout: 60)
    #expect(t.stderr.contains("which is not a regular file"), "\(t.stderr)")
    let main = folder.appendingPathComponent("main.lua").path
    try "local m = require('ff')\n".write(toFile: main, atomically: true, encoding: .utf8)
    let r = try runTool([binary.path, "run", main], timeout: 60)
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("not a regular file: refused"), "\(r.stderr)")
  }

  @Test func aViolationReportThatCannotBeWrittenIsExit2() throws {
    let r = try runTool(["/bin/sh", "-c", "\"$0\" explore Scripts/explore/forgotten_task.lua --depth 5 > /dev/full", binary.path],
                        in: repoRoot)
    #expect(r.status == 2, "\(r.status) \(r.stderr)")
    #expect(r.stderr.contains("standard output"), "\(r.stderr)")
  }
}
