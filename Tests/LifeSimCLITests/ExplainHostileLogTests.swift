import Foundation
import Testing

/// Logs a hostile or careless hand gives `lifesim explain`: times out of any
/// range, terminal escapes, and a search stopped by its own bound.
struct ExplainHostileLogTests {
  func write(_ name: String, _ text: String) throws -> String {
    let path = tempPath(name)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test(arguments: ["1e15", "1e308", "-1e308"])
  func aBreadcrumbTimeOutOfRangeIsRefused(timestamp: String) throws {
    let path = try write("explain-big-time-\(timestamp).json", """
      [{"category":"app.lifecycle","data":{"state":"foreground"},"timestamp":0},
       {"category":"app.lifecycle","data":{"state":"background"},"timestamp":\(timestamp)}]
      """)
    let r = try lifesim(["explain", path])
    #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("is not a time in seconds since 1970"), "\(r.stderr)")
  }

  @Test func aWaitLongerThanARunMayTakeIsRefused() throws {
    let path = try write("explain-long-wait.log", """
      0001-01-01 00:00:00.000 applicationDidBecomeActive
      9999-12-31 23:59:59.999 applicationWillResignActive

      """)
    let r = try lifesim(["explain", path])
    #expect(r.status == 2, "\(r.stdout)\n\(r.stderr)")
    #expect(r.stderr.contains("line 2:") && r.stderr.contains("(100 years)"), "\(r.stderr)")
  }

  @Test func aLogsEscapesReachTheTerminalEscaped() throws {
    let path = try write("explain-escapes.log", """
      applicationDidEnterBackground
      applicationWillEnterForeground
      \u{1b}[2J\u{07}applicationWillEnterForeground: \u{1b}[31m\u{01}x

      """)
    let r = try lifesim(["explain", path])
    #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
    let all = r.stdout + r.stderr
    #expect(!all.unicodeScalars.contains { $0.value == 0x1b || $0.value == 0x07 || $0.value == 0x01 }, "\(all.debugDescription)")
    #expect(all.contains("\\x1b[2J\\x07applicationWillEnterForeground"), "\(all)")
  }

  @Test func aSearchStoppedByItsBoundClaimsNoRuleOfTheModel() throws {
    let r = try lifesim(["explain", "Scripts/explain/kill_backgrounds_twice_ios7.log", "--depth", "1"])
    #expect(r.status == 1, "\(r.stdout)\n\(r.stderr)")
    let all = r.stdout + r.stderr
    #expect(all.contains("not explained within --depth 1 steps"), "\(all)")
    #expect(all.contains("not reached within the bound"), "\(all)")
    #expect(!all.contains("sends none of") && !all.contains("docs/reference.md"), "\(all)")
  }
}
