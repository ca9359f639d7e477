import LifeSimEngine
import Testing
@testable import LifeSimExplain

struct LogReaderTests {
  @Test func textLinesInEveryFormOfTheNamesAndTheirTimestamps() throws {
    let log = try LogReader.read("""
      2024-03-01 10:00:00.000 MyApp[123:456] -[AppDelegate application:didFinishLaunchingWithOptions:]
      2024-03-01 10:00:00.120 MyApp[123:456] some other output
      10:00:00.250 applicationDidBecomeActive(_:)
      2024-03-01T10:00:05.500Z UIApplicationWillResignActiveNotification
      [2024-03-01 10:00:05.600+0000] NotificationCenter: UIApplication.didEnterBackgroundNotification
      print: applicationWillEnterForeground
      """)
    #expect(log.format == .text)
    #expect(log.events.map { log.symbols[$0.symbol].name } == [
      "application:didFinishLaunchingWithOptions:", "applicationDidBecomeActive:",
      "UIApplicationWillResignActiveNotification", "UIApplicationDidEnterBackgroundNotification",
      "applicationWillEnterForeground:",
    ])
    #expect(log.events.map(\.line) == [1, 3, 4, 5, 6])
    #expect(log.ignored == 1)
    // One line has no time: the log has none.
    #expect(log.events.allSatisfy { $0.time == nil })
  }

  @Test func timestampsAreReadWithTheirOffsets() throws {
    let log = try LogReader.read("""
      2024-03-01 10:00:00.000+0100 App[1:2] sceneWillEnterForeground(_:)
      2024-03-01T09:30:00.250Z sceneDidBecomeActive(_:)
      2024-03-01T09:30:00.5+00:00 sceneWillResignActive(_:)
      """)
    #expect(log.events.map(\.time) == [
      Timestamp.daysFromCivil(2024, 3, 1) * 86_400_000_000 + 9 * 3_600_000_000,
      Timestamp.daysFromCivil(2024, 3, 1) * 86_400_000_000 + 9 * 3_600_000_000 + 1_800_250_000,
      Timestamp.daysFromCivil(2024, 3, 1) * 86_400_000_000 + 9 * 3_600_000_000 + 1_800_500_000,
    ])
    #expect(log.namesSceneMethods)
    #expect(Timestamp.daysFromCivil(1970, 1, 1) == 0)
    #expect(Timestamp.daysFromCivil(2000, 3, 1) == 11_017)
  }

  @Test func aNameInsideALongerWordIsNotALifecycleLine() throws {
    #expect(LogReader.textSymbol("myapplicationDidBecomeActiveHandler") == nil)
    #expect(LogReader.textSymbol("UIApplicationDidBecomeActiveNotification")?.name == "UIApplicationDidBecomeActiveNotification")
    #expect(LogReader.textSymbol("scene(_:willConnectTo:options:)")?.name == "scene:willConnectToSession:options:")
  }

  @Test func flutterStatesMapToTheNotificationsItsEmbeddingListensTo() throws {
    let log = try LogReader.read("""
      I/flutter: state changed: AppLifecycleState.resumed
      flutter: AppLifecycleState.inactive
      flutter: AppLifecycleState.hidden
      flutter: AppLifecycleState.paused
      """)
    #expect(log.format == .flutter)
    #expect(log.collapsesRepeats)
    // hidden is read (Flutter 3.13+): the framework's step, no notification of its own.
    #expect(log.events.count == 4)
    #expect(log.ignored == 0)
    #expect(log.flutterWalks)
    #expect(log.symbols[log.events[2].symbol].atoms.isEmpty)
    #expect(log.symbols[log.events[1].symbol].atoms == [.notification(.willResignActive), .notification(.willEnterForeground)])
  }

  @Test func flutterStatesPrintedByName() throws {
    let log = try LogReader.read("""
      flutter: didChangeAppLifecycleState inactive
      flutter: didChangeAppLifecycleState hidden
      flutter: didChangeAppLifecycleState paused
      flutter: something else
      """)
    #expect(log.format == .flutter)
    #expect(log.events.map { log.symbols[$0.symbol].name } == [
      "AppLifecycleState.inactive", "AppLifecycleState.hidden", "AppLifecycleState.paused",
    ])
    #expect(log.ignored == 1)
  }

  @Test func reactNativeAppStateLines() throws {
    let log = try LogReader.read("""
      LOG  AppState changed to active
      LOG  AppState changed to inactive
      LOG  AppState changed to background
      LOG  something else
      """)
    #expect(log.format == .reactNative)
    #expect(log.events.map { log.symbols[$0.symbol].name } == ["AppState active", "AppState inactive", "AppState background"])
    #expect(log.ignored == 1)
  }

  /// Capacitor's App plugin (`@capacitor/app`'s iOS AppPlugin.swift):
  /// `appStateChange` with `isActive` true on did become active and false on
  /// will resign active, `pause` on did enter background, `resume` on will
  /// enter foreground. The first two lines are as the plugin's documented
  /// listener prints them in Xcode's console (`console.log('App state
  /// changed. Is active?', isActive)`, under Capacitor's `⚡️  [log] -`).
  @Test func capacitorAppPluginLines() throws {
    // Capacitor's own bridge lines (TO JS, To Native) come with each event
    // and with App.getState()'s answer: read past.
    let log = try LogReader.read("""
      ⚡️  TO JS {"isActive":false}
      ⚡️  [log] - App state changed. Is active? false
      ⚡️  TO JS {}
      ⚡️  [log] - pause
      ⚡️  To Native ->  App getState 12345
      ⚡️  To Native ->  NativeAudio resume 81718283
      ⚡️  [log] - Upload will resume when online
      ⚡️  [log] - resume
      appStateChange {"isActive":true}
      ⚡️  [log] - appStateChange false
      a resume of the download
      """)
    #expect(log.format == .capacitor)
    #expect(log.events.map { log.symbols[$0.symbol].name }
            == ["appStateChange isActive false", "Capacitor pause", "Capacitor resume", "appStateChange isActive true",
                "appStateChange isActive false"])
    #expect(log.symbols.map(\.atoms) == [[.notification(.willResignActive)], [.notification(.didEnterBackground)],
                                          [.notification(.willEnterForeground)], [.notification(.didBecomeActive)]])
    #expect(log.ignored == 6)
    // `is active` in another sense, with no mark of Capacitor, leaves a UIKit log as it was read.
    let audio = try LogReader.read("""
      applicationDidBecomeActive
      AVAudioSession is active: true
      player isActive=true
      applicationWillResignActive
      AVAudioSession is active: false
      player isActive=false
      applicationDidEnterBackground
      """)
    #expect(audio.format == .text && audio.events.count == 3 && audio.notes.isEmpty)
    // Named by --format too; a UIKit line beside them is read past, and said.
    let mixed = try LogReader.read("applicationDidEnterBackground:\nappStateChange {\"isActive\":true}\n", format: .capacitor)
    #expect(mixed.events.count == 1 && mixed.notes.contains { $0.contains("--format text reads those") })
  }

  @Test func sentryBreadcrumbsInEachShape() throws {
    let event = """
      {"event_id": "x", "breadcrumbs": {"values": [
        {"timestamp": "2024-03-01T10:00:00.000Z", "type": "navigation", "category": "app.lifecycle", "data": {"state": "foreground"}},
        {"timestamp": "2024-03-01T10:00:01.000Z", "category": "ui.lifecycle", "data": {"screen": "HomeViewController"}},
        {"timestamp": "2024-03-01T10:02:00.000Z", "category": "device.event", "data": {"action": "LOW_MEMORY"}},
        {"timestamp": 1709287500.5, "category": "app.lifecycle", "data": {"state": "background"}}
      ]}}
      """
    let log = try LogReader.read(event)
    #expect(log.format == .sentry)
    #expect(log.unit == "breadcrumb")
    // ui.lifecycle is a screen's viewDidAppear:.
    #expect(log.events.map(\.line) == [1, 2, 3, 4])
    #expect(log.ignored == 0)
    #expect(log.events[0].time == 1_709_287_200_000_000)
    #expect(log.events[3].time == 1_709_287_500_500_000)
    let lines = try LogReader.read("""
      {"category": "app.lifecycle", "data": {"state": "foreground"}}
      {"category": "app.lifecycle", "data": {"state": "background"}}
      """)
    #expect(lines.unit == "line" && lines.events.count == 2 && lines.events.allSatisfy { $0.time == nil })
    let bare = try LogReader.read(#"[{"category": "app.lifecycle", "data": {"state": "background"}}]"#)
    #expect(bare.events.count == 1)
  }

  @Test func aLineLogThatStartsWithABracketIsNotJSON() throws {
    let log = try LogReader.read("[t=0.000000] com.example.notes -[AppDelegate applicationDidBecomeActive:]\n")
    #expect(log.format == .text && log.events.count == 1)
  }

  @Test func noLifecycleLinesOrAnUnknownFormIsAnError() {
    #expect(throws: LogReadError.self) { try LogReader.read("hello\nworld\n") }
    #expect(throws: LogReadError.self) { try LogReader.read(#"{"some": "json"}"#) }
    #expect(throws: LogReadError.self) { try LogReader.read("AppLifecycleState.resumed\n", format: .reactNative) }
  }
}
