import LifeSimEngine
import LifeSimFuzzSupport
import Testing
@testable import LifeSimExplain

/// The round trip: the trace of the fuzzer's random action sequences,
/// written as a text log, is explained by a sequence whose trace shows the
/// same lines.
struct ExplainRoundTripTests {
  /// The kinds of the log, in the trace's order, from `since` (a record index).
  static func logged(_ device: Device, _ log: ParsedLog, since: Int = 0) -> [Int] {
    var out: [Int] = []
    for r in device.trace.records[since...] where r.app == AppID(0) {
      let atom: LogAtom
      if r.kind == .callback, let c = r.callback { atom = .callback(c) }
      else if r.kind == .notification, let n = r.notification { atom = .notification(n) }
      else { continue }
      if let s = log.symbol(of: atom), !(log.collapsesRepeats && out.last == s) { out.append(s) }
    }
    return out
  }

  static func device(ios: Int, scenes: Bool) throws -> Device {
    let d = Device(profile: try OSProfile(version: ios), seed: 1)
    d.trapsOnViolation = false
    try d.install(AppConfig(bundle: "com.example.app", scenes: scenes, backgroundModes: ExplainStep.backgroundModes))
    return d
  }

  /// A launch, then the next `count` actions the fuzzer draws for `seed`,
  /// other windows of the app's among them.
  static func fuzzSequence(seed: UInt64, count: Int) -> [FuzzAction] {
    var random = SeededGenerator(seed: seed)
    var out: [FuzzAction] = [.row(.launch)]
    while out.count <= count { out.append(FuzzAction.draw(&random, apps: [AppID(0)]).action) }
    return out
  }

  @Test(arguments: [(12, false), (17, false), (17, true)])
  func theFuzzersRandomSequencesAreExplainedByStepsThatReproduceTheirLog(ios: Int, scenes: Bool) throws {
    let seeds = UInt64(1)...8
    var explained = 0
    for seed in seeds {
      let d = try Self.device(ios: ios, scenes: scenes)
      let actions = Self.fuzzSequence(seed: seed, count: 6)
      for a in actions { try? a.take(on: d, app: AppID(0)) }
      let text = TraceWriter(format: .text).render(d.trace)
      let log = try LogReader.read(text, format: .text)
      var options = ExplainOptions()
      options.ios = ios
      options.scenes = scenes
      options.alternatives = 0
      let answer = try ExplainSearch.answer(log: log, options: options)
      let e = try #require(answer.result.explanations.first, "seed \(seed): \(actions.map(\.name)) not explained")
      // Its steps, replayed, show the log's lines after those from before it.
      let replay = try ExplainSearch(log: log, options: answer.options).device
      for s in e.steps { try s.step.take(on: replay, app: AppID(0)) }
      let got = Self.logged(replay, log)
      #expect(Array(got.dropFirst(e.beforeLog.count)) == log.events.map(\.symbol), "seed \(seed)")
      explained += 1
    }
    #expect(explained == seeds.count)
  }
}
