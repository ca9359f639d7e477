import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// The search from a log to its steps, without Lua.
struct ExplainSearchTests {
  func explain(_ text: String, _ configure: (inout ExplainOptions) -> Void = { _ in }) throws -> (ParsedLog, ExplainResult) {
    let log = try LogReader.read(text)
    var options = ExplainOptions()
    configure(&options)
    return (log, try ExplainSearch(log: log, options: options).run())
  }

  func names(_ e: Explanation) -> [String] { e.steps.map { $0.step.name(bundle: "com.example.app") } }

  @Test func aLaunchAndHomeIsExplainedShortestFirstWithTheLinesEachStepAccountsFor() throws {
    let (_, r) = try explain("""
      applicationDidBecomeActive:
      applicationWillResignActive:
      applicationDidEnterBackground:
      """)
    let first = try #require(r.explanations.first)
    #expect(names(first) == ["launch com.example.app", "home"])
    #expect(first.steps.map(\.events) == [0..<1, 1..<3])
    // Ambiguous: the same two lines come from a lock or a swipe in the switcher, listed in the search's order.
    #expect(r.explanations.dropFirst().map(names) == [["launch com.example.app", "lock"], ["launch com.example.app", "kill com.example.app"]])
    #expect(!r.scenes)
  }

  /// A Capacitor app's Home and return: its events are the notifications,
  /// so the story is the one its UIKit lines would tell.
  @Test func aCapacitorLogIsExplainedByItsNotifications() throws {
    let (log, r) = try explain("""
      ⚡️  [log] - App state changed. Is active? true
      ⚡️  [log] - App state changed. Is active? false
      ⚡️  [log] - pause
      ⚡️  [log] - resume
      ⚡️  [log] - App state changed. Is active? true
      """)
    #expect(log.format == .capacitor)
    let first = try #require(r.explanations.first)
    #expect(names(first) == ["launch com.example.app", "home", "launch com.example.app"])
  }

  @Test func theAlternativesAreListedInTheSameOrderEveryTime() throws {
    let text = "sceneWillResignActive(_:)\nsceneDidEnterBackground(_:)\nsceneWillEnterForeground(_:)\nsceneDidBecomeActive(_:)\n"
    let a = try explain(text).1.explanations.map(names)
    let b = try explain(text).1.explanations.map(names)
    #expect(a == b)
    #expect(a == [["launch com.example.app", "home", "launch com.example.app"], ["launch com.example.app", "lock", "unlock"]])
  }

  @Test func aLogThatStartsMidLifeHasUnloggedStepsBeforeIt() throws {
    let (_, r) = try explain("""
      applicationDidEnterBackground:
      application:didFinishLaunchingWithOptions:
      """)
    let first = try #require(r.explanations.first)
    #expect(names(first) == ["launch com.example.app", "kill com.example.app", "launch com.example.app"])
    // The first launch's didFinishLaunching comes before the log.
    #expect(first.steps[0].beforeLog == ["application:didFinishLaunchingWithOptions:"])
    #expect(first.steps[0].events.isEmpty)
  }

  @Test func scenesAreRecognisedFromTheLogUnlessAskedOtherwise() throws {
    let scene = "sceneDidBecomeActive(_:)\nsceneWillResignActive(_:)\n"
    #expect(try explain(scene).1.scenes)
    let (_, r) = try explain(scene) { $0.scenes = false }
    #expect(!r.scenes && r.explanations.isEmpty)
    #expect(try explain(scene) { $0.ios = 12 }.1.explanations.isEmpty)  // no scenes before iOS 13
  }

