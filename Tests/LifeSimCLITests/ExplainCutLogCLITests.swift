import Foundation
import Testing

/// A log cut in the middle of a step (its last line a step's first
/// callback) is explained, exit 0, and the script explain writes passes.
struct ExplainCutLogCLITests {
  @Test func aLogCutMidStepIsExplainedAndItsScriptPasses() throws {
    let log = try script("explain-cut.log", """
      10:00:00.000 application:didFinishLaunchingWithOptions:
      10:00:00.100 applicationDidBecomeActive:
      10:00:05.000 applicationWillResignActive:
      10:00:05.300 applicationDidEnterBackground:
      10:00:09.000 applicationWillEnterForeground:

      """)
    let out = try script("explain-cut.lua", "")
    let r = try lifesim(["explain", log, "-o", out])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.contains("→ line 5 (the log ends before the step's applicationDidBecomeActive:)"), "\(r.stdout)")
    let run = try lifesim(["run", out])
    #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
  }
}
