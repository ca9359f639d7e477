import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// A launch whose code blocks past the launch watchdog's limit is killed
/// there, 20 s after it began (§0 "Watchdogs", 0x8badf00d): in a log, the
/// launch's first lines, then, 20 s later, a launch again. Killed for its
/// memory instead, the process dies at once, and a wait of 20 s more is a
/// step of its own, so the watchdog's kill is the shorter explanation.
struct ExplainWatchdogStepTests {
  static let slowLaunch = """
    10:00:00.000 application(_:willFinishLaunchingWithOptions:)
    10:00:20.300 application(_:willFinishLaunchingWithOptions:)
    10:00:20.400 application(_:didFinishLaunchingWithOptions:)
    10:00:20.500 applicationDidBecomeActive(_:)
    """

  @Test func aLaunchKilledByItsWatchdogIsAStepThatReproducesTheLog() throws {
    let log = try LogReader.read(Self.slowLaunch)
    var options = ExplainOptions()
    options.alternatives = 0
    let answer = try ExplainSearch.answer(log: log, options: options)
    #expect(answer.options.appCode)
    let e = try #require(answer.result.explanations.first)
    #expect(e.steps.map { $0.step.name(bundle: "app") }
            == ["launch app, killed in application:willFinishLaunchingWithOptions: (watchdog)", "launch app"])
    #expect(e.steps[0].step.words.hasSuffix("the app's code runs past the watchdog's limit and is killed (0x8badf00d)"))
    // Replayed on the search's device, the steps give the log's lines and a watchdog's kill.
    let search = try ExplainSearch(log: log, options: answer.options)
    let device = search.device
    for s in e.steps { try s.step.take(on: device, app: AppID(0)) }
    #expect(device.trace.callbacks(app: AppID(0))
            == ["application:willFinishLaunchingWithOptions:", "application:willFinishLaunchingWithOptions:",
                "application:didFinishLaunchingWithOptions:", "applicationDidBecomeActive:"])
    #expect(device.trace.records.contains { $0.kind == .kill && $0.reason == .watchdog })
  }

  @Test func untimedTheWatchdogIsOneOfTheWaysTheLaunchDied() throws {
    let untimed = Self.slowLaunch.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1)[1] }.joined(separator: "\n")
    var options = ExplainOptions()
    options.alternatives = 20
    let answer = try ExplainSearch.answer(log: try LogReader.read(untimed), options: options)
    let first = answer.result.explanations.map { $0.steps[0].step.name(bundle: "app") }
    #expect(first.first == "launch app, killed in application:willFinishLaunchingWithOptions: (own memory)")
    #expect(first.contains("launch app, killed in application:willFinishLaunchingWithOptions: (watchdog)"), "\(first)")
  }
}
