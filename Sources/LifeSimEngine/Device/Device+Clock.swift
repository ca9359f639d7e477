// The clock: advancing, running, timers, and work inside handlers; and the
// checks an action passes before it runs (`begin`).
extension Device {
  /// Runs the simulation for `duration` of virtual time (`dev:advance`).
  public func advance(by duration: SimTime) throws {
    try checkClock(.advance)
    let target = try clockTime(after: duration, .advance)
    try runEvents(upTo: target)
    kernel.advance(to: target)
  }

  /// Runs until nothing is scheduled, or until the horizon (`dev:run`).
  /// - Throws: `SimulationError.horizonReached` if events remain past it.
  public func run() throws {
    try checkClock(.run)
    let start = now
    let limit = min(start + horizon, .clockEnd)
    try runEvents(upTo: limit)
    if let next = kernel.nextTime, next > limit {
      // Stopped by the clock's end, not by --max-time: say which.
      if limit < start + horizon { throw SimulationError.clockRange(.run, now: start, span: horizon) }
      throw SimulationError.horizonReached(limit)
    }
  }

  /// Schedules a script function at an absolute time (`dev:at`); a time in
  /// the past means now.
  public func schedule(_ token: HostToken, at time: SimTime) {
    kernel.schedule(.script(token), at: max(time, now))
  }

  /// Schedules a script function `delay` from now (`dev:after`).
  /// - Throws: `clockRange` when that is past the end of the clock.
  public func schedule(_ token: HostToken, after delay: SimTime) throws {
    kernel.schedule(.script(token), at: try clockTime(after: max(delay, .zero), .after))
  }

  /// The time `span` from now.
  /// - Throws: `clockRange` when it lies past `SimTime.clockEnd`: the clock
  ///   would stop moving there, and a timer set past it would fire at once.
  func clockTime(after span: SimTime, _ operation: Operation) throws -> SimTime {
    let (sum, overflow) = now.microseconds.addingReportingOverflow(span.microseconds)
    guard !overflow, sum <= SimTime.clockEnd.microseconds else {
      throw SimulationError.clockRange(operation, now: now, span: span)
    }
    return SimTime(microseconds: sum)
  }

  /// Schedules an app timer (`ctx:after`): it belongs to the app's current
  /// process, does not fire while the app is suspended, and dies with the process.
  /// - Throws: `invalidAction` when the app is not running.
  public func scheduleAppTimer(_ token: HostToken, app id: AppID, after delay: SimTime) throws {
    guard self[id].state.isRunning else {
      throw SimulationError.notExecuting(.appTimer, app: self[id].config.bundle, state: self[id].state)
    }
    kernel.schedule(.appTimer(id, pid: self[id].pid, token), at: try clockTime(after: max(delay, .zero), .appTimer))
  }

  /// Makes the running handler take `duration` of virtual time (`ctx:work`).
  public func work(_ duration: SimTime) throws {
    guard let app = runningApp else {
      throw SimulationError.outsideAppCode(.work)
    }
    let target = try clockTime(after: max(duration, .zero), .work)
    try checkWatchdog(working: app, until: target)
    kernel.advance(to: target)
  }

  /// Lets every event due now fire, unless a clock loop is already doing so.
  func settle() throws {
    guard !inClockLoop, busy == nil else { return }
    try flushLayout()
    try runEvents(upTo: now)
    checkInvariants()
  }

  private func checkClock(_ operation: Operation) throws {
    if let busy { throw SimulationError.reentrant(operation, inside: activity(busy)) }
    if inClockLoop { throw SimulationError.reentrant(operation, inside: .clock) }
  }

  private func runEvents(upTo limit: SimTime) throws {
    inClockLoop = true
    defer { inClockLoop = false }
    var instant = now, atInstant = 0
    while let event = kernel.popDue(upTo: limit) {
      if now == instant {
        atInstant += 1
        if atInstant > maxEventsPerInstant { throw SimulationError.stalled(at: now, events: maxEventsPerInstant) }
      } else {
        instant = now
        atInstant = 1
      }
      try process(event)
      try flushLayout()
      checkInvariants()
      try step()  // between two events, where stopping loses none
    }
  }

