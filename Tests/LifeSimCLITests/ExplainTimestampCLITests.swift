import Foundation
import Testing

/// `lifesim explain` on a log whose timestamp no clock shows: exit 2, with the line and the stamp.
struct ExplainTimestampCLITests {
  @Test func anImpossibleDateEndsWithItsLineAndText() throws {
    let log = try script("explain-month-13.log", """
      2024-03-01 10:00:00.000 applicationDidBecomeActive:
      2024-13-45 10:00:00.000 applicationWillResignActive:

      """)
    let r = try lifesim(["explain", log])
    #expect(r.status == 2, "\(r.stdout)\(r.stderr)")
    #expect(r.stdout.isEmpty)
    #expect(r.stderr == "lifesim explain: \(log): line 2: timestamp '2024-13-45 10:00:00.000' is not a time: there is no month 13\n")
  }

  @Test func linesWithAndWithoutTimesAreSaidOnStandardError() throws {
    let log = try script("explain-some-times.log", """
      10:00:00.000 applicationDidBecomeActive:
      applicationWillResignActive:

      """)
    let r = try lifesim(["explain", log])
    #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
    #expect(r.stderr.contains("lifesim explain: \(log): 1 of the 2 lifecycle lines has no timestamp (the first: line 2)"), "\(r.stderr)")
  }
}
