import Foundation
import LifeSimEngine
import LifeSimFuzzSupport
import Testing
@testable import LifeSimExplain

/// The round trip with the fuzzer's own sequences: `Fuzzer(seed:)` makes a
/// random device with up to four apps, app code that does random things, and
/// takes random actions on any of them. Each app's own trace, written as a
/// text log, is explained as `lifesim explain` explains it (`ExplainSearch.answer`)
/// on that app's iOS version with the device's quirks, and the explanation's
/// steps replayed show the log's lines: every app of every sequence.
struct ExplainFuzzerRoundTripTests {
  /// `LIFESIM_EXPLAIN_FUZZ_SEEDS=N` takes seeds 1 to N instead (the long mode).
  static let seeds = UInt64(1)...(ProcessInfo.processInfo.environment["LIFESIM_EXPLAIN_FUZZ_SEEDS"].flatMap(UInt64.init) ?? 48)
  static let steps = 12

  /// App `app`'s own records of the trace, as text lines.
  static func log(of app: AppID, in trace: Trace) -> String {
    var out: [UInt8] = []
    let writer = TraceWriter(format: .text)
    for r in trace.records where r.app == app { writer.record(r, in: trace, into: &out) }
    return String(decoding: out, as: UTF8.self)
  }

  /// The device's quirks, as a user who knows the app would give them:
  /// `exits_on_suspend_terminate_only` is about apps with
  /// UIApplicationExitsOnSuspend only, and makes explain's app one.
  static func quirks(of app: AppID, on device: Device) -> QuirkSet {
    QuirkSet(device.quirks.members.filter { $0 != .exitsOnSuspendTerminateOnly || device.apps[Int(app.index)].config.exitsOnSuspend })
  }

  @Test func eachAppOfTheFuzzersSequencesIsExplainedByStepsThatReproduceItsLog() throws {
    var explained = 0
    for seed in Self.seeds {
      let fuzzer = Fuzzer(seed: seed)
      _ = try fuzzer.run(steps: Self.steps)
      let device = fuzzer.device
      for app in fuzzer.apps {
        // An app the sequence never started has no lifecycle line to explain.
        guard let log = try? LogReader.read(Self.log(of: app, in: device.trace), format: .text) else { continue }
        var options = ExplainOptions()
        options.ios = device.profile.version
        options.scenes = device.apps[Int(app.index)].model == .scene
        options.quirks = Self.quirks(of: app, on: device)
        options.alternatives = 0
        options.maxStates = 20_000
        let answer = try ExplainSearch.answer(log: log, options: options)
        let result = answer.result
        let lines = log.events.map { log.symbols[$0.symbol].name }
        let what = "seed \(seed), \(device.trace.name(of: app)), iOS \(options.ios), quirks \(options.quirks.members): \(lines)"
        guard let e = result.explanations.first else {
          let why = "not explained (stopped \(String(describing: result.stop)) at line \(result.reached + 1), "
            + "expected \(result.expected)): \(what)"
          Issue.record(Comment(rawValue: why))
          continue
        }
        // The steps, replayed on the device the search used, show the log's
        // lines after those from before it (and, where the log ends in the
        // middle of the last step, that step's records after it).
        let replay = try ExplainSearch(log: log, options: answer.options).device
        for s in e.steps { try s.step.take(on: replay, app: AppID(0)) }
        let got = ExplainRoundTripTests.logged(replay, log).map { log.symbols[$0].name }
        #expect(Array(got.dropFirst(e.beforeLog.count)) == lines + e.afterLog,
                "\(e.steps.map { $0.step.name(bundle: options.bundle) }) does not reproduce \(what)")
        explained += 1
      }
    }
    #expect(explained >= Self.seeds.count)
  }
}
