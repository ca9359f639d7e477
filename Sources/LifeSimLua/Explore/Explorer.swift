import Foundation
import LifeSimEngine

/// `lifesim explore`: a breadth-first search over sequences of actions on the
/// script's first device, for a sequence after which an invariant does not
/// hold (or a handler fails). Breadth first, so the first violation found is
/// a shortest one.
///
/// Each state to expand is kept whole (the Lua state's bytes, the bridge's
/// and the engine's state: `RuntimeState`), and each step from it starts
/// from it again (`Search.swift`). States are told apart by the engine's
/// fingerprint (`Device.stateFingerprint`) and the script's
/// `lifesim.state_key`, and each is expanded once. The random walks replay
/// their sequences from the start, which the simulation's determinism allows.
public struct ExploreOptions: Sendable {
  public var depth = 6
  /// The alphabet, when given: these steps only, in this order.
  public var actions: [String]?
  /// Stop after this many distinct states.
  public var maxStates = 200_000
  /// Worker threads for the replays; the answer is the same for any number.
  public var jobs = 1
  /// Stop when the states saved to expand (the Lua state's bytes each
  /// keeps, and the workers' bases) would hold more than this many bytes
  /// (`--max-saved-memory`).
  public var maxSavedBytes = 1024 << 20
  /// Stop shrinking a random walk's failure once its replays have taken
  /// this many steps (`--max-shrink-steps`), with the shortest failure found
  /// so far. Counted in steps, not seconds, so that where it stops is the
  /// same on every machine.
  public var maxShrinkSteps = 1_000_000
  /// Whether the workers track which pages of their Lua states each step
  /// writes (`LuaRuntime.trackWrites`), so that going back to a saved state
  /// copies only those: a process-wide fault handler for SIGSEGV and SIGBUS,
  /// which `lifesim explore` turns on. Off by default, so that a program
  /// embedding the library keeps its own handlers; the results are the same.
  public var trackWrites = false
  public var runtime = RuntimeOptions()
  public init() {}
}

public struct ExploreProgress: Sendable {
  public var depth: Int
  public var states: Int
  public var distinct: Int
  public var queue: Int
  public var seconds: Double
  /// While a random walk's failure is shrunk: the steps of the shortest
  /// failing sequence so far, and the steps its replays took.
  public var shrinking: (steps: Int, replayed: Int)? = nil
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
  /// It stopped because its saved states reached --max-saved-memory (then
  /// `truncated` too).
  public var savedMemoryReached = false
  /// Shrinking stopped at --max-shrink-steps: the failure reported is the
  /// shortest found so far, not necessarily a shortest one.
  public var shrinkStopped = false
  /// The edges of each machine the replays took (breadth-first search).
  public var coverage = Coverage()

  /// Per machine: its name, the edges taken, and the edges never taken.
  public var coverageReport: [(machine: String, taken: Int, total: Int, never: [String])] {
    MachineRow.all.map { row in
      let counts = coverage[row.machine]
      let never = counts.indices.filter { counts[$0] == 0 }.map(row.label)
      return (row.name, counts.count - never.count, counts.count, never)
    }
  }
}

public struct ExploreError: Error, CustomStringConvertible {
  public let description: String

  /// Replaying `steps` did not reach the state the search had: refused at
  /// `step`, or ending elsewhere.
  static func notReplayable(_ steps: [String], at step: String? = nil) -> ExploreError {
    let what = step.map { "went another way at '\($0)'" } ?? "gave another state"
    return ExploreError(description: "replaying \(steps.joined(separator: ", ")) \(what): the script depends on "
                        + "something outside the device, which the search cannot replay")
  }
}

public final class Explorer {
  let file: String
  let options: ExploreOptions
  /// The runtime the replays from the start run in (`fromStart()`).
  @exclusivity(unchecked) private var replayer: (rt: LuaRuntime, slot: DeviceSlot, root: RuntimeState)?
  /// Steps taken by the replays of `firstFailure` (shrinking counts them).
  @exclusivity(unchecked) private var replayedSteps = 0

  public init(file: String, options: ExploreOptions) {
    self.file = file
    self.options = options
  }

