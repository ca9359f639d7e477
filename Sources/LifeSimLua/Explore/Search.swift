import Foundation
import LifeSimEngine

// The breadth-first search, by saved states: each state to expand is kept as
// its runtime's whole state (`RuntimeState`), and each step of its expansion
// starts from it again, so a state costs one step, not a replay of its path.

/// One worker: a runtime made for saving states, its device, the state just
/// after the script's set-up, from which it can rebuild any state by taking
/// its steps, and the base the states it saves are deltas against.
private final class SearchWorker {
  let rt: LuaRuntime
  let slot: DeviceSlot
  /// The state after the set-up: at first the base itself.
  @exclusivity(unchecked) private(set) var setUp: RuntimeState
  /// Saved whole; the runtime tracks its writes from it (`ExploreOptions.trackWrites`).
  @exclusivity(unchecked) private(set) var base: RuntimeState

  init(_ explorer: Explorer) throws {
    rt = try explorer.runtime(snapshots: true)
    do {
      slot = try rt.exploreDevice()
      try rt.checkSavable()
    } catch let e as ScriptError { throw ExploreError(description: e.message) }
    var root = rt.saveState()
    if explorer.options.trackWrites { rt.trackWrites(from: &root) }
    setUp = root
    base = root
  }

  /// The state after `steps`, taken from the set-up; none of them may be refused.
  func rebuild(_ steps: [String]) throws {
    try restore(setUp)
    for step in steps where try take(step) != .done {
      throw ExploreError.notReplayable(steps, at: step)
    }
  }

  func restore(_ s: RuntimeState, lua: Bool = true) throws {
    do { try rt.restoreState(s, base: base, lua: lua) } catch let e as ScriptError {
      throw ExploreError(description: e.message)
    }
  }

  /// Makes the first of the nodes' states the base, and re-saves the others
  /// and the set-up state against it (`LuaRuntime.rebase`): the states of the
  /// next level differ from it on fewer pages than from the set-up state.
  func rebase(_ nodes: inout [Node], owned: [Int]) throws {
    guard !owned.isEmpty else { return }
    var states = owned.map { nodes[$0].state! } + [setUp]
    let newBase: RuntimeState?
    do { newBase = try rt.rebase(&states, from: base) } catch let e as ScriptError {
      throw ExploreError(description: e.message)
    }
    guard let newBase else { return }
    base = newBase
    setUp = states.removeLast()
    for (i, s) in zip(owned, states) { nodes[i].state = s }
  }

  /// The state now, saved against the base.
  func save() throws -> RuntimeState {
    do { try rt.checkSavable() } catch let e as ScriptError { throw ExploreError(description: e.message) }
    return rt.saveState(against: base)
  }

  func take(_ step: String) throws -> StepOutcome {
    do { return try rt.take(step, on: slot) } catch let e as ScriptError { throw ExploreError(description: e.message) }
  }

  /// The search's alphabet, each step read once (`plan(_:)`), in its order.
  @exclusivity(unchecked) private(set) var plans: [StepPlan] = []

  func plan(_ alphabet: [String]) {
    plans = alphabet.map { rt.plan($0, on: slot) }
  }

  func take(_ plan: StepPlan) throws -> StepOutcome {
    do { return try rt.take(plan, on: slot) } catch let e as ScriptError { throw ExploreError(description: e.message) }
  }

  /// The fingerprint of the state now: the engine's, then the script's key.
  func fingerprint() throws -> StateDigest {
    do { return try rt.exploreDigest(on: slot) } catch let e as ScriptError {
      throw ExploreError(description: e.message)
    }
  }

  /// What the state now breaks, if anything, after a step with `outcome`.
  func violation(after outcome: StepOutcome) throws -> (invariant: String?, message: String)? {
    let found: (String?, String)?
    if case .failed(let message) = outcome { found = (nil, message) } else { found = try rt.brokenInvariant(on: slot) }
    if let message = found?.1 { try Explorer.checkNotFileUse(message) }
    return found.map { ($0.0, $0.1) }
  }

  var trace: String { TraceWriter(format: .text).render(slot.device.trace) }
}

/// A state to expand: the steps that reach it, and its saved state in the
/// worker that reached it.
private struct Node {
  var steps: [String]
  var fingerprint: StateDigest
  var owner: Int
  /// Nil for a state of the last level: it is never expanded.
  var state: RuntimeState?
}

