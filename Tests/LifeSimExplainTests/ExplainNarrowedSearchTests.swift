import Testing
@testable import LifeSimExplain

/// A search that stops at --max-states is made again with the fewest
/// unlogged steps in a row: a Sentry log of screens, one every 2 s, needs
/// about 170,000 states with up to three unlogged steps in a row (most of
/// them detours before and between its lines) and under 1,000 with one
/// (the wait before each line).
struct ExplainNarrowedSearchTests {
  static let log: String = {
    var crumbs = [#"{"category": "app.lifecycle", "timestamp": "2025-02-08T10:00:00.000Z", "data": {"state": "foreground"}}"#]
    for (i, screen) in ["Home", "Feed", "Detail", "Profile", "Settings", "Search"].enumerated() {
      crumbs.append(#"{"category": "ui.lifecycle", "timestamp": "2025-02-08T10:00:\#(String(format: "%02d", 1 + 2 * i)).000Z", "data": {"screen": "\#(screen)"}}"#)
    }
    crumbs.append(#"{"category": "app.lifecycle", "timestamp": "2025-02-08T10:00:13.000Z", "data": {"state": "background"}}"#)
    return "{\"breadcrumbs\": {\"values\": [\n\(crumbs.joined(separator: ",\n"))\n]}}"
  }()

  static func answer(maxStates: Int) throws -> ExplainAnswer {
    var options = ExplainOptions()
    options.alternatives = 0
    options.maxStates = maxStates
    return try ExplainSearch.answer(log: try LogReader.read(log, sentryStates: .legacy), options: options)
  }

  @Test func aBoundedSearchIsMadeAgainWithOneUnloggedStepInARow() throws {
    let a = try Self.answer(maxStates: 2_000)
    #expect(a.narrowed == 1 && a.narrowedResult == nil && a.askedUnlogged == 3)
    #expect(a.options.maxUnlogged == 1)
    let e = try #require(a.result.explanations.first)
    // Launch, then a wait and a push per screen, then a wait and Home.
    #expect(e.steps.count == 13)
    #expect(e.steps.map { $0.step.name(bundle: "b") }.filter { $0.hasPrefix("push") }
            == ["push Feed", "push Detail", "push Profile", "push Settings", "push Search"])
    #expect(ExplainReport.notes(a).first?.hasPrefix(
      "the search with --max-unlogged 3 stopped at --max-states 2000; explained with at most 1 step in a row") == true)
  }

  @Test func whenTheNarrowSearchStopsTooTheBoundIsNamedAndNotAdvised() throws {
    let a = try Self.answer(maxStates: 300)
    let r = try #require(a.narrowedResult)
    #expect(a.narrowed == 1 && a.askedStates == 300 && r.stop == .maxStates(300))
    // The answer is that of the search that got further, which advises no
    // --max-unlogged already tried.
    #expect(a.result.explanations.isEmpty && a.result.reached >= r.reached)
    let note = try #require(ExplainReport.notes(a).first)
    #expect(note.hasPrefix("the search with --max-unlogged 3 stopped at --max-states 300; the search with "
                           + "at most 1 step in a row that accounts for no line (--max-unlogged 1) stopped at --max-states 300 too "
                           + "(it reaches the first"), "\(note)")
    #expect(note.hasSuffix("a larger --max-states searches further"))
    let text = ExplainReport(log: try LogReader.read(Self.log, sentryStates: .legacy), answer: a).text
    #expect(text.contains("not explained within --max-states 300 distinct states (a larger --max-states searches further)\n"), "\(text)")
  }

  @Test func aSearchNotBoundedIsNotMadeAgain() throws {
    let short = """
      {"breadcrumbs": {"values": [
      {"category": "app.lifecycle", "timestamp": "2025-02-08T10:00:00.000Z", "data": {"state": "foreground"}},
      {"category": "ui.lifecycle", "timestamp": "2025-02-08T10:00:01.000Z", "data": {"screen": "Home"}},
      {"category": "app.lifecycle", "timestamp": "2025-02-08T10:00:03.000Z", "data": {"state": "background"}}
      ]}}
      """
    var options = ExplainOptions()
    options.alternatives = 0
    let a = try ExplainSearch.answer(log: try LogReader.read(short, sentryStates: .legacy), options: options)
    #expect(a.narrowed == nil && a.options.maxUnlogged == 3 && a.result.explanations.first != nil)
    #expect(ExplainReport.notes(a).isEmpty)
  }
}