  /// A runtime with the script set up; with `snapshots`, one whose whole
  /// state can be saved and restored.
  func runtime(snapshots: Bool = false) throws -> LuaRuntime {
    var o = options.runtime
    o.pinDevices = true
    o.retainDevices = true
    o.snapshots = snapshots
    o.output = { _ in }
    let rt = try LuaRuntime(options: o)
    do {
      try rt.runFile(file)
    } catch let f as LuaFailure {
      throw ExploreError(description: "the script fails before the search starts: \(f.report)")
    }
    if o.unsafe {
      do { try rt.run(source: Self.fileLock, chunkName: "=lifesim explore") } catch let f as LuaFailure {
        throw ExploreError(description: "could not close io to the search: \(f.report)")
      }
    }
    return rt
  }

  /// What a step that uses a file (under `--unsafe`) fails with.
  static let fileRefusal = "lifesim explore cannot take back what a file does (it goes back to a state by copying "
    + "the Lua state's bytes, which cannot reopen or unclose a file): use io in the set-up only, before the search starts"

  /// Throws when a failure's `message` is `fileRefusal`: a step or an
  /// invariant that used a file is the search's limit, not the script's
  /// violation.
  static func checkNotFileUse(_ message: String) throws {
    if message.contains(fileRefusal) { throw ExploreError(description: message) }
  }

  /// Run after the set-up under `--unsafe`: every function of `io` and every
  /// method of a file raises `fileRefusal`, and a file the set-up left open
  /// is not closed when it is collected (a state the search goes back to
  /// would hold it open again, and close it a second time).
  static let fileLock = """
    local message = [==[\(fileRefusal)]==]
    local function refused() error(message, 2) end
    if type(io) ~= "table" then return end
    local file = debug.getmetatable(io.stdout)
    for _, name in ipairs({ "close", "flush", "input", "lines", "open", "output", "popen", "read", "tmpfile", "write" }) do
      rawset(io, name, refused)
    end
    if type(file) == "table" then
      local methods = rawget(file, "__index")
      if type(methods) == "table" then
        for _, name in ipairs({ "close", "flush", "lines", "read", "seek", "setvbuf", "write" }) do
          rawset(methods, name, refused)
        end
      end
      rawset(file, "__gc", nil)
      rawset(file, "__close", nil)
    end
    """

  /// A runtime just after the script's set-up, with its device, for a replay
  /// from the start (the search's checks, the random walks, shrinking): made
  /// once and saved, then put back to that state for each replay. That copies
  /// the Lua state's bytes, where making a runtime and running the script
  /// again took about 1.4 ms. Only from one thread at a time.
  ///
  /// A new runtime instead, as every replay had before, after a replay that
  /// made or dropped a device, which going back cannot undo. (Under
  /// `--unsafe`, files, which the Lua state's bytes cannot take back, are
  /// closed to every step: `fileLock`.)
  func fromStart() throws -> (LuaRuntime, DeviceSlot) {
    do {
      if let r = replayer {
        do {
          try r.rt.restoreState(r.root)
          return (r.rt, r.slot)
        } catch is ScriptError {
          replayer = nil  // the devices changed: set up again
        }
      }
      let rt = try runtime(snapshots: true)
      let slot = try rt.exploreDevice()
      try rt.checkSavable()
      replayer = (rt, slot, rt.saveState())
      return (rt, slot)
    } catch let e as ScriptError {
      throw ExploreError(description: e.message)
    }
  }

  /// The fingerprint of the state `steps` reach, replayed from the start.
  func replayFingerprint(_ steps: [String]) throws -> [UInt8] {
    let (rt, slot) = try fromStart()
    do {
      for step in steps where try rt.take(step, on: slot) != .done {
        throw ExploreError.notReplayable(steps, at: step)
      }
      return try rt.exploreFingerprint(on: slot)
    } catch let e as ScriptError {
      throw ExploreError(description: e.message)
    }
  }

  // MARK: - Random walks (swarm testing) and shrinking