/// What expanding one node gave: its successors, in alphabet order, up to
/// and including the first that breaks something, and the coverage its steps
/// added (not the steps that rebuilt the node on another worker).
private struct Expansion {
  var successors: [Successor] = []
  var coverage = Coverage()
}

/// One step from a node.
private struct Successor {
  var refused = false
  var fingerprint = StateDigest([])
  var violation: (invariant: String?, message: String)?
  var reached: [String] = []
  /// Saved when the fingerprint was new to its worker.
  var state: RuntimeState?
  /// New to its worker, but not saved: the saved states had reached
  /// --max-saved-memory.
  var overBudget = false
}

/// The bytes the search's saved states hold (the Lua state's bytes of each),
/// counted across the workers, against --max-saved-memory.
private final class SavedBytes: @unchecked Sendable {
  private let lock = NSLock()
  @exclusivity(unchecked) private var total = 0
  let budget: Int
  init(budget: Int) { self.budget = budget }

  /// Counts `n` more bytes; false, counting nothing, when they would go past the budget.
  func add(_ n: Int) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard total + n <= budget else { return false }
    total += n
    return true
  }

  func set(_ n: Int) {
    lock.lock()
    total = n
    lock.unlock()
  }

  func remove(_ n: Int) {
    lock.lock()
    total -= n
    lock.unlock()
  }
}

extension Explorer {
  /// Runs the breadth-first search.
  public func run(progress: ((ExploreProgress) -> Void)? = nil) throws -> ExploreResult {
    let start = Date()
    var result = ExploreResult()
    let jobs = max(1, options.jobs)
    let workers = try (0..<jobs).map { _ in try SearchWorker(self) }
    let first = workers[0]
    result.alphabet = options.actions ?? first.rt.alphabet(of: first.slot)
    for w in workers { w.plan(result.alphabet) }
    let reachableNames = first.rt.explore.reachables.map(\.name)
    if first.rt.explore.invariants.isEmpty {
      throw ExploreError(description: "the script declares no invariant: lifesim.invariant(name, function(dev) … end)")
    }
    result.states = 1
    result.distinct = 1
    // The edges the set-up took, once (every worker took them).
    result.coverage = first.slot.device.coverage
    var reachedNames = Set<String>()
    do { reachedNames.formUnion(try first.rt.reached(on: first.slot)) } catch let e as ScriptError {
      throw ExploreError(description: e.message)
    }
    if let v = try first.violation(after: .done) {
      result.violation = ExploreViolation(steps: [], invariant: v.invariant, message: v.message, trace: first.trace)
      return finish(&result, start, workers, reachableNames, reachedNames)
    }
    let rootPrint = try first.fingerprint()
    var seen: Set<StateDigest> = [rootPrint]
    var frontier = [Node(steps: [], fingerprint: rootPrint, owner: 0, state: first.base)]
    let saved = SavedBytes(budget: options.maxSavedBytes)
    /// The bytes a node's saved state adds to the workers' own (the first
    /// level's one node is a worker's base, as the set-up state is until a
    /// rebase).
    func counted(_ node: Node) -> Int {
      guard let state = node.state else { return 0 }
      return workers[node.owner].base.sharesBytes(with: state) ? 0 : state.byteCount
    }
    var depth = 0
    var lastReport = Date()
    var checked = 0
    let alphabet = result.alphabet
    search: while depth < options.depth, !frontier.isEmpty {
      depth += 1
      // While the levels are small, each worker rebases on one of its nodes
      // (`SearchWorker.rebase`): the states of the later levels differ from
      // a state a few steps deep on fewer pages than from the set-up state.
      // Rebasing re-saves every node of the worker's, so it stops once the
      // levels grow (measured in docs/performance.md).
      if depth >= 2 {
        for (w, worker) in workers.enumerated() {
          let owned = frontier.indices.filter { frontier[$0].owner == w && frontier[$0].state != nil }
          if owned.count <= Self.rebaseLimit { try worker.rebase(&frontier, owned: owned) }
        }
      }
      // What the states to expand and the workers' own hold now; the new
      // states of this level are counted as they are saved.
      let held = frontier.reduce(0) { $0 + counted($1) }
        + workers.reduce(0) { $0 + $1.base.byteCount + ($1.setUp.sharesBytes(with: $1.base) ? 0 : $1.setUp.byteCount) }
      saved.set(held)
      if held > options.maxSavedBytes {
        result.truncated = true
        result.savedMemoryReached = true
        result.depthReached = depth
        break search
      }
      // The new states of the last level are never expanded: they are not
      // saved (about a third of the saving in a depth-7 search, and most of
      // its memory).
      let keep = depth < options.depth
      var next: [Node] = []
      // A chunk of the level's nodes at a time, node i on worker i % jobs;
      // the successors are merged in node and step order, so the answer does
      // not depend on --jobs.
      let chunkSize = 16 * jobs
      var offset = 0
      while offset < frontier.count {
        let chunk = offset..<min(frontier.count, offset + chunkSize)
        offset = chunk.upperBound
        let expanded = expandAll(frontier, chunk, workers, seen, saved, keep: keep)
        // In node order, whatever --jobs: a node's error counts only if no
        // earlier node broke an invariant (the workers may have gone past it).
        for (n, expansion) in zip(chunk, expanded) {
          let e = try expansion.get()
          result.coverage.add(e.coverage)
          for (step, s) in zip(alphabet, e.successors) {
            result.states += 1
            if s.refused { continue }
            reachedNames.formUnion(s.reached)
            if let v = s.violation {
              let steps = frontier[n].steps + [step]
              result.violation = try confirmed(steps, v)
              result.depthReached = depth
              break search
            }
            guard seen.insert(s.fingerprint).inserted else {
              if let state = s.state { saved.remove(state.byteCount) }  // another node's successor got there first
              continue
            }
            if result.distinct >= options.maxStates {
              // One more distinct state than --max-states allows: stop before it.
              result.truncated = true
              result.depthReached = depth
              break search
            }
            if keep && s.overBudget {
              // A state to expand that would take the saved states past
              // --max-saved-memory: stop before it.
              result.truncated = true
              result.savedMemoryReached = true
              result.depthReached = depth
              break search
            }
            precondition(!keep || s.state != nil, "a new state's first successor was not saved")
            // Saved by the worker that expanded node n.
            let node = Node(steps: frontier[n].steps + [step], fingerprint: s.fingerprint, owner: n % jobs, state: s.state)
            // The search rests on the simulation being deterministic: the
            // first states, then one in 256, are replayed from the start in a
            // runtime of their own (`fromStart`), which must reach the same
            // fingerprint (a script that reads something outside the device
            // fails here).
            if checked < 16 || result.distinct % 256 == 0 {
              checked += 1
              try checkReplay(node.steps, node.fingerprint)
            }
            result.distinct += 1
            next.append(node)
          }
        }
        // The chunk's states are expanded: what they held is free again.
        for n in chunk {
          saved.remove(counted(frontier[n]))
          frontier[n].state = nil
        }
        if let progress, Date().timeIntervalSince(lastReport) >= 1 {
          lastReport = Date()
          progress(ExploreProgress(depth: depth, states: result.states, distinct: result.distinct,
                                   queue: next.count + frontier.count - offset, seconds: Date().timeIntervalSince(start)))
        }
      }
      result.depthReached = depth
      frontier = next
    }
    return finish(&result, start, workers, reachableNames, reachedNames)
  }

