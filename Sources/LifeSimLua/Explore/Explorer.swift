import Foundation
import LifeSimEngine

/// `lifesim explore`: a breadth-first search over sequences of actions on the
/// script's first device, for a sequence after which an invariant does not
/// hold (or a handler fails). Breadth first, so the first violation found is
/// a shortest one.
///
/// A state is reached by replaying its sequence from the start: the
/// simulation is deterministic, so the same steps give the same state. States
/// are told apart by the engine's fingerprint (`Device.stateFingerprint`)
/// and the script's `lifesim.state_key`, and each is expanded once.
public struct ExploreOptions: Sendable {
  public var depth = 6
  /// The alphabet, when given: these steps only, in this order.
  public var actions: [String]?
  /// Stop after this many distinct states.
  public var maxStates = 200_000
  public var runtime = RuntimeOptions()
  public init() {}
}

public struct ExploreProgress: Sendable {
  public var depth: Int
  public var states: Int
  public var distinct: Int
  public var queue: Int
  public var seconds: Double
}

public struct ExploreViolation: Sendable {
  public var steps: [String]
  /// The invariant's name, or nil for a failed handler or action.
  public var invariant: String?
  public var message: String
  /// The text trace of the run that fails.
  public var trace: String
}

public struct ExploreResult: Sendable {
  public var violation: ExploreViolation?
  public var alphabet: [String] = []
  /// Replays made (states reached, counting repeats).
  public var states = 0
  public var distinct = 0
  public var depthReached = 0
  public var seconds = 0.0
  /// Each `lifesim.reachable` and whether some explored state satisfied it.
  public var reachables: [(name: String, reached: Bool)] = []
  /// The search stopped at --max-states before finishing its depth.
  public var truncated = false
}

public struct ExploreError: Error, CustomStringConvertible {
  public let description: String
}

public final class Explorer {
  let file: String
  let options: ExploreOptions

  public init(file: String, options: ExploreOptions) {
    self.file = file
    self.options = options
  }

  /// What one replay found.
  private struct Reached {
    var fingerprint: [UInt8]
    var violation: (invariant: String?, message: String)?
    var reached: [String]
    var refused: Bool
  }

  private func runtime() throws -> LuaRuntime {
    var o = options.runtime
    o.pinDevices = true
    o.retainDevices = true
    o.output = { _ in }
    let rt = try LuaRuntime(options: o)
    do {
      try rt.runFile(file)
    } catch let f as LuaFailure {
      throw ExploreError(description: "the script fails before the search starts: \(f.report)")
    }
    return rt
  }

  private func replay(_ steps: [String]) throws -> (Reached, LuaRuntime) {
    let rt = try runtime()
    let slot: DeviceSlot
    do { slot = try rt.exploreDevice() } catch let e as ScriptError { throw ExploreError(description: e.message) }
    func state(_ violation: (String?, String)?, refused: Bool = false) throws -> Reached {
      var fp = slot.device.stateFingerprint()
      let key: String
      do { key = try rt.stateKey(on: slot) } catch let e as ScriptError { throw ExploreError(description: e.message) }
      fp.append(contentsOf: key.utf8)
      return Reached(fingerprint: fp, violation: violation, reached: try rt.reached(on: slot), refused: refused)
    }
    for (i, step) in steps.enumerated() {
      let outcome: StepOutcome
      do { outcome = try rt.take(step, on: slot) } catch let e as ScriptError { throw ExploreError(description: e.message) }
      switch outcome {
      case .done: break
      case .refused:
        // Only a sequence's last step is new; the ones before replay as before.
        guard i == steps.count - 1 else { throw ExploreError(description: "replay diverged at '\(step)': the script is not deterministic") }
        return (try state(nil, refused: true), rt)
      case .failed(let message):
        return (try state((nil, message)), rt)
      }
    }
    if let (name, message) = try rt.brokenInvariant(on: slot) { return (try state((name, message)), rt) }
    return (try state(nil), rt)
  }

  /// Runs the search.
  public func run(progress: ((ExploreProgress) -> Void)? = nil) throws -> ExploreResult {
    let start = Date()
    var result = ExploreResult()
    let (root, rt0) = try replay([])
    let slot0 = try rt0.exploreDevice()
    result.alphabet = options.actions ?? rt0.alphabet(of: slot0)
    let reachableNames = rt0.explore.reachables.map(\.name)
    if rt0.explore.invariants.isEmpty {
      throw ExploreError(description: "the script declares no invariant: lifesim.invariant(name, function(dev) … end)")
    }
    var reachedNames = Set(root.reached)
    result.states = 1
    result.distinct = 1
    if let v = root.violation {
      result.violation = ExploreViolation(steps: [], invariant: v.invariant, message: v.message,
                                          trace: TraceWriter(format: .text).render(slot0.device.trace))
      return finish(&result, start, reachableNames, reachedNames)
    }
    var seen: Set<[UInt8]> = [root.fingerprint]
    var frontier: [[String]] = [[]]
    var depth = 0
    var lastReport = Date()
    search: while depth < options.depth, !frontier.isEmpty {
      depth += 1
      var next: [[String]] = []
      for prefix in frontier {
        for step in result.alphabet {
          let steps = prefix + [step]
          let (r, rt) = try replay(steps)
          result.states += 1
          if r.refused { continue }
          reachedNames.formUnion(r.reached)
          if let v = r.violation {
            let slot = try rt.exploreDevice()
            result.violation = ExploreViolation(steps: steps, invariant: v.invariant, message: v.message,
                                                trace: TraceWriter(format: .text).render(slot.device.trace))
            result.depthReached = depth
            break search
          }
          if seen.insert(r.fingerprint).inserted {
            result.distinct += 1
            next.append(steps)
            if result.distinct >= options.maxStates {
              result.truncated = true
              result.depthReached = depth
              break search
            }
          }
          if let progress, Date().timeIntervalSince(lastReport) >= 1 {
            lastReport = Date()
            progress(ExploreProgress(depth: depth, states: result.states, distinct: result.distinct,
                                     queue: next.count, seconds: Date().timeIntervalSince(start)))
          }
        }
      }
      result.depthReached = depth
      frontier = next
    }
    return finish(&result, start, reachableNames, reachedNames)
  }

  private func finish(_ result: inout ExploreResult, _ start: Date, _ names: [String], _ reached: Set<String>) -> ExploreResult {
    result.seconds = Date().timeIntervalSince(start)
    result.reachables = names.map { ($0, reached.contains($0)) }
    return result
  }

  /// A scenario that reproduces a violation under `lifesim run`: the script,
  /// then the steps through `lifesim.replay`, which fails with the message.
  public static func counterexample(script: String, file: String, _ v: ExploreViolation) -> String {
    var out = "-- A counterexample found by `lifesim explore \(file)`: after "
    out += v.steps.isEmpty ? "no step" : v.steps.joined(separator: ", ")
    out += ",\n-- " + (v.invariant.map { "invariant '\($0)' does not hold" } ?? "a handler fails") + ": "
    out += v.message.split(separator: "\n").first.map(String.init) ?? ""
    out += "\n-- Run it with `lifesim run` (it fails there with the same message).\n\n"
    out += script
    if !script.hasSuffix("\n") { out += "\n" }
    out += "\nlifesim.replay{ " + v.steps.map { "\"\($0)\"" }.joined(separator: ", ") + " }\n"
    return out
  }
}
