import Foundation
import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// A long log is explained: the depth is as long as the log needs, and the
/// search's cost grows with the log line for line.
struct ExplainLongLogTests {
  /// `count` lines: a launch, then the ten-line cycle of the fifty-line day, repeated.
  static func lines(_ count: Int) -> String {
    let cycle = ExplainSpeedTests.fiftyLines.split(separator: "\n")[1...10]
    var out = ["application:didFinishLaunchingWithOptions:"]
    while out.count < count { out += cycle.map(String.init) }
    return out.prefix(count).joined(separator: "\n") + "\n"
  }

  @Test func theDepthIsAsLongAsAnExplanationOfTheLogCanBe() throws {
    let log = try LogReader.read(Self.lines(5_000))
    #expect(log.events.count == 5_000)
    let search = try ExplainSearch(log: log, options: ExplainOptions())
    #expect(search.depth == 5_001 * 4)
    #expect(search.maxStates == 1_000_000)
    var given = ExplainOptions()
    given.depth = 7
    given.maxStates = 9
    let bounded = try ExplainSearch(log: log, options: given)
    #expect(bounded.depth == 7 && bounded.maxStates == 9)
  }

  /// A 2,100-line log, each step of whose explanation accounts for lines
  /// (`--max-unlogged 0`), is explained in more than a thousand steps: more
  /// than the fixed depth of old allowed, within a budget of steps a line
  /// (the same on every machine). That a step's cost stays flat however
  /// long the log is held by `ExplainGrowthTests`; the fifty-line log's time,
  /// as a ratio, by `ExplainSpeedTests`.
  @Test func aLogOfMoreThanAThousandStepsIsExplainedWithinABudgetOfStepsALine() throws {
    let log = try LogReader.read(Self.lines(2_100))
    var options = ExplainOptions()
    options.alternatives = 0
    options.maxUnlogged = 0
    let result = try ExplainSearch(log: log, options: options).run()
    let e = try #require(result.explanations.first, "stopped: \(String(describing: result.stop)), \(result.reached) lines")
    #expect(e.steps.count > 1_000)
    #expect(result.steps < 60 * 2_100, "\(result.steps) steps")
  }
}