  private func finish(_ result: inout ExploreResult, _ start: Date, _ workers: [SearchWorker], _ names: [String],
                      _ reached: Set<String>) -> ExploreResult {
    result.seconds = Date().timeIntervalSince(start)
    result.reachables = names.map { ($0, reached.contains($0)) }
    return result
  }

  /// The most nodes a worker re-saves to rebase at the start of a level.
  /// In the bench's depth-7 search, rebasing at levels 2 to 4 (up to 55
  /// nodes) leaves 5.5 of the Lua state's pages written at a restore instead
  /// of 9; rebasing at every level too (1,900 nodes) costs more than it saves.
  static let rebaseLimit = 64

  /// A violation, once replayed from the start (`fromStart`): it must
  /// fail there, at its last step, the same way (a script that reads
  /// something outside the device may not), and the trace reported is that
  /// run's, as `lifesim run` of the counterexample prints it.
  private func confirmed(_ steps: [String], _ v: (invariant: String?, message: String)) throws -> ExploreViolation {
    guard let f = try firstFailure(steps), f.steps == steps, f.invariant == v.invariant, f.message == v.message else {
      throw ExploreError(description: "the violation after \(steps.joined(separator: ", ")) did not happen again when "
                         + "replayed from the start: the script depends on something outside the device, which the "
                         + "search cannot replay")
    }
    return ExploreViolation(steps: steps, invariant: v.invariant, message: v.message, trace: f.trace)
  }

