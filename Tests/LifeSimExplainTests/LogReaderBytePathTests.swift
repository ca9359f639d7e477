import Testing
@testable import LifeSimExplain

/// The reader goes over a line's bytes; a Flutter or React Native line that
/// is not ASCII is read as text, in Unicode's letters. Both ways give the
/// same kind for any line, so reading fast changes no answer.
struct LogReaderBytePathTests {
  static let lines = [
    "flutter: AppLifecycleState.paused", "AppLifecycleState: AppLifecycleState.inactive",
    "didChangeAppLifecycleState hidden\r", "AppLifecycleState.pausedX", "AppLifecycleStatex.resumed",
    "AppLifecycleState.resumed AppLifecycleState.paused", "AppLifecycleState", "🍏 AppLifecycleState.resumed ✓",
    "AppLifecycleState.pausedé", "AppLifecycleState.éresumed", "AppLifecycleState.\u{301}paused",
    "LOG AppState changed to background", "AppState active", "AppState: activé", "AppState inactive 😀",
    "AppState background\u{301}", "AppState", "état AppState active", "AppStateactive", "",
  ]

  @Test(arguments: lines)
  func theBytesAndTheTextGiveTheSameKind(line: String) {
    var bytes = line
    let flutter = bytes.withUTF8 { LogReader.flutterSymbol($0) }
    let reactNative = bytes.withUTF8 { LogReader.reactNativeSymbol($0) }
    #expect(flutter == LogReader.flutterSymbol(line))
    #expect(reactNative == LogReader.reactNativeSymbol(line))
  }

  @Test func aLineEndsAtANewlineACarriageReturnNewlineOrALoneCarriageReturn() throws {
    let log = try LogReader.read("applicationDidBecomeActive:\r\n\r\napplicationWillResignActive:\r\r\nx\ry applicationDidEnterBackground:")
    #expect(log.events.map(\.line) == [1, 3, 6])
    #expect(log.events.map(\.text) == ["applicationDidBecomeActive:", "applicationWillResignActive:", "y applicationDidEnterBackground:"])
  }
}
