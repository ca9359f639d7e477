import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// A log copied from Windows or saved by a tool that ends lines with CR LF is
/// an ordinary input: each of its lines is a line (Swift reads "\r\n" as one
/// character, which a split on "\n" alone never meets).
struct LogLineEndingTests {
  @Test func textLinesEndingInCRLFAreEachALine() throws {
    let log = try LogReader.read(
      "applicationDidBecomeActive:\r\napplicationWillResignActive:\r\napplicationDidEnterBackground:\r\n")
    #expect(log.events.map { log.symbols[$0.symbol].name } == [
      "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:",
    ])
    #expect(log.events.map(\.line) == [1, 2, 3])
  }

  @Test func flutterLinesEndingInCRLFAreEachALine() throws {
    let log = try LogReader.read(
      "I/flutter: AppLifecycleState.inactive\r\nI/flutter: AppLifecycleState.paused\r\nI/flutter: AppLifecycleState.resumed\r\n")
    #expect(log.format == .flutter)
    #expect(log.events.map(\.line) == [1, 2, 3])
  }

  @Test func jsonLinesEndingInCRLFAreEachABreadcrumb() throws {
    let log = try LogReader.read("""
      {"category":"app.lifecycle","data":{"state":"background"},"timestamp":"2024-03-01T10:00:00Z"}\r
      {"category":"app.lifecycle","data":{"state":"foreground"},"timestamp":"2024-03-01T10:05:00Z"}\r

      """)
    #expect(log.format == .sentry)
    #expect(log.events.count == 2)
  }
}
