import Foundation
import Testing

/// `lifesim explain -o FILE` where FILE cannot be written is refused before
/// the search, which may take minutes, not after it with the answer printed.
struct ExplainOutputPathTests {
  @Test(arguments: [("a folder", "it is a folder"), ("missing/x.lua", "no folder ")])
  func anOutputThatCannotBeWrittenIsRefusedFirst(name: String, reason: String) throws {
    let log = try script("explain-output-path.log", "applicationDidBecomeActive:\napplicationWillResignActive:\n")
    let folder = tempPath("explain-output-folder")
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let output = name == "a folder" ? folder : folder + "/" + name
    let r = try lifesim(["explain", log, "-o", output])
    #expect(r.status == 2)
    #expect(r.stderr.contains("--output \(output) cannot be written: \(reason)"), "\(r.stderr)")
    #expect(r.stdout.isEmpty, "the search ran: \(r.stdout)")
  }

  @Test func theCountsAreSingularForOne() throws {
    // A timed log allows one unlogged step in a row at the least (the wait
    // before a line), so a search of it that runs out of states is the only one.
    let log = try script("explain-one-state.log", "10:00:00.000 applicationWillTerminate:\n10:00:01.000 applicationDidBecomeActive:\n")
    let r = try lifesim(["explain", log, "--depth", "1", "--max-states", "1", "--max-unlogged", "1"])
    #expect(r.stderr.contains("1 state, "), "\(r.stderr)")
    #expect(!r.stderr.contains("1 states"))
  }
}
