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

  /// A 5,000-line log, each step of whose explanation accounts for lines
  /// (`--max-unlogged 0`), is explained in more than a thousand steps: more
  /// than any fixed depth allowed. Its cost is counted in steps (the same
  /// on every machine) and timed only as a ratio against as many plain steps.
  @Test func aFiveThousandLineLogIsExplainedWithinABudgetOfStepsALine() throws {
    let log = try LogReader.read(Self.lines(5_000))
    var options = ExplainOptions()
    options.alternatives = 0
    options.maxUnlogged = 0
    let clock = ContinuousClock()
    var result = ExplainResult()
    let explaining = clock.measure { result = (try? ExplainSearch(log: log, options: options).run()) ?? ExplainResult() }
    let e = try #require(result.explanations.first, "stopped: \(String(describing: result.stop)), \(result.reached) lines")
    #expect(e.steps.count > 1_000)
    #expect(result.steps < 40 * 5_000, "\(result.steps) steps")
    let device = Device(profile: try OSProfile(version: 17), seed: 1)
    let app = try device.install(AppConfig(bundle: "com.example.app", scenes: false))
    let start = device.saveState()
    let steps = ExplainAlphabet.actions()
    var records = 0
    let fixed = clock.measure {
      for i in 0..<result.steps {
        device.restoreState(start)
        try? steps[0].take(on: device, app: app)
        try? steps[1 + i % (steps.count - 1)].take(on: device, app: app)
        records &+= device.trace.records.count
      }
    }
    #expect(records > 0)
    #expect(explaining < fixed * 4, "explaining \(explaining), \(result.steps) fixed steps \(fixed)")
  }
}
