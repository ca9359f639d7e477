import LifeSimEngine
import Testing
@testable import LifeSimExplain

/// The round trip: the trace of a random sequence of steps, written as a
/// text log, is explained by a sequence whose trace shows the same lines.
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

  @Test(arguments: [(12, false), (17, false), (17, true)])
  func randomSequencesAreExplainedByStepsThatReproduceTheirLog(ios: Int, scenes: Bool) throws {
    let alphabet = ExplainAlphabet.actions() + ExplainAlphabet.waits.map { ExplainStep(.advance($0)) }
    var explained = 0
    for seed in UInt64(1)...8 {
      var random = SeededGenerator(seed: seed)
      let d = try Self.device(ios: ios, scenes: scenes)
      // A launch first, so that the log has lines; then six steps drawn at random.
      var steps = [ExplainStep(.launch)]
      for _ in 0..<6 { steps.append(alphabet[Int(random.next() % UInt64(alphabet.count))]) }
      for s in steps { try? s.take(on: d, app: AppID(0)) }
      let text = TraceWriter(format: .text).render(d.trace)
      let log = try LogReader.read(text, format: .text)
      var options = ExplainOptions()
      options.ios = ios
      options.scenes = scenes
      options.alternatives = 0
      let result = try ExplainSearch(log: log, options: options).run()
      let e = try #require(result.explanations.first, "seed \(seed): \(steps.map { $0.name(bundle: "com.example.app") }) not explained")
      // Its steps, replayed, show the log's lines after those from before it.
      let replay = try Self.device(ios: ios, scenes: scenes)
      for s in e.steps { try s.step.take(on: replay, app: AppID(0)) }
      let got = Self.logged(replay, log)
      #expect(Array(got.dropFirst(e.beforeLog.count)) == log.events.map(\.symbol), "seed \(seed)")
      #expect(e.steps.count <= steps.count, "seed \(seed): not a shortest explanation")
      explained += 1
    }
    #expect(explained == 8)
  }
}
