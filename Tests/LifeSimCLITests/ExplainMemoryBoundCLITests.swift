import Foundation
import Testing

/// `lifesim explain --max-saved-memory`: refused out of range, and a search
/// it stops says so on standard error with the flag that changes it.
struct ExplainMemoryBoundCLITests {
  static func lines(_ count: Int) -> String {
    let cycle = ["applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:",
                 "applicationWillEnterForeground:", "applicationDidBecomeActive:", "applicationWillResignActive:",
                 "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:",
                 "applicationWillEnterForeground:"]
    var out = ["application:didFinishLaunchingWithOptions:"]
    while out.count < count { out += cycle }
    return out.prefix(count).joined(separator: "\n") + "\n"
  }

  /// Stopped at the bound, the search is made again with no unlogged step
  /// (which explains this log); standard error says both.
  @Test func aSearchStoppedByTheBoundSaysSoOnStandardError() throws {
    let log = try script("explain-memory.log", Self.lines(600))
    let r = try lifesim(["explain", log, "--max-saved-memory", "1", "--alternatives", "0"])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("lifesim explain: the search stopped at --max-saved-memory 1 MB: what it keeps"), "\(r.stderr)")
    #expect(r.stderr.contains("a larger --max-saved-memory searches further"), "\(r.stderr)")
    #expect(r.stderr.contains("the search with --max-unlogged 3 stopped at --max-saved-memory 1 MB; explained with no step"),
            "\(r.stderr)")
  }

  @Test(arguments: ["0", "-1", "1073741825"])
  func anOutOfRangeBoundIsRefused(value: String) throws {
    let log = try script("explain-memory-range.log", Self.lines(3))
    let r = try lifesim(["explain", log, "--max-saved-memory", value])
    #expect(r.status == 2 && r.stderr.contains("--max-saved-memory must be between 1 and 1073741824 MB"), "\(r.stderr)")
  }
}
