import Foundation
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

  /// The lines of `ExplainLongLogTests.lines`, with times: half a minute
  /// in the foreground, two minutes in the background, moments between.
  static func timed(_ count: Int) -> String {
    var t = 0, previous = ""
    var out: [String] = []
    for line in ExplainLongLogTests.lines(count).split(separator: "\n").map(String.init) {
      switch line {
      case _ where previous.isEmpty: break
      case "applicationDidBecomeActive:": t += previous == "applicationWillResignActive:" ? 2_000 : 100
      case "applicationWillResignActive:": t += 30_000
      case "applicationWillEnterForeground:": t += 120_000
      default: t += 50
      }
      previous = line
      out.append(String(format: "2024-03-01 %02d:%02d:%02d.%03d %@", 10 + t / 3_600_000, t / 60_000 % 60, t / 1_000 % 60, t % 1_000, line))
    }
    return out.joined(separator: "\n") + "\n"
  }

  /// With times, the waits are the log's gaps: the longer log's device
  /// states still come again, and their steps are read back.
  @Test func aTimedLogTwiceAsLongSimulatesHardlyMore() throws {
    var options = ExplainOptions()
    options.alternatives = 0
    let short = try ExplainSearch(log: try LogReader.read(Self.timed(40)), options: options)
    let long = try ExplainSearch(log: try LogReader.read(Self.timed(80)), options: options)
    let (a, b) = (short.run(), long.run())
    #expect(!a.explanations.isEmpty && !b.explanations.isEmpty, "\(ExplainReport(log: long.log, options: options, result: b).text)")
    #expect(Double(b.steps) < 2.2 * Double(a.steps), "\(a.steps) then \(b.steps) steps")
    #expect(Double(long.simulated) < 1.2 * Double(short.simulated), "\(short.simulated) then \(long.simulated) steps simulated")
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
    #expect(Double(long.simulated) < 1.1 * Double(short.simulated) && long.simulated < b.steps * 2 / 5,
            "\(short.simulated) then \(long.simulated) steps simulated, of \(b.steps)")
    // A step's cost: the states it starts from, which it copies and
    // fingerprints, hold as few pending events deep in the longer log as in
    // the shorter (the deadlines of every stretch in the background the log
    // went through would pile up: a step would cost more the longer the log).
    #expect(long.mostPending <= short.mostPending && long.mostPending < 10, "\(short.mostPending) then \(long.mostPending) events pending")
  }
}
