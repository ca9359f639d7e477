import Foundation
import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// A 50-line log is explained in well under a second: counted in the steps
/// the search takes (the same on every machine), and timed only as a ratio
/// against a fixed run of as many steps of the same kind.
struct ExplainSpeedTests {
  /// Fifty lines: a day of an app going in and out of the foreground, with a
  /// call, Notification Center and a lock among them.
  static let fiftyLines: String = {
    let cycle = [
      "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:",
      "applicationWillEnterForeground:", "applicationDidBecomeActive:", "applicationWillResignActive:",
      "applicationDidBecomeActive:", "applicationWillResignActive:", "applicationDidEnterBackground:",
      "applicationWillEnterForeground:",
    ]
    var lines = ["application:didFinishLaunchingWithOptions:"]
    while lines.count < 50 { lines += cycle }
    return lines.prefix(50).joined(separator: "\n") + "\n"
  }()

  @Test func aFiftyLineLogIsExplainedWithinAFixedBudgetOfSteps() throws {
    let log = try LogReader.read(Self.fiftyLines)
    #expect(log.events.count == 50)
    var options = ExplainOptions()
    options.alternatives = 0
    let clock = ContinuousClock()
    var result = ExplainResult()
    let explaining = clock.measure { result = (try? ExplainSearch(log: log, options: options).run()) ?? ExplainResult() }
    #expect(!result.explanations.isEmpty)
    // The budget the search stays within, whatever the machine (a
    // prewarmed process waiting for the tap is a device state of its own,
    // and so is one a refresh task woke: 166,808 steps).
    #expect(result.steps < 175_000, "\(result.steps) steps")
    // The same number of steps of the same kind (put a device back, take a
    // step, read its records), without the search around them.
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
    // The search costs no more than a few times the steps it takes.
    #expect(explaining < fixed * 4, "explaining \(explaining), \(result.steps) fixed steps \(fixed)")
  }
}
