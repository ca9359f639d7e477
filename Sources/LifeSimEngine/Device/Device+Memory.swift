// Memory and jetsam (reference §0 "Jetsam", §4): footprints, warnings, and
// silent kills by band.
extension Device {
  /// Memory in use: every process that exists, suspended ones included (§4).
  public var memoryUsedMB: Double {
    // By index: iterating `apps` by value would copy every app, arrays and all.
    var total = 0.0
    for i in apps.indices where apps[i].state.isRunning { total += apps[i].footprintMB }
    return total
  }

  /// `ctx:allocate(mb)`: the process grows. Over its own limit it dies at once,
  /// even in the foreground (§0); device-wide pressure is decided when the
  /// running code returns.
  public func allocate(_ mb: Double, app id: AppID) throws {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.allocate, app: self[id].config.bundle, state: self[id].state)
    }
    self[id].footprintMB += max(0, mb)
    if let limit = perProcessLimitMB, self[id].footprintMB > Double(limit) {
      try killProcess(id, reason: .perProcessLimit)
      return
    }
    scheduleMemoryCheck()
  }

  /// `ctx:release(mb)`: the process shrinks (not below zero).
  public func release(_ mb: Double, app id: AppID) throws {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.release, app: self[id].config.bundle, state: self[id].state)
    }
    self[id].footprintMB = max(0, self[id].footprintMB - max(0, mb))
    scheduleMemoryCheck()
  }

  /// Memory changed: decide warnings and jetsam once the running code returns.
  func scheduleMemoryCheck() {
    guard memoryMB != nil, !memoryCheckScheduled else { return }
    memoryCheckScheduled = true
    kernel.schedule(.device(.memoryCheck, epoch: 0), at: now)
  }

  /// The pressure level for `used` MB.
  func memoryLevel(used: Double) -> MemoryLevel {
    guard let ram = memoryMB.map(Double.init) else { return .normal }
    if used > policy.jetsamAt * ram { return .critical }
    if used >= policy.memoryWarningAt * ram { return .warning }
    return .normal
  }

  /// §0 and §4: processes over their own limit die first (`per-process-limit`);
  /// then, each time the level rises, a warning goes to every app that runs
  /// code, before any kill at that pressure; then, while it stays critical, jetsam kills
  /// the first candidate (`vm-pageshortage`), or first reclaims background
  /// scenes when the policy says so.
  func checkMemory() throws {
    memoryCheckScheduled = false
    guard memoryMB != nil else { return }
    if let limit = perProcessLimitMB {
      for i in apps.indices where apps[i].state.isRunning && apps[i].footprintMB > Double(limit) {
        try killProcess(apps[i].id, reason: .perProcessLimit)
      }
    }
    let level = memoryLevel(used: memoryUsedMB)
    if level != memoryLevel {
      let rising = level > memoryLevel
      recordMemoryLevel(level)
      if rising { try sendMemoryWarnings() }  // every rise warns, before any kill
    }
    while memoryLevel(used: memoryUsedMB) == .critical {
      if let mb = policy.reclaimSceneMB, let (app, scene) = reclaimableScene() {
        try cascade(for: app) { try reclaimScene(scene, of: app) }
        if self[app].state.isRunning { self[app].footprintMB = max(0, self[app].footprintMB - mb) }
        continue
      }
      let candidates = victimCandidates()
      guard let first = candidates.first else { break }
      var victim = first.app
      if policy.victimFromHost, let host {
        victim = try host.chooseVictim(candidates, on: self)
        guard candidates.contains(where: { $0.app == victim }) else {
          throw SimulationError.policyFailed(policy: "choose_victim",
                                             message: "returned \(self[victim].config.bundle), which is not one of the candidates")
        }
      }
      try killProcess(victim, reason: .vmPageShortage)
    }
    let after = memoryLevel(used: memoryUsedMB)
    if after != memoryLevel { recordMemoryLevel(after) }
  }

  /// The processes jetsam may kill, in its default order (§0, §4): lowest band
  /// first (suspended 0, background 3, foreground 10, audio 12); within a band
  /// the least recently used first; ties broken by install order.
  public func victimCandidates() -> [VictimCandidate] {
    apps.indices.filter { apps[$0].state.isRunning }
      .map { i in
        VictimCandidate(app: apps[i].id, band: apps[i].band, footprintMB: apps[i].footprintMB,
                        lastUsed: apps[i].lastUsed, state: apps[i].state, unsaved: apps[i].unsaved)
      }
      .sorted { a, b in
        if a.band != b.band { return a.band < b.band }
        if a.lastUsed != b.lastUsed { return a.lastUsed < b.lastUsed }
        return a.app < b.app
      }
  }

  /// The least recently shown background scene of a running app, if any.
  private func reclaimableScene() -> (AppID, Int32)? {
    var best: (AppID, Int32, Int)?
    for app in apps where app.state.isRunning {
      for s in app.scenes where s.state == .background {
        if best == nil || s.lastForward < best!.2 { best = (app.id, s.number, s.lastForward) }
      }
    }
    return best.map { ($0.0, $0.1) }
  }

  private func recordMemoryLevel(_ level: MemoryLevel) {
    memoryLevel = level
    let used = memoryUsedMB
    let ram = memoryMB ?? 0
    trace.append({ $0.detail = "\(level) \(formatNumber(used))/\(ram) MB" }, kind: .memory, at: now)
  }
}

/// A number for a message, as Lua's `%.14g` would print it: whole numbers
/// without a fraction.
public func formatNumber(_ x: Double) -> String {
  x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
}