  /// Where a sequence first fails, replayed from the start with refused steps
  /// skipped: the steps up to the failure, and what failed. Nil if it holds.
  /// `visit` sees each state on the way (after the set-up and each step taken).
  func firstFailure(_ steps: [String], visit: (LuaRuntime, DeviceSlot) throws -> Void = { _, _ in })
    throws -> (steps: [String], invariant: String?, message: String, trace: String)?
  {
    let (rt, slot) = try fromStart()
    var taken: [String] = []
    func found(_ invariant: String?, _ message: String) throws
      -> (steps: [String], invariant: String?, message: String, trace: String)
    {
      try Self.checkNotFileUse(message)
      return (taken, invariant, message, TraceWriter(format: .text).render(slot.device.trace))
    }
    try visit(rt, slot)
    if let (name, message) = try rt.brokenInvariant(on: slot) { return try found(name, message) }
    for step in steps {
      let outcome: StepOutcome
      replayedSteps += 1
      do { outcome = try rt.take(step, on: slot) } catch let e as ScriptError { throw ExploreError(description: e.message) }
      if outcome == .refused { continue }
      taken.append(step)
      if case .failed(let message) = outcome { return try found(nil, message) }
      try visit(rt, slot)
      if let (name, message) = try rt.brokenInvariant(on: slot) { return try found(name, message) }
    }
    return nil
  }

  /// `walks` random walks of `length` steps, each drawn from the alphabet by
  /// a generator of its own, seeded from `seed`; the first that fails is
  /// shrunk to a shortest failing subsequence of its steps up to the failure.
  public func randomWalks(_ walks: Int, length: Int, seed: UInt64,
                          progress: ((ExploreProgress) -> Void)? = nil) throws -> ExploreResult {
    let start = Date()
    var result = ExploreResult()
    let rt0 = try runtime()
    let slot0: DeviceSlot
    do { slot0 = try rt0.exploreDevice() } catch let e as ScriptError { throw ExploreError(description: e.message) }
    result.alphabet = options.actions ?? rt0.alphabet(of: slot0)
    if rt0.explore.invariants.isEmpty {
      throw ExploreError(description: "the script declares no invariant: lifesim.invariant(name, function(dev) … end)")
    }
    // The reachable properties, looked for in every state the walks pass.
    let names = rt0.explore.reachables.map(\.name)
    var reached = Set<String>()
    func visit(_ rt: LuaRuntime, _ slot: DeviceSlot) throws {
      guard reached.count < names.count else { return }
      do { reached.formUnion(try rt.reached(on: slot)) } catch let e as ScriptError {
        throw ExploreError(description: e.message)
      }
    }
    var lastReport = Date()
    // Each walk's generator is seeded by the next number of one seeded by
    // `seed`: seeds that differ by the generator's own step (seed + k·γ) would
    // give the same stream shifted by k.
    var seeds = SeededGenerator(seed: seed)
    for walk in 0..<walks {
      var random = SeededGenerator(seed: seeds.next())
      let steps = (0..<length).map { _ in result.alphabet[Int(random.next() % UInt64(result.alphabet.count))] }
      result.states += steps.count
      if let failure = try firstFailure(steps, visit: visit) {
        let shrunk = try shrink(failure.steps, result: &result, start: start, progress: progress)
        result.violation = ExploreViolation(steps: shrunk.steps, invariant: shrunk.invariant, message: shrunk.message,
                                            trace: shrunk.trace)
        result.depthReached = failure.steps.count
        break
      }
      if let progress, Date().timeIntervalSince(lastReport) >= 1 {
        lastReport = Date()
        progress(ExploreProgress(depth: length, states: result.states, distinct: walk + 1, queue: walks - walk - 1,
                                 seconds: Date().timeIntervalSince(start)))
      }
    }
    result.reachables = names.map { ($0, reached.contains($0)) }
    result.seconds = Date().timeIntervalSince(start)
    return result
  }

