import Testing
@testable import LifeSimExplain

/// A log is read in one form; lifecycle lines of another form among the
/// lines read past are counted and said, with the option that reads them.
struct LogOtherFormsTests {
  @Test func flutterLinesInAUIKitLogAreSaid() throws {
    let log = try LogReader.read("""
      10:00:00.000 application(_:didFinishLaunchingWithOptions:)
      10:00:00.100 applicationDidBecomeActive(_:)
      10:00:05.000 flutter: AppLifecycleState.inactive
      10:00:05.100 applicationWillResignActive(_:)
      10:00:05.900 flutter: AppLifecycleState.paused
      10:00:06.000 applicationDidEnterBackground(_:)
      """)
    #expect(log.format == .text && log.ignored == 2)
    #expect(log.notes == ["2 of the lines read past are Flutter AppLifecycleState lines (the first: line 3); "
                          + "a log is read in one form, and --format flutter reads those"])
  }

  @Test func uikitAndReactNativeLinesInAFlutterLogAreSaidEachOnce() throws {
    let log = try LogReader.read("""
      flutter: AppLifecycleState.resumed
      flutter: AppLifecycleState.inactive
      flutter: AppLifecycleState.paused
      AppDelegate applicationDidEnterBackground:
      AppState changed to background
      """, format: .flutter)
    #expect(log.ignored == 2)
    #expect(log.notes == ["1 of the lines read past is a UIKit lifecycle line (the first: line 4); "
                          + "a log is read in one form, and --format text reads those",
                          "1 of the lines read past is a React Native AppState line (the first: line 5); "
                          + "a log is read in one form, and --format react-native reads those"])
  }

  @Test func otherLinesReadPastAreNotNoted() throws {
    let log = try LogReader.read("""
      applicationDidBecomeActive:
      GET /feed 200
      applicationWillResignActive:
      """)
    #expect(log.ignored == 1 && log.notes.isEmpty)
  }
}
