import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// How the explanations are read back from the search: a shorter list of
/// alternatives is the start of a longer one, and a path of thousands of
/// steps is walked without recursion.
struct ExplainPathsTests {
  func explain(_ text: String, alternatives: Int, maxUnlogged: Int = 3) throws -> ExplainResult {
    var options = ExplainOptions()
    options.alternatives = alternatives
    options.maxUnlogged = maxUnlogged
    return try ExplainSearch(log: try LogReader.read(text), options: options).run()
  }

  func names(_ r: ExplainResult) -> [[String]] {
    r.explanations.map { $0.steps.map { $0.step.name(bundle: "com.example.app") } }
  }

  @Test(arguments: [
    "AppLifecycleState.paused\nAppLifecycleState.inactive\nAppLifecycleState.resumed\nAppLifecycleState.inactive\nAppLifecycleState.paused\n",
    "sceneWillResignActive(_:)\nsceneDidEnterBackground(_:)\nsceneWillEnterForeground(_:)\n",
  ])
  func theListForFewerAlternativesIsTheStartOfTheListForMore(log: String) throws {
    let long = names(try explain(log, alternatives: 12))
    #expect(long.count > 1)
    for k in [0, 1, 2, 3, 5] {
      let short = names(try explain(log, alternatives: k))
      #expect(short == Array(long.prefix(short.count)), "--alternatives \(k)")
      #expect(short.count == min(k + 1, long.count), "--alternatives \(k)")
    }
  }

  @Test func anExplanationOfThousandsOfStepsIsReadBack() throws {
    // One step per line: each a part-way pull of Notification Center.
    let lines = 4_000
    let text = String(repeating: "applicationDidBecomeActive(_:)\n", count: lines)
    let r = try explain(text, alternatives: 0, maxUnlogged: 0)
    let first = try #require(r.explanations.first)
    #expect(first.steps.count == lines)
    #expect(first.steps.last?.events == (lines - 1)..<lines)
  }
}
