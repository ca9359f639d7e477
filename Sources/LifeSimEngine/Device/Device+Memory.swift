// Memory and jetsam (reference §0 "Jetsam", §4): footprints, warnings, and
// silent kills by band.
extension Device {
  /// Memory in use: every process that exists, suspended ones included (§4).
  public var memoryUsedMB: Double { processes.memoryInUseMB }

  /// `ctx:allocate(mb)`: the process grows. Over its own limit it dies at once,
  /// even in the foreground (§0); device-wide pressure is decided when the
  /// running code returns.
  public func allocate(_ mb: Double, app id: AppID) throws {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.allocate, app: self[id].config.bundle, state: self[id].state)
    }
    processes.setFootprint(id, self[id].footprintMB + max(0, mb))
    if memory.overLimit(self[id].footprintMB) {
      try systemKill(id, reason: .perProcessLimit)
      return
    }
    scheduleMemoryCheck()
  }

  /// `ctx:release(mb)`: the process shrinks (not below zero).
  public func release(_ mb: Double, app id: AppID) throws {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.release, app: self[id].config.bundle, state: self[id].state)
    }
    processes.setFootprint(id, self[id].footprintMB - max(0, mb))
    scheduleMemoryCheck()
  }

  /// Memory changed: decide warnings and jetsam once the running code returns.
  func scheduleMemoryCheck() {
    if memory.requestCheck() { kernel.schedule(.device(.memoryCheck, epoch: 0), at: now) }
  }

  /// The memory check that `scheduleMemoryCheck` scheduled came due: the
  /// rules are `MemoryMonitor.reduce`'s.
  func checkMemory() throws { try run(.checkDue(overLimit: anyOverLimit())) }

  /// A running process is over its own limit (§0).
  func anyOverLimit() -> Bool {
    // `memory.overLimit` for each process, with the limit read once.
    guard let limit = memory.perProcessLimitMB.map(Double.init) else { return false }
    for i in apps.indices where self[AppID(i)].state.isRunning && self[AppID(i)].footprintMB > limit { return true }
    return false
  }

  /// Kills every running process over its own limit (§0).
  func killOverLimit() throws {
    for i in apps.indices {
      let id = AppID(i)
      if self[id].state.isRunning && memory.overLimit(self[id].footprintMB) {
        try systemKill(id, reason: .perProcessLimit)
      }
    }
  }

  /// Frees memory once under critical pressure: reclaims the least recently
  /// shown background scene when the policy says so, or kills the first
  /// victim, which a host policy may choose (§0, §4).
  /// - Returns: false when there was nothing to free.
  @inline(never)  // a rare step: see Device+Effects.swift
  func jetsamOnce() throws -> Bool {
    if let mb = policy.reclaimSceneMB, let (app, scene) = reclaimableScene() {
      try cascade(for: app) { try reclaimScene(scene, of: app) }
      if self[app].state.isRunning { processes.setFootprint(app, self[app].footprintMB - mb) }
      return true
    }
    guard var victim = processes.firstVictim(order: policy.victimOrder) else { return false }
    if policy.victimFromHost, let host {
      let candidates = victimCandidates()
      victim = try asking(.chooseVictim) { try host.chooseVictim(candidates, on: self) }
      guard candidates.contains(where: { $0.app == victim }) else {
        throw SimulationError.policyFailed(policy: "choose_victim",
                                           message: "returned \(self[victim].config.bundle), which is not one of the candidates")
      }
    }
    try systemKill(victim, reason: .vmPageShortage)
    return true
  }

  /// The processes jetsam may kill, in its default order (§0, §4).
  public func victimCandidates() -> [VictimCandidate] { processes.victimCandidates() }

  /// The least recently shown background scene of a running app, if any.
  private func reclaimableScene() -> (AppID, Int32)? {
    var best: (AppID, Int32, Int)?
    for i in apps.indices where processes[AppID(i)].state.isRunning {
      for s in processes[AppID(i)].scenes where s.state == .background {
        if best == nil || s.lastForward < best!.2 { best = (AppID(i), s.number, s.lastForward) }
      }
    }
    return best.map { ($0.0, $0.1) }
  }

  /// A `memory` record of the level the monitor is at now.
  @inline(never)  // a rare step: see Device+Effects.swift
  func recordMemoryLevel(_ level: MemoryLevel) {
    let used = memoryUsedMB
    let ram = memory.ramMB ?? 0
    trace.append({
      $0.detail = "\(level) \(formatNumber(used))/\(ram) MB"
      $0.memoryLevel = level; $0.usedMB = used; $0.limitMB = Double(ram)
      $0.warningMB = policy.memoryWarningAt * Double(ram); $0.jetsamMB = policy.jetsamAt * Double(ram)
    }, kind: .memory, at: now)
  }
}

/// A number for a message, as Lua's `%.14g` would print it: whole numbers
/// without a fraction.
public func formatNumber(_ x: Double) -> String {
  printsWhole(x) ? String(Int64(x)) : String(x)
}

/// Whether `formatNumber` (and the trace writers) print `x` as an integer.
@inline(__always)
func printsWhole(_ x: Double) -> Bool { x == x.rounded() && abs(x) < 1e15 }
