import Foundation
import Testing

/// `lifesim explain`'s options refused with their reason, its bounds named
/// when they stop it, and a log whose clock goes back.
struct ExplainOptionsAndClockTests {
  static let log = "applicationDidBecomeActive:\napplicationWillResignActive:\napplicationDidEnterBackground:\n"

  @Test func aNegativeNumberIsRefusedWithItsRangeNotAsAMissingValue() throws {
    let log = try script("explain-negative.log", Self.log)
    for (option, range) in [("--depth", "--depth must be ≥ 1"), ("--max-states", "--max-states must be ≥ 1"),
                            ("--alternatives", "--alternatives must be between 0 and 100"),
                            ("--max-unlogged", "--max-unlogged must be between 0 and 100")] {
      let r = try lifesim(["explain", log, option, "-1"])
      #expect(r.status == 2 && r.stderr.contains(range) && !r.stderr.contains("Missing value"), "\(option): \(r.stderr)")
    }
  }

  @Test func scenesAndNoScenesTogetherAreAUsageError() throws {
    let log = try script("explain-both.log", Self.log)
    let r = try lifesim(["explain", log, "--scenes", "--no-scenes"])
    #expect(r.status == 2 && r.stderr.contains("--scenes") && r.stderr.contains("--no-scenes"), "\(r.stderr)")
    #expect(r.stdout.isEmpty)
  }

  /// The depth is as long as the log needs: no cap of its own, and a
  /// search stopped by it says so and names the flag.
  @Test func theDepthHasNoCapAndStoppingAtItNamesTheFlag() throws {
    let log = try script("explain-depth.log", Self.log)
    let deep = try lifesim(["explain", log, "--depth", "5000"])
    #expect(deep.status == 0, "\(deep.stderr)")
    let shallow = try lifesim(["explain", log, "--depth", "1"])
    #expect(shallow.status == 1)
    #expect(shallow.stdout.contains("not explained within --depth 1 steps (a larger --depth searches further)"), "\(shallow.stdout)")
    // With no unlogged step allowed, a search out of states is not made again.
    let few = try lifesim(["explain", log, "--max-states", "2", "--max-unlogged", "0"])
    #expect(few.status == 1)
    #expect(few.stdout.contains("not explained within --max-states 2 distinct states (a larger --max-states searches further"),
            "\(few.stdout)")
    // With more, it is made again with none, which explains this log.
    let again = try lifesim(["explain", log, "--max-states", "3"])
    #expect(again.status == 0, "\(again.stdout)")
    #expect(again.stderr.contains("the search with --max-unlogged 3 stopped at --max-states 3; explained with no step"),
            "\(again.stderr)")
  }

  /// The alternatives are bounded by what the search keeps: when a bound
  /// may leave some out, the answer says so. The ways into a state that the
  /// answer names alike (every way of bringing the app forward is a launch)
  /// are kept once, so this log's three explanations are all listed.
  @Test func alternativesLeftOutByTheSearchsBoundAreSaid() throws {
    let log = try script("explain-ways.log", "applicationDidEnterBackground:\napplicationDidBecomeActive:\n")
    let all = try lifesim(["explain", log, "--alternatives", "100"])
    #expect(all.status == 0)
    #expect(all.stdout.contains("2 other explanations of the same length:\n") && !all.stdout.contains("left out"), "\(all.stdout)")
    let many = try lifesim(["explain", log, "--alternatives", "100", "--max-states", "120"])
    #expect(many.status == 0)
    #expect(many.stdout.hasSuffix("other explanations of the same length may be left out: the search stopped at --max-states 120 "
                                  + "(a larger --max-states finds them)\n"), "\(many.stdout)")
    // None asked for: nothing to say.
    let few = try lifesim(["explain", log, "--alternatives", "0"])
    #expect(few.status == 0 && !few.stdout.contains("left out"), "\(few.stdout)")
  }

  @Test func aTimeOfDayThatGoesBackIsReadAsMidnightAndSaid() throws {
    let log = try script("explain-midnight.log", """
      23:59:58.000 applicationDidBecomeActive:
      23:59:59.000 applicationWillResignActive:
      00:00:00.500 applicationDidEnterBackground:
      """)
    let r = try lifesim(["explain", log])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("line 3: its time of day is before that of line 2; read as the next day (midnight passed)"), "\(r.stderr)")
  }

  @Test func aDatedClockThatGoesBackIsSaidNamingBothLinesAndItsWaitIsLeftFree() throws {
    let log = try script("explain-backwards.log", """
      2024-10-27 02:59:58.000 applicationDidBecomeActive:
      2024-10-27 02:59:59.000 applicationWillResignActive:
      2024-10-27 02:00:00.000 applicationDidEnterBackground:
      """)
    let r = try lifesim(["explain", log])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("line 3: its time is 3599 s before that of line 2 (a clock set back, or lines out of order); "
                              + "the wait between them is left free"), "\(r.stderr)")
    // A log that keeps its order says nothing.
    let plain = try lifesim(["explain", try script("explain-forward.log", """
      2024-10-27 02:59:58.000 applicationDidBecomeActive:
      2024-10-27 02:59:59.000 applicationWillResignActive:
      """)])
    #expect(!plain.stderr.contains("before that of"))
  }
}