  /// A failing sequence made as short as its subsequences allow: first steps
  /// are dropped one at a time while it still fails (to a sequence from which
  /// no single step can go), then, when that is short enough, every smaller
  /// subsequence is tried breadth first, so the result is a shortest one.
  /// The replays take up to `maxShrinkSteps` steps in all (the first pass
  /// alone costs about the failure's length cubed); past that it stops with
  /// the shortest failure found so far (`shrinkStopped`). `progress` hears
  /// about it every second.
  private func shrink(_ steps: [String], result: inout ExploreResult, start: Date,
                      progress: ((ExploreProgress) -> Void)?)
    throws -> (steps: [String], invariant: String?, message: String, trace: String)
  {
    replayedSteps = 0
    guard var best = try firstFailure(steps) else { throw ExploreError(description: "the failure did not replay: the script is not deterministic") }
    let budget = options.maxShrinkSteps
    var lastReport = Date.distantPast  // the first report says that shrinking began
    /// Whether the replays may go on; reports progress while they do.
    func mayGoOn() -> Bool {
      guard replayedSteps < budget else {
        result.shrinkStopped = true
        return false
      }
      if let progress, Date().timeIntervalSince(lastReport) >= 1 {
        lastReport = Date()
        progress(ExploreProgress(depth: steps.count, states: result.states, distinct: 0, queue: 0,
                                 seconds: Date().timeIntervalSince(start),
                                 shrinking: (best.steps.count, replayedSteps)))
      }
      return true
    }
    var shrinking = true
    while shrinking {
      shrinking = false
      for i in best.steps.indices {
        guard mayGoOn() else { return best }
        var candidate = best.steps
        candidate.remove(at: i)
        result.states += 1
        if let f = try firstFailure(candidate) {
          best = f
          shrinking = true
          break
        }
      }
    }
    // Breadth first over the smaller subsequences, when there are few enough.
    let n = best.steps.count
    guard n > 1, n <= 14 else { return best }
    for size in 0..<n {
      for mask in 0..<(1 << n) where mask.nonzeroBitCount == size {
        guard mayGoOn() else { return best }
        let candidate = best.steps.indices.filter { mask & (1 << $0) != 0 }.map { best.steps[$0] }
        result.states += 1
        if let f = try firstFailure(candidate) { return f }
      }
    }
    return best
  }

  /// A scenario that reproduces a violation under `lifesim run`: the script,
  /// wrapped in a function so that a `return` at its end still lets the steps
  /// run after it, and started on its own first line so that its line numbers
  /// (and so a handler error's message) stay the same; then the steps through
  /// `lifesim.replay`, which fails with the message. `command` is the command
  /// line that runs it (with the flags the search ran under). The script's
  /// bytes are copied as they are (Lua reads bytes: a comment in Latin-1 runs),
  /// but for a UTF-8 byte-order mark, which would sit mid-chunk after the
  /// wrapper's first words.
  public static func counterexample(script: [UInt8], file: String, _ v: ExploreViolation, command: String) -> [UInt8] {
    var out = Array("(function(...) --[==[ a counterexample found by lifesim explore: see the end of the file ]==] ".utf8)
    // The script's own long brackets cannot close the comment above: its level
    // is two, and the script starts after it.
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    out += script.starts(with: bom) ? script.dropFirst(3) : script[...]
    if script.last != UInt8(ascii: "\n") { out.append(UInt8(ascii: "\n")) }
    var tail = "end)(...)\n\n"
    // What goes into a comment is made one line: a newline in a step's name
    // (from a bundle id or an action's name) would end the comment there.
    tail += "-- A counterexample found by `lifesim explore \(commentText(file))`: after "
    tail += v.steps.isEmpty ? "no step" : commentText(v.steps.joined(separator: ", "))
    tail += ",\n-- " + commentText(v.invariant.map { "invariant '\($0)' does not hold" } ?? "a handler fails") + ": "
    tail += commentText(v.message.split(separator: "\n").first.map(String.init) ?? "")
    tail += "\n-- Run it with `\(commentText(command))`: it fails there with the same message.\n"
    tail += "lifesim.replay{ " + v.steps.map(quoted).joined(separator: ", ") + " }\n"
    return out + Array(tail.utf8)
  }

  /// Text for a Lua comment line: a control character (a newline or a
  /// carriage return would end the comment) written as its escape.
  static func commentText(_ s: String) -> String {
    guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return s }
    let q = quoted(s)
    return String(q.dropFirst().dropLast())
  }
}
