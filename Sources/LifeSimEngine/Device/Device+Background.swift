// Life after the screen (reference §0, §2.8, §3): background tasks and their
// budget, audio, background launches, watchdogs, protected data, and the
// silent kills that end it all.

extension Device {
  // MARK: - Background tasks (§3.4)

  /// `beginBackgroundTask(withName:expirationHandler:)`: keeps the process
  /// running in the background until the task ends or the budget runs out.
  /// - Returns: the task's id, unique on the device.
  public func beginBackgroundTask(app id: AppID, name: String, expiration: HostToken?) throws -> Int32 {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.beginBackgroundTask, app: self[id].config.bundle, state: self[id].state)
    }
    let task = nextTaskID
    nextTaskID += 1
    self[id].background.begin(BackgroundTask(id: task, name: name, expiration: expiration, began: now))
    return task
  }

  /// `endBackgroundTask(_:)`. With no task left and nothing else holding it, a
  /// process in the background is suspended once the running code returns
  /// (`BackgroundTime.reduce`).
  /// - Returns: false when the task had already ended (or died with its process).
  @discardableResult
  public func endBackgroundTask(app id: AppID, task: Int32) -> Bool {
    guard isTaskOpen(app: id, task: task) else { return false }
    releasing { try run(.taskEnded(task), for: id) }  // releases and schedules only
    return true
  }

  /// Whether a task is still open.
  public func isTaskOpen(app id: AppID, task: Int32) -> Bool {
    self[id].background.task(task) != nil
  }

  /// `UIApplication.backgroundTimeRemaining` (§3.4): `DBL_MAX` in the
  /// foreground, infinite while audio holds the process, else the time left
  /// to the background-task limit; 0 for a process that does not run.
  public func backgroundTimeRemaining(_ id: AppID) -> Double {
    let app = self[id]
    switch app.state {
    case .active, .inactive: return .greatestFiniteMagnitude
    case .notRunning, .suspended: return 0
    case .background:
      if holdsAudio(id) { return .infinity }
      // Inside …DidEnterBackground: the budget has not started to run yet.
      guard let deadline = app.backgroundDeadline else { return policy.backgroundTime.seconds }
      return max(0, (deadline - now).seconds)
    }
  }

  // MARK: - Audio (§3.6)

  /// Starts or stops playback. With the `audio` mode, playing keeps the process
  /// running in the background and its tasks do not expire; when it stops, a
  /// fresh budget starts.
  public func setPlayingAudio(_ id: AppID, _ playing: Bool) throws {
    guard self[id].state.isExecuting else {
      throw SimulationError.notExecuting(.playAudio, app: self[id].config.bundle, state: self[id].state)
    }
    try run(.audio(playing: playing), for: id)
  }

  /// What the background rules read of the process and the policy now.
  func backgroundFacts(_ id: AppID) -> BackgroundFacts {
    // Field by field: a copy of the whole app would retain its arrays and strings.
    // The profile's and the quirks' parts are the device's for life (`fixedFacts`).
    var facts = fixedFacts.background
    facts.now = now
    facts.state = self[id].state
    facts.pid = self[id].pid
    facts.audioMode = self[id].audioMode
    facts.holdsFileLock = !self[id].fileLocks.isEmpty
    facts.exitsOnSuspend = self[id].config.exitsOnSuspend && facts.exitsOnSuspend
    facts.expirationLead = policy.expirationLead
    facts.launchTime = policy.backgroundLaunchTime
    facts.budget = policy.backgroundTimeFromHost && host != nil ? nil : policy.backgroundTime
    return facts
  }

  func holdsAudio(_ id: AppID) -> Bool { self[id].background.holdsAudio(audioMode: self[id].audioMode) }

  /// Something keeps the process running in the background: an open task, audio,
  /// or a background launch window (§0 "Suspension").
  func isHeld(_ id: AppID) -> Bool {
    self[id].background.isHeld(audioMode: self[id].audioMode)
  }

  /// The background time of a new stretch: the policy's, or the host's answer
  /// to `background_time`.
  @inline(never)  // a rare step: see Device+Effects.swift
  func backgroundBudget(_ id: AppID) throws -> SimTime {
    guard policy.backgroundTimeFromHost, let host else { return policy.backgroundTime }
    let t = try asking(.backgroundTime) { try host.backgroundTime(for: id, on: self) }
    guard t >= .zero else {
      throw SimulationError.policyFailed(policy: "background_time", message: "returned a negative time (\(t) s) for \(self[id].config.bundle)")
    }
    return t
  }

  /// The process leaves the background: its background deadlines are void.
  func leftBackground(_ id: AppID) {
    self[id].background.left()
  }

  /// Quirk `background_launch_enters_background` (§8.1): a background launch
  /// or wake tells the app it is in the background before the event, the
  /// app delegate's method or, in the scene model, only its notification.
  @inline(never)  // a rare step: see Device+Effects.swift
  func announceBackground(_ id: AppID) throws {
    if self[id].model == .appDelegate {
      try deliver(.didEnterBackground, to: id)
    } else {
      try post(.didEnterBackground, to: id)
    }
  }

  /// The `expire` record of a task the background rules just marked expired
  /// (§3.4), with the limit of the stretch.
  @inline(never)  // a rare step: see Device+Effects.swift
  func recordExpiration(_ id: AppID, task: Int32) {
    guard let name = self[id].background.task(task)?.name else { return }
    let deadline = self[id].backgroundDeadline
    trace.append({ $0.app = id; $0.detail = name; $0.task = task; $0.deadline = deadline },
                 kind: .expire, at: now)
  }

  /// A task's expiration handler, in its own cascade: a handler that gets
  /// the process killed ends there.
  @inline(never)  // a rare step: see Device+Effects.swift
  func runExpirationHandler(_ id: AppID, _ token: HostToken, task: Int32) throws {
    guard let host else { return }
    try cascade(for: id) {
      let saved = busy
      busy = .expiration(id)
      defer { busy = saved }
      try host.expire(token, task: task, app: id, on: self)
    }
  }

  /// `UIApplication.backgroundRefreshStatus` (§3.5): Background App Refresh
  /// is on for the app, on the device and out of Low Power Mode.
  public func backgroundRefreshAvailable(_ id: AppID) -> Bool {
    taskConditions.backgroundRefresh && !taskConditions.lowPowerMode && !self[id].backgroundRefreshOff
  }

  /// Why Background App Refresh is off for the app, for an error.
  func backgroundRefreshOffReason(_ id: AppID) -> BGTaskRefusal.RefreshOff {
    taskConditions.lowPowerMode ? .lowPowerMode : !taskConditions.backgroundRefresh ? .device : .app
  }

  // MARK: - Background launches (§2.8)

  /// `dev:background_fetch(app)`: the system launches or wakes the app in the
  /// background and calls `application:performFetchWithCompletionHandler:`.
  public func backgroundFetch(_ id: AppID) throws {
    // §3.5: `BGTaskSchedulerPermittedIdentifiers` turns background fetch off.
    if profile.hasTaskScheduler && !self[id].config.backgroundTasks.isEmpty {
      try begin(.backgroundFetch, app: id) {
        throw SimulationError.backgroundTaskRefused(.action(.backgroundFetch), app: self[id].config.bundle, .fetchTurnedOff)
      }
    }
    // §3.5: Background App Refresh off, the system fetches for no app.
    if !backgroundRefreshAvailable(id) {
      try begin(.backgroundFetch, app: id) {
        throw SimulationError.backgroundTaskRefused(.action(.backgroundFetch), app: self[id].config.bundle,
                                                    .refreshOff(backgroundRefreshOffReason(id)))
      }
    }
    try backgroundEvent(id, .performFetch, mode: "fetch", action: .backgroundFetch)
  }

  /// `dev:silent_push(app)`: a silent push launches or wakes the app and calls
  /// `application:didReceiveRemoteNotification:fetchCompletionHandler:`.
  public func silentPush(_ id: AppID) throws {
    try backgroundEvent(id, .didReceiveRemoteNotification, mode: "remote-notification",
                        action: .silentPush)
  }

  private func backgroundEvent(_ id: AppID, _ callback: Callback, mode: String,
                               action: DeviceAction) throws {
    try begin(action, app: id) {
      guard self[id].hasMode(mode) else {
        throw SimulationError.missingBackgroundMode(.action(action), app: self[id].config.bundle, mode: mode)
      }
    }
    try cascade(for: id) { try run(.launchRequested(action, callback), for: id) }
    try settle()
  }

  /// Ends a background launch's window (`ctx:complete()`, or its time is up).
  public func finishBackgroundLaunch(_ id: AppID) throws {
    try run(.launchWindowEnds, for: id)
  }

  // MARK: - Killing

  /// Ends a process with no callback (jetsam, a watchdog, the task limit): a
  /// kill record, then the silent kill edge. When the process's own code is
  /// running, the cascade that runs it unwinds with `processKilled`.
  @inline(never)  // a rare step: see Device+Effects.swift
  func systemKill(_ id: AppID, reason: KillReason, code: UInt32? = nil, detail: String? = nil) throws {
    guard self[id].state.isRunning else { return }
    recordKill(id, reason: reason, code: code, detail: detail)
    try apply(.kill, to: id)
    if runningApp == id {
      killedWhileRunning = id
      throw SimulationError.processKilled(id)
    }
  }

  // MARK: - Protected data (§0)

  /// The delayed lock event of `epoch` came due.
  @inline(never)  // a rare step: see Device+Effects.swift
  func protectedDataLocks(epoch: UInt32) throws {
    guard protectedData.lockEventFired(epoch: epoch, deviceLocked: isLocked) else { return }
    for app in processes.executing() {
      if !workFrames.isEmpty, isMainThreadBusy(app) { wait(app, .deliver(.protectedDataWillBecomeUnavailable)); continue }
      try cascade(for: app) { try deliver(.protectedDataWillBecomeUnavailable, to: app) }
    }
  }

  @inline(never)  // a rare step: see Device+Effects.swift
  func protectedDataUnlocks() throws {
    guard protectedData.deviceUnlocked() else { return }
    for app in processes.executing() {
      if !workFrames.isEmpty, isMainThreadBusy(app) { wait(app, .deliver(.protectedDataDidBecomeAvailable)); continue }
      try cascade(for: app) { try deliver(.protectedDataDidBecomeAvailable, to: app) }
    }
  }
}

extension Device {
  /// Runs a host policy with the device marked busy with it, so that the
  /// policy's code can read the device but not act on it: an action, a clock
  /// move or a kill in the middle of the cascade that asked would leave the
  /// cascade walking a device that changed under it.
  func asking<T>(_ kind: PolicyKind, _ body: () throws -> T) throws -> T {
    let saved = busy
    busy = .policy(kind)
    defer { busy = saved }
    return try body()
  }

  /// A kill record: why a process died, and the code where there is one.
  func recordKill(_ id: AppID, reason: KillReason, code: UInt32? = nil, detail: String? = nil) {
    // Killed otherwise (a watchdog in applicationWillTerminate:) before the
    // force-quit could: that is how it died.
    if pendingUserKill == id && reason != .user { pendingUserKill = nil }
    // §3.8: a process killed while a handler of it works says where it was
    // (a watchdog's record names the watchdog, which watches that handler).
    let detail = workFrames.isEmpty || detail != nil ? detail : duringWork(id)
    trace.append({ $0.app = id; $0.reason = reason; $0.code = code; $0.detail = detail }, kind: .kill, at: now)
    stats.killsByReason[Int(reason.rawValue)] += 1
    deathReason = reason
  }
}
