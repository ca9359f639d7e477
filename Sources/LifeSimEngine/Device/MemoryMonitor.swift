/// The device's memory (reference §0 "Jetsam", §4): its RAM and per-process
/// limit, the pressure level last recorded, whether a check is waiting for
/// the running code to return, and the rules of a check (`reduce`). What a
/// process uses is in `ProcessTable`.
///
///     var m = MemoryMonitor(ramMB: 1000, model: nil)
///     m.reduce(.check, usedMB: 950, policy: policy)
///     // [.recordLevel(.critical), .warnEveryApp, .then(.lookAgain)]
public struct MemoryMonitor: Sendable {
  /// Physical memory in MB: the model's, the script's `memory_mb`, or nil
  /// (no memory model: no pressure warnings and no jetsam).
  public let ramMB: Int?
  /// The per-process limit in MB: the model's, or 50% of RAM (reference §0).
  public let perProcessLimitMB: Int?
  /// The pressure level last recorded.
  public internal(set) var level = MemoryLevel.normal
  /// A check is scheduled at the current instant.
  var checkScheduled = false

  public init(ramMB: Int?, model: DeviceModel?) {
    self.ramMB = ramMB
    self.perProcessLimitMB = model?.perProcessLimitMB ?? ramMB.map(DeviceModel.defaultLimitMB(ramMB:))
  }

  /// The pressure level for `used` MB under the policy's thresholds: critical
  /// above `jetsamAt` of RAM, warning from `memoryWarningAt`.
  public func level(used: Double, policy: Policy) -> MemoryLevel {
    guard let ram = ramMB.map(Double.init) else { return .normal }
    if used > policy.jetsamAt * ram { return .critical }
    if used >= policy.memoryWarningAt * ram { return .warning }
    return .normal
  }

  /// A process of `mb` is over its own limit and dies at once, even in the foreground (§0).
  public func overLimit(_ mb: Double) -> Bool {
    guard let limit = perProcessLimitMB else { return false }
    return mb > Double(limit)
  }

  /// Memory changed: true when a check must be scheduled (there is a memory
  /// model and none is waiting yet).
  mutating func requestCheck() -> Bool {
    guard ramMB != nil, !checkScheduled else { return false }
    checkScheduled = true
    return true
  }

  // MARK: - Rules

  /// Applies one step of a memory check: §0 and §4. Processes over their own
  /// limit die first; then, each time the level rises, a warning goes to
  /// every app that runs code, before any kill at that pressure; then, while
  /// it stays critical, jetsam frees memory one victim at a time; the level
  /// it ends at is recorded.
  /// - Parameters:
  ///   - event: the check coming due, or a follow-up once the effects before ran.
  ///   - usedMB: the memory in use now (`ProcessTable.memoryInUseMB`).
  ///   - policy: the thresholds.
  /// - Returns: what the device does, in order; a `.then` or a `.jetsam` comes last.
  @inline(__always)
  public mutating func reduce(_ event: MemoryEvent, usedMB: Double, policy: Policy) -> Effects<MemoryEffect> {
    switch event {
    case .checkDue(let overLimit):
      // Cleared first: a kill below asks for another check, at this instant.
      checkScheduled = false
      guard ramMB != nil else { return Effects() }
      // With no process over its own limit there is nothing to kill first,
      // and the memory in use is already what `.check` would read.
      return overLimit ? Effects(.killOverLimit, .then(.check)) : check(usedMB: usedMB, policy: policy)

    case .check:
      return check(usedMB: usedMB, policy: policy)

    case .lookAgain:
      return lookAgain(usedMB: usedMB, policy: policy)

    case .noVictim:
      return noVictim(usedMB: usedMB, policy: policy)

    case .simulatedWarning:
      // §0 "Memory warning": the warning alone; the level is not the monitor's to change.
      return Effects(.warnEveryApp)

    case .pressure:
      // §4: pressure from outside the apps takes the lowest bands first, and
      // what the user sees survives.
      return Effects(.killBelow(.foreground, reason: .vmPageShortage))
    }
  }
}

// The steps more than one event takes, as functions rather than calls of
// `reduce` on another event: a `reduce` that calls itself cannot be inlined
// whole into the loop that applies its effects (see `Screen`).
extension MemoryMonitor {
  /// The processes over their own limit are gone: compare the level.
  private mutating func check(usedMB: Double, policy: Policy) -> Effects<MemoryEffect> {
    let now = self.level(used: usedMB, policy: policy)
    guard now != level else { return lookAgain(usedMB: usedMB, policy: policy) }
    let rising = now > level
    level = now
    // Every rise warns, before any kill; the warnings' handlers may change
    // the memory in use, so the part looks again after them.
    return rising ? Effects(.recordLevel(now), .warnEveryApp, .then(.lookAgain)) : Effects(.recordLevel(now), .then(.lookAgain))
  }

  /// Still critical: jetsam; else the level it ends at.
  private mutating func lookAgain(usedMB: Double, policy: Policy) -> Effects<MemoryEffect> {
    let now = self.level(used: usedMB, policy: policy)
    if now == .critical { return Effects(.jetsam) }
    return noVictim(usedMB: usedMB, policy: policy)
  }

  /// Nothing (more) to free: the level it ends at is recorded if it changed.
  private mutating func noVictim(usedMB: Double, policy: Policy) -> Effects<MemoryEffect> {
    let now = self.level(used: usedMB, policy: policy)
    guard now != level else { return Effects() }
    level = now
    return Effects(.recordLevel(now))
  }
}

/// A step of a memory check (`MemoryMonitor.reduce`).
public enum MemoryEvent: Equatable, Sendable {
  /// The check scheduled when memory changed comes due; `overLimit`: a
  /// running process is over its own limit (`MemoryMonitor.overLimit`).
  case checkDue(overLimit: Bool)
  /// The processes over their own limit are gone: compare the level.
  case check
  /// Warnings were delivered, or jetsam freed memory: still critical?
  case lookAgain
  /// Jetsam found nothing more to free.
  case noVictim
  /// A memory warning from outside (the simulator's menu), at any level.
  case simulatedWarning
  /// Memory pressure from outside the apps; again after each kill.
  case pressure
}

/// What a memory check asks of the device.
public enum MemoryEffect: Equatable, Sendable {
  /// Kill every running process over its own limit (`per-process-limit`).
  case killOverLimit
  /// A `memory` record of the level, now the monitor's.
  case recordLevel(MemoryLevel)
  /// A memory warning to every app that runs code (§2.9).
  case warnEveryApp
  /// Free memory once: reclaim a background scene when the policy says so,
  /// or kill the first victim (`vm-pageshortage`); then `.lookAgain`, or
  /// `.noVictim` when there was none.
  case jetsam
  /// Kill the first victim in band order if it is below `band`, then
  /// `.pressure` again; nothing more when there is none.
  case killBelow(JetsamBand, reason: KillReason)
  /// Ask the monitor again with this event once the effects before it ran.
  case then(MemoryEvent)
}
