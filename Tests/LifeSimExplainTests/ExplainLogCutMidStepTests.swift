import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// A log may be cut anywhere (a crash, or where it was saved): one whose
/// last line is the first record of a step whose other records are not in
/// it is explained by that step, and the answer says the log ends there.
struct ExplainLogCutMidStepTests {
  static let cut = """
    application:didFinishLaunchingWithOptions:
    applicationDidBecomeActive:
    applicationWillResignActive:
    applicationDidEnterBackground:
    applicationWillEnterForeground:
    """

  static func explain(_ text: String, alternatives: Int = 0) throws -> (ExplainReport, ExplainResult) {
    let log = try LogReader.read(text)
    var options = ExplainOptions()
    options.alternatives = alternatives
    let result = try ExplainSearch(log: log, options: options).run()
    return (ExplainReport(log: log, options: options, result: result), result)
  }

  @Test func aLogCutAfterTheFirstCallbackOfAStepIsExplainedByIt() throws {
    let (report, result) = try Self.explain(Self.cut)
    let e = try #require(result.explanations.first, "\(report.text)")
    #expect(e.steps.map { $0.step.name(bundle: "com.example.app") } == ["launch com.example.app", "home", "launch com.example.app"])
    #expect(e.afterLog == ["applicationDidBecomeActive:"])
    #expect(report.text.contains("3. launch com.example.app: the user taps the app's icon → line 5 "
                                 + "(the log ends before the step's applicationDidBecomeActive:)"), "\(report.text)")
    #expect(report.text.contains("the log ends in the middle of step 3"), "\(report.text)")
    let script = report.script(e, source: "cut.log", command: "lifesim explain cut.log")
    #expect(script.contains("lifesim.expect_callbacks({ table.unpack(got, 1, #got - 1) }, expected)"), "\(script)")
  }

  @Test func withTimesTheCutIsNotBlamedOnTheWait() throws {
    let (report, result) = try Self.explain("""
      10:00:00.000 application:didFinishLaunchingWithOptions:
      10:00:00.100 applicationDidBecomeActive:
      10:00:05.000 applicationWillResignActive:
      10:00:05.300 applicationDidEnterBackground:
      10:00:09.000 applicationWillEnterForeground:
      """)
    #expect(!report.text.contains("later as the log has it"), "\(report.text)")
    #expect(result.explanations.first?.afterLog == ["applicationDidBecomeActive:"], "\(report.text)")
  }

  @Test func anExplanationOfEveryRecordComesBeforeACutOneOfTheSameLength() throws {
    // The last line is a resign: an overlay shows it whole, Home or a lock
    // only with a did-enter-background the log would then have cut.
    let (report, result) = try Self.explain(Self.cut + "\napplicationDidBecomeActive:\napplicationWillResignActive:\n", alternatives: 100)
    let first = try #require(result.explanations.first, "\(report.text)")
    #expect(first.afterLog.isEmpty, "\(report.text)")
    let cutAt = result.explanations.firstIndex { !$0.afterLog.isEmpty }
    let lastWhole = result.explanations.lastIndex { $0.afterLog.isEmpty }
    #expect(cutAt != nil, "\(report.text)")
    if let cutAt, let lastWhole { #expect(lastWhole < cutAt, "\(report.text)") }
  }
}
