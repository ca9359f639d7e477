import Foundation
import LifeSimFuzzSupport
import Testing
@testable import LifeSimEngine

/// Property tests: seeded random action sequences over random devices and apps.
/// After every step the device's invariants must hold, a suspended or dead app
/// must have received no callback, and nothing may fail but a refused action.
///
/// `LIFESIM_FUZZ_RUNS=N` runs N sequences instead of the default (the long mode).
struct ActionFuzzTests {
  static let defaultRuns = 2_000
  static var runs: Int {
    ProcessInfo.processInfo.environment["LIFESIM_FUZZ_RUNS"].flatMap(Int.init) ?? defaultRuns
  }

  @Test func randomActionSequencesKeepEveryInvariant() throws {
    var failures: [String] = []
    for seed in 1...UInt64(Self.runs) {
      if let failure = try Fuzzer(seed: seed).run(steps: 60) {
        failures.append("seed \(seed): \(failure)")
        if failures.count >= 5 { break }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test func theSameSeedGivesTheSameTrace() throws {
    for seed: UInt64 in [3, 77, 1234] {
      let a = Fuzzer(seed: seed), b = Fuzzer(seed: seed)
      _ = try a.run(steps: 60)
      _ = try b.run(steps: 60)
      #expect(a.device.trace.records == b.device.trace.records, "seed \(seed)")
    }
  }
}
