import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// The search of a log twice as long takes about twice the steps, and each
/// step costs no more: what it takes grows with the log line for line, and
/// what it simulates hardly at all.
struct ExplainGrowthTests {
  static func search(lines: Int) throws -> (ExplainSearch, ExplainResult) {
    var options = ExplainOptions()
    options.alternatives = 0
    let search = try ExplainSearch(log: try LogReader.read(ExplainLongLogTests.lines(lines)), options: options)
    return (search, search.run())
  }

  @Test func aLogTwiceAsLongTakesTwiceTheStepsEachOfTheSameCost() throws {
    let (short, a) = try Self.search(lines: 40)
    let (long, b) = try Self.search(lines: 80)
    #expect(!a.explanations.isEmpty && !b.explanations.isEmpty)
    // States and steps: linear in the lines, not quadratic or worse.
    #expect(Double(b.states) < 2.2 * Double(a.states), "\(a.states) then \(b.states) states")
    #expect(Double(b.steps) < 2.2 * Double(a.steps), "\(a.steps) then \(b.steps) steps")
    // The device steps actually taken: a state's steps are taken once, and
    // the longer log goes through the same device states, at more lines.
    #expect(Double(long.simulated) < 1.1 * Double(short.simulated) && long.simulated < b.steps / 3,
            "\(short.simulated) then \(long.simulated) steps simulated, of \(b.steps)")
    // A step's cost: the states it starts from, which it copies and
    // fingerprints, hold as few pending events deep in the longer log as in
    // the shorter (the deadlines of every stretch in the background the log
    // went through would pile up: a step would cost more the longer the log).
    #expect(long.mostPending <= short.mostPending && long.mostPending < 10, "\(short.mostPending) then \(long.mostPending) events pending")
  }
}