  /// Replays `steps` from the start and checks it reaches `fingerprint`.
  private func checkReplay(_ steps: [String], _ fingerprint: StateDigest) throws {
    guard StateDigest(try replayFingerprint(steps)) == fingerprint else {
      throw ExploreError.notReplayable(steps)
    }
  }

  /// Expands the chunk's nodes, each on worker `index % jobs`, the workers in
  /// parallel; each node's expansion or error, in node order.
  private func expandAll(_ frontier: [Node], _ chunk: Range<Int>, _ workers: [SearchWorker],
                         _ seen: Set<StateDigest>, _ saved: SavedBytes, keep: Bool) -> [Result<Expansion, Error>] {
    let jobs = workers.count
    if jobs == 1 {
      var fresh = Set<StateDigest>()
      var out: [Result<Expansion, Error>] = []
      for n in chunk {
        let r = Result { try expand(frontier[n], on: workers[0], index: 0, seen, &fresh, saved, keep: keep) }
        out.append(r)
        if case .failure = r { break }  // nothing after it is looked at
      }
      return out
    }
    final class Results: @unchecked Sendable {
      // Each index is written by one worker only.
      var slots: [Result<Expansion, Error>?]
      init(_ n: Int) { slots = Array(repeating: nil, count: n) }
    }
    let results = Results(chunk.count)
    results.slots.withUnsafeMutableBufferPointer { buffer in
      let base = buffer.baseAddress!
      DispatchQueue.concurrentPerform(iterations: jobs) { w in
        var fresh = Set<StateDigest>()
        for n in chunk where n % jobs == w {
          (base + (n - chunk.lowerBound)).pointee = Result {
            try self.expand(frontier[n], on: workers[w], index: w, seen, &fresh, saved, keep: keep)
          }
        }
      }
    }
    return results.slots.map { $0! }
  }

  /// Every step of the alphabet from `node`, on `worker`. A node saved by
  /// another worker is first rebuilt from this worker's root by its steps
  /// (a saved state only restores into the runtime that saved it). With
  /// `keep`, the first successor in a new state is saved, to be expanded at
  /// the next level.
  private func expand(_ node: Node, on worker: SearchWorker, index: Int, _ seen: Set<StateDigest>,
                      _ fresh: inout Set<StateDigest>, _ saved: SavedBytes, keep: Bool) throws -> Expansion {
    let start: RuntimeState
    if node.owner != index {
      try worker.rebuild(node.steps)
      guard try worker.fingerprint() == node.fingerprint else { throw ExploreError.notReplayable(node.steps) }
      start = try worker.save()
    } else {
      guard let saved = node.state else { preconditionFailure("a node to expand was not saved") }
      start = saved
    }
    let coverageBefore = worker.slot.device.coverage
    var out: [Successor] = []
    out.reserveCapacity(worker.plans.count)
    // Whether the Lua state is still `start`'s: a refused step runs no Lua
    // code and allocates nothing (a third of all steps), so the next one
    // need not copy the Lua state back (the bridge's and the engine's parts
    // are put back every time: they are cheap).
    var luaIsStart = false
    for plan in worker.plans {
      try worker.restore(start, lua: !luaIsStart)
      let activity = worker.rt.luaActivity
      var s = Successor()
      let outcome = try worker.take(plan)
      if outcome == .refused {
        luaIsStart = worker.rt.luaActivity == activity
        assert(!luaIsStart || worker.rt.luaStateEquals(start, base: worker.base), "a refused step changed the Lua state")
        s.refused = true
        out.append(s)
        continue
      }
      luaIsStart = false
      s.fingerprint = try worker.fingerprint()
      do { s.reached = try worker.rt.reached(on: worker.slot) } catch let e as ScriptError {
        throw ExploreError(description: e.message)
      }
      if let v = try worker.violation(after: outcome) {
        s.violation = v
        out.append(s)
        break  // the search stops here: the later steps would not be looked at
      } else if keep, !seen.contains(s.fingerprint), fresh.insert(s.fingerprint).inserted {
        let state = try worker.save()
        if saved.add(state.byteCount) { s.state = state } else { s.overBudget = true }
      }
      out.append(s)
    }
    return Expansion(successors: out, coverage: worker.slot.device.coverage.since(coverageBefore))
  }
}