  @Test func theVersionDecides_NotificationCenterReactivatesOnlyOnIOS12() throws {
    let text = String(repeating: "applicationDidBecomeActive:\napplicationWillResignActive:\n", count: 2) + "applicationDidBecomeActive:\n"
    let r12 = try explain(text) { $0.ios = 12 }.1
    #expect(r12.explanations.first.map(names) == ["launch com.example.app", "interrupt notification_center", "end_interrupt"])
    // Elsewhere the shade only resigns the app while it shows: two part-way pulls instead.
    let r17 = try explain(text) { $0.ios = 17 }.1
    #expect(r17.explanations.first.map(names)
      == ["launch com.example.app", "interrupt notification_center_peek", "interrupt notification_center_peek"])
  }

  @Test func timestampsMakeTheWaits() throws {
    let (_, r) = try explain("""
      09:00:00.000 applicationDidEnterBackground:
      10:30:00.000 application:didFinishLaunchingWithOptions:
      """)
    let first = try #require(r.explanations.first)
    #expect(names(first).contains("advance 5400"))
    // Without the times, no wait is needed.
    let (_, untimed) = try explain("applicationDidEnterBackground:\napplication:didFinishLaunchingWithOptions:\n")
    #expect(!untimed.explanations[0].steps.contains { if case .advance = $0.step.kind { return true }; return false })
  }

  @Test func aGapShorterThanTheBackgroundTimeCannotHoldAKillByIt() throws {
    // Lines 1 s apart: nothing may pass between them, so a launch right after a
    // Home is a return to the foreground, and a cold launch needs a kill.
    let (_, r) = try explain("""
      10:00:00.000 applicationDidEnterBackground:
      10:00:01.000 applicationWillEnterForeground:
      """)
    let first = try #require(r.explanations.first)
    #expect(!names(first).contains { $0.hasPrefix("advance") })
  }

  @Test func anUnexplainableLogNamesItsFirstUnreachedLineAndWhatTheModelSends() throws {
    let (log, r) = try explain("""
      sceneWillEnterForeground(_:)
      sceneDidBecomeActive(_:)
      sceneWillResignActive(_:)
      sceneDidEnterBackground(_:)
      sceneDidBecomeActive(_:)
      """)
    #expect(r.explanations.isEmpty)
    #expect(r.stop == .maxUnlogged(3))
    #expect(r.reached == 4)
    #expect(r.expected == ["sceneWillEnterForeground:"])
    #expect(r.prefix.map(names) == ["launch com.example.app", "home"])
    let text = ExplainReport(log: log, options: ExplainOptions(), result: r).text
    #expect(text.contains("first line no sequence reaches: line 5: sceneDidBecomeActive(_:)"))
    #expect(text.contains("after sceneDidEnterBackground: (line 4), iOS 17 sends sceneWillEnterForeground: before sceneDidBecomeActive: (docs/reference.md §1.4)"))
    #expect(text.contains("longest explained prefix (lines 1–4), 2 steps:"))
  }

  @Test func theSearchStopsAtItsLimitsAndSaysWhich() throws {
    let text = "applicationDidBecomeActive:\napplicationWillResignActive:\napplicationDidEnterBackground:\n"
    let (log, r) = try explain(text) { $0.maxStates = 5 }
    #expect(r.stop == .maxStates(5) && r.explanations.isEmpty)
    #expect(ExplainReport(log: log, options: { var o = ExplainOptions(); o.maxStates = 5; return o }(), result: r).text
      .contains("not explained within --max-states 5 distinct states"))
    #expect(try explain(text) { $0.depth = 1 }.1.stop == .depth(1))
    // A line no step logs: the unlogged steps in a row are bounded.
    let text2 = "applicationWillTerminate:\napplicationDidReceiveMemoryWarning:\napplicationWillTerminate:\n"
    #expect(try !explain(text2).1.explanations.isEmpty)
    let never = try explain(text2) { $0.maxUnlogged = 0 }.1
    #expect(never.stop == .maxUnlogged(0) && never.explanations.isEmpty)
  }

  @Test func reactNativeAndFlutterLogsShowChangesOnly() throws {
    let rn = try explain("AppState active\nAppState inactive\nAppState background\nAppState active\n").1
    #expect(rn.explanations.first.map(names) == ["launch com.example.app", "home", "launch com.example.app"])
    let flutter = try explain("""
      AppLifecycleState.resumed
      AppLifecycleState.inactive
      AppLifecycleState.paused
      AppLifecycleState.inactive
      AppLifecycleState.resumed
      """).1
    #expect(flutter.explanations.first.map(names) == ["launch com.example.app", "home", "launch com.example.app"])
  }

  @Test func sentryBreadcrumbsWithALowMemoryWarning() throws {
    let r = try explain(#"""
      [{"category": "app.lifecycle", "data": {"state": "foreground"}},
       {"category": "device.event", "data": {"action": "LOW_MEMORY"}},
       {"category": "app.lifecycle", "data": {"state": "background"}}]
      """#).1
    #expect(r.explanations.first.map(names) == ["launch com.example.app", "memory_warning", "home"])
  }
}
