import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// The model delivers a launch's callbacks at one instant; in a field log the
/// app's launch code runs between them. A gap inside a launch, up to the
/// launch watchdog's 20 s, is the app's, and no reason to invent other
/// steps; a gap inside another step is the user's.
struct ExplainSlowStepTests {
  func explain(_ text: String) throws -> ExplainResult {
    try ExplainSearch(log: try LogReader.read(text), options: ExplainOptions()).run()
  }

  func names(_ e: Explanation) -> [String] { e.steps.map { $0.step.name(bundle: "com.example.app") } }

  @Test func aSlowLaunchIsALaunch() throws {
    let r = try explain("""
      2024-03-01 10:00:00.000 application(_:didFinishLaunchingWithOptions:)
      2024-03-01 10:00:02.500 applicationDidBecomeActive(_:)
      2024-03-01 10:00:10.000 applicationWillResignActive(_:)
      2024-03-01 10:00:10.100 applicationDidEnterBackground(_:)
      """)
    let first = try #require(r.explanations.first)
    #expect(names(first).first == "launch com.example.app")
    #expect(first.steps[0].events == 0..<2)
    #expect(!r.explanations.contains { names($0).contains("run_task com.example.app") || names($0).contains("background_fetch com.example.app") })
  }

  @Test func aSlowSceneLaunchIsALaunch() throws {
    let r = try explain("""
      2024-03-01 10:00:00.000 scene(_:willConnectTo:options:)
      2024-03-01 10:00:00.100 sceneWillEnterForeground(_:)
      2024-03-01 10:00:03.000 sceneDidBecomeActive(_:)
      """)
    let first = try #require(r.explanations.first)
    #expect(names(first) == ["launch com.example.app"])
  }

  @Test func aPauseBetweenResigningAndLeavingIsTheUsersNotOneHome() throws {
    // 15 s between resigning and entering the background: the switcher held
    // open, not a slow handler (§0: resigning has a 10 s watchdog).
    let r = try explain("""
      2024-03-01 10:00:00.000 applicationDidBecomeActive(_:)
      2024-03-01 10:01:00.000 applicationWillResignActive(_:)
      2024-03-01 10:01:15.000 applicationDidEnterBackground(_:)
      """)
    #expect(!r.explanations.isEmpty)
    for e in r.explanations { #expect(e.steps.allSatisfy { $0.events.count < 2 || $0.events.lowerBound != 1 }, "\(names(e))") }
  }

  @Test func aGapInsideALaunchLongerThanItsWatchdogIsNotTheAppsCode() throws {
    // 30 s between the two callbacks of a launch: the launch watchdog (20 s)
    // would have killed the app, so one launch does not explain both lines.
    let r = try explain("""
      2024-03-01 10:00:00.000 application(_:didFinishLaunchingWithOptions:)
      2024-03-01 10:00:30.000 applicationDidBecomeActive(_:)
      """)
    for e in r.explanations { #expect(e.steps.first?.events != 0..<2, "\(names(e))") }
  }
}
