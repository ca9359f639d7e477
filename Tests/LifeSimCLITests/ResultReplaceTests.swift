import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every command that writes a result file takes its lock, and one that
/// replaces a file (`batch --force`, `merge`) writes the new one beside it
/// and renames it over the old one only when complete: a merge into a file a
/// batch is writing is refused, a batch whose runs read the file it replaces
/// leaves that file as it was, and a stopped `--force` batch keeps both the
/// old file and its own runs.
struct ResultReplaceTests {
  static func folder(_ name: String) throws -> String {
    let path = tempPath("replace-\(name)")
    try? FileManager.default.removeItem(atPath: path)
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  static let quick = """
    return lifesim.experiment{
      name = "quick", params = { n = { 1, 2 } }, seeds = 2,
      run = function(p, seed) return { v = p.n * 10 + seed } end,
    }
    """

  /// A merge takes the output's lock as a batch does: while a batch holds
  /// it, the merge is refused and the file is left to the batch.
  @Test(arguments: ["csv", "sqlite"])
  func aMergeIntoAFileABatchIsWritingIsRefused(format: String) throws {
    let dir = try Self.folder("merge-lock-\(format)")
    let exp = dir + "/quick.lua"
    try Self.quick.write(toFile: exp, atomically: true, encoding: .utf8)
    for i in 0..<2 {
      let r = try lifesim(["batch", exp, "-o", "\(dir)/p\(i).\(format)", "--shard", "\(i)/2", "--quiet"])
      #expect(r.status == 0, "\(r.stderr)")
    }
    let out = "\(dir)/out.\(format)"
    let w = try lifesim(["batch", exp, "-o", out, "--quiet"])
    #expect(w.status == 0, "\(w.stderr)")
    let before = contents(out)
    // The lock a running batch holds on its output (`flock` on the file).
    // Closed on exec: a lifesim another test spawns meanwhile must not
    // inherit the descriptor, and with it the lock.
    let fd = open(out, O_RDONLY | O_CLOEXEC)
    #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
    let m = try lifesim(["merge", "\(dir)/p0.\(format)", "\(dir)/p1.\(format)", "-o", out])
    close(fd)
    #expect(m.status == 2, "\(m.stderr)")
    #expect(m.stderr.contains("\(out) is in use: another lifesim batch is writing it"), "\(m.stderr)")
    #expect(contents(out) == before, "the batch's file is not replaced")
    #expect(!FileManager.default.fileExists(atPath: "\(dir)/out.unfinished.\(format)"))
    // Once the lock is gone, the merge replaces it.
    let again = try lifesim(["merge", "\(dir)/p0.\(format)", "\(dir)/p1.\(format)", "-o", out])
    #expect(again.status == 0, "\(again.stderr)")
  }

  /// `--force` onto a file a run reads: the runs that do not read it are
  /// made, the first that does stops the batch, and the file stays as it was,
  /// with nothing of the batch left beside it.
  @Test(arguments: ["csv", "jsonl", "sqlite"])
  func forceOntoAFileTheRunsReadLeavesItAsItWas(format: String) throws {
    let dir = try Self.folder("reads-\(format)")
    let data = "\(dir)/usage.\(format)"
    let exp = dir + "/reads.lua"
    try """
      return lifesim.experiment{
        name = "reads", params = { n = { 1, 2 } }, seeds = 2,
        run = function(p, seed)
          if p.n == 1 then return { rows = 0 } end
          return { rows = #lifesim.workload.read_csv("usage.\(format)") }
        end,
      }
      """.write(toFile: exp, atomically: true, encoding: .utf8)
    let original = "0,com.example.a,open\n10,com.example.a,close\n"
    try original.write(toFile: data, atomically: true, encoding: .utf8)
    let r = try lifesim(["batch", exp, "-o", data, "--force", "--jobs", "1", "--quiet"])
    #expect(r.status == 2, "\(r.stderr)")
    #expect(r.stderr.contains("run 2 (seed 1): \(data) is also --output \(data): lifesim does not write over its input"),
            "\(r.stderr)")
    #expect(r.stderr.contains("\(data) is as it was"), "\(r.stderr)")
    #expect(contents(data) == original)
    let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
    #expect(left == ["reads.lua", "usage.\(format)"], "\(left)")
  }

  /// A symbolic link named by -o stays a link: --force replaces the file it
  /// points to.
  @Test func forceThroughASymbolicLinkReplacesTheFileItPointsTo() throws {
    let dir = try Self.folder("link")
    let exp = dir + "/quick.lua"
    try Self.quick.write(toFile: exp, atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: dir + "/store", withIntermediateDirectories: true)
    try "old\n".write(toFile: dir + "/store/real.csv", atomically: true, encoding: .utf8)
    try FileManager.default.createSymbolicLink(atPath: dir + "/link.csv", withDestinationPath: "store/real.csv")
    let r = try lifesim(["batch", exp, "-o", dir + "/link.csv", "--force", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    let dest = try? FileManager.default.destinationOfSymbolicLink(atPath: dir + "/link.csv")
    #expect(dest == "store/real.csv")
    #expect(contents(dir + "/store/real.csv").hasPrefix("# lifesim {\"experiment\":\"quick\""))
  }

  /// A --force batch stopped (Ctrl-C) or killed leaves the old file as it
  /// was and its own runs in the unfinished file beside it; --resume
  /// continues that file and replaces the old one when the batch ends.
  @Test(arguments: [SIGINT, SIGKILL])
  func aStoppedForceBatchKeepsTheOldFileUntilItEnds(signal: Int32) throws {
    let dir = try Self.folder("stopped-force-\(signal)")
    let exp = dir + "/slowish.lua"
    try ResultSafetyTests.slow.write(toFile: exp, atomically: true, encoding: .utf8)
    let whole = dir + "/whole.csv", out = dir + "/out.csv", unfinished = dir + "/out.unfinished.csv"
    let w = try lifesim(["batch", exp, "-o", whole, "--quiet"])
    #expect(w.status == 0, "\(w.stderr)")
    try "yesterday\n".write(toFile: out, atomically: true, encoding: .utf8)

    let p = Process()
    p.executableURL = binary
    p.arguments = ["batch", exp, "-o", out, "--force", "--jobs", "2", "--quiet"]
    let errPath = dir + "/stderr.txt"
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle(forWritingAtPath: errPath)
    try p.run()
    ResultSafetyTests.waitForRows(unfinished, 12)
    #expect(contents(out) == "yesterday\n", "the old file stays while the batch runs")
    kill(p.processIdentifier, signal)
    p.waitUntilExit()
    #expect(contents(out) == "yesterday\n", "and after it stopped")
    #expect(FileManager.default.fileExists(atPath: unfinished))
    if signal == SIGINT {
      let said = contents(errPath)
      #expect(said.contains("runs are kept in \(unfinished) (\(out) is as it was: --force replaces it when the batch ends)"),
              "\(said)")
    }
    // Starting again without a flag is refused, naming what is there.
    let plain = try lifesim(["batch", exp, "-o", out, "--quiet"])
    #expect(plain.status == 2, "\(plain.stderr)")
    let r = try lifesim(["batch", exp, "-o", out, "--resume", "--jobs", "2", "--quiet"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("resuming \(unfinished)"), "\(r.stderr)")
    #expect(contents(out) == contents(whole))
    #expect(!FileManager.default.fileExists(atPath: unfinished))
  }
}