  private func process(_ event: ScheduledEvent) throws {
    switch event.action {
    case .script(let token):
      defer { host?.release(token, on: self) }
      busy = .script
      defer { busy = nil }
      try host?.fire(token, on: self, app: nil)
    case .appTimer(let id, let pid, let token):
      guard self[id].pid == pid else {
        host?.release(token, on: self)
        return
      }
      if self[id].state == .suspended {
        self[id].parkedTimers.append(event)  // reference §0 "Timers"
        return
      }
      defer { host?.release(token, on: self) }
      try cascade(for: id) {
        busy = .appTimer(id)
        defer { busy = nil }
        try host?.fire(token, on: self, app: id)
      }
    case .process(let id, let pid, let epoch, let what):
      guard self[id].background.counts(pid: pid, epoch: epoch, self[id].pid, self[id].state) else { return }
      try run(.due(what, pid: pid, epoch: epoch), for: id)
    case .device(.memoryCheck, _):
      try checkMemory()
    case .device(.protectedDataLock, let epoch):
      try protectedDataLocks(epoch: epoch)
    }
  }

  /// A process runs again: the timers that came due meanwhile fire at once, in
  /// their original order (reference §0 "Timers").
  func requeueParkedTimers(_ id: AppID) {
    let parked = self[id].parkedTimers
    guard !parked.isEmpty else { return }
    self[id].parkedTimers.removeAll()
    for event in parked { kernel.schedule(event.action, at: now) }
  }
}

// Checkpoints: where the engine's long loops let the host stop them.
extension Device {
  /// One step of a long loop (an event the clock ran, an action a workload
  /// made): a decrement and a compare, and a checkpoint every
  /// `checkpointStride` steps.
  @inline(__always)
  func step() throws {
    stepsToCheckpoint &-= 1
    if stepsToCheckpoint <= 0 { try reachCheckpoint() }
  }

  /// Checks the trace's budget and lets the host check its own, for the
  /// steps done since the last checkpoint (the count carries over from one
  /// loop to the next, so short loops add up).
  @inline(never)
  func reachCheckpoint() throws {
    let done = Device.checkpointStride - stepsToCheckpoint
    stepsToCheckpoint = Device.checkpointStride
    try checkTrace()
    if done > 0, let checkpoint { try checkpoint(done) }
  }

  /// - Throws: `traceFull` once the records kept hold more than the trace's
  ///   budget (the host calls it after recording a script's own text).
  @inline(__always)
  public func checkTrace() throws {
    if let budget = trace.budget, budget.isExceeded { try refuseTraceFull(limit: budget.limit) }
  }

  // The refusals and the record below are out of line: inlined into every
  // action, they would spread its few common instructions over twice as
  // many cache lines.

  @inline(never)
  private func refuseTraceFull(limit: Int) throws {
    throw SimulationError.traceFull(records: trace.records.count, limit: limit)
  }

  /// Records the action, after checking that it is not made from inside app
  /// code and that `checks` allow it: a refused action raises its error and
  /// leaves no `action` record.
  /// `operation` is the action's own unless a caller records another
  /// (`launch` with a URL records `open_url`).
  func begin(_ action: DeviceAction, as operation: Operation? = nil, app: AppID? = nil, detail: String? = nil,
             checks: () throws -> Void = {}) throws {
    if let busy, busy != .script { try refuseReentrant(operation ?? .action(action), inside: busy) }
    try checkTrace()
    try checks()
    if trace.isEnabled { recordAction(action, app: app, detail: detail) }
  }

  @inline(never)
  private func refuseReentrant(_ operation: Operation, inside busy: Busy) throws {
    throw SimulationError.reentrant(operation, inside: activity(busy))
  }

  @inline(never)
  private func recordAction(_ action: DeviceAction, app: AppID?, detail: String?) {
    trace.append({ $0.action = action; $0.app = app; $0.detail = detail }, kind: .action, at: now)
  }

  func requireUnlocked(_ operation: Operation) throws {
    if isLocked { try refuseLocked(operation) }
  }

  @inline(never)
  private func refuseLocked(_ operation: Operation) throws {
    throw SimulationError.locked(operation)
  }

  /// A readable name for what is running, for error messages.
  public func activity(_ busy: Busy) -> Activity {
    switch busy {
    case .callback(let id, let c): return .callback(app: self[id].config.bundle, selector: c.selector)
    case .notification(let id, let n): return .observer(app: self[id].config.bundle, notification: n.name)
    case .appTimer(let id): return .appTimer(app: self[id].config.bundle)
    case .expiration(let id): return .expiration(app: self[id].config.bundle)
    case .script: return .scheduled
    case .policy(let kind): return .policy(kind.rawValue)
    }
  }
}
