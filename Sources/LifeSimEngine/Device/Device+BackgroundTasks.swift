// BGTaskScheduler (reference §3.5): the app registers launch handlers and
// submits requests (`BGTaskBook` checks each as iOS does); the system runs a
// request when the scheduler lets it, launching the app in the background
// with no scene or waking it; the task holds the process until it completes,
// and one that does not complete by the end of its time is killed.

/// What the scheduler's conditions read (`dev:charging`, `dev:network`,
/// `dev:background_refresh`, `dev:low_power_mode`).
public struct TaskConditions: Equatable, Sendable {
  public var charging = false
  public var network = true
  /// Settings > General > Background App Refresh, for the whole device.
  public var backgroundRefresh = true
  /// Low Power Mode: it turns Background App Refresh off (§3.5).
  public var lowPowerMode = false
  /// `BGTaskScheduler.supportedResources` holds `.gpu` (§3.5): the model's
  /// fact, or the script's `background_gpu`.
  public var backgroundGPU = false
  /// Some app submitted a request: only then do locks and condition changes
  /// look for requests that may run now.
  var anySubmitted = false
}

/// A scheduler event of one task (`EventAction.bgTask`).
public enum BGTaskEvent: UInt8, Sendable {
  /// A pending request's earliest time: it runs if the conditions let it.
  case due
  /// A running task's time is up: its expiration handler runs.
  case budgetEnds
  /// The grace after expiration: a task still running gets its app killed.
  case graceEnds
  /// A continued task's progress is checked: one that reported none for
  /// `continuedStallLimit` has stalled, and expires.
  case stallCheck
}

extension Device {
  /// A refresh task's time (§3.5: "up to 30 seconds of background runtime").
  static let refreshBudget = SimTime.seconds(30)
  /// After the expiration handler, the time a task has to complete before
  /// the app is killed: lifesim's choice (no source gives it, §3.5), the
  /// same 5 s as `beginBackgroundTask`'s handlers get (§3.4).
  static let taskGrace = SimTime.seconds(5)
  /// The least time between two starts of one identifier by the scheduler:
  /// lifesim's choice (§3.5). Apple documents none, and without one a
  /// handler that resubmits with no earliest time would run again at the
  /// same instant forever.
  static let taskRerunFloor = SimTime.seconds(60)
  /// A continued task that reports no progress for this long "appear[s]
  /// stalled" and expires: lifesim's choice, Apple gives no interval (§3.5).
  static let continuedStallLimit = SimTime.seconds(60)

  // MARK: - What app code does

  /// `register(forTaskWithIdentifier:using:launchHandler:)`. Made by the
  /// script outside any handler while the app does not run, it stands for
  /// the registration the app's code makes at every launch; made by a
  /// launch method's handler, for this process only. Anywhere else it is late.
  /// - Throws: `backgroundTaskRefused` with the error iOS gives.
  public func registerTask(_ id: AppID, identifier: String) throws {
    try requireTaskScheduler(.registerTask, id)
    let everyLaunch = runningApp == nil && (busy == nil || busy == .script) && !self[id].state.isRunning
    let inLaunch: Bool
    switch busy {
    case .callback(let app, .willFinishLaunching)?, .callback(let app, .didFinishLaunching)?: inLaunch = app == id
    default: inLaunch = false
    }
    if let refusal = self[id].bgTasks.register(identifier, launching: everyLaunch || inLaunch, everyLaunch: everyLaunch,
                                               wildcards: profile.hasContinuedProcessing) {
      throw SimulationError.backgroundTaskRefused(.registerTask, app: self[id].config.bundle, refusal)
    }
  }

  /// `submit(_:)`, from the app's code: the request replaces a pending one
  /// of its identifier, and the scheduler decides when it runs.
  /// - Throws: `backgroundTaskRefused` with the error iOS gives.
  public func submitTask(_ id: AppID, _ request: BGTaskRequest) throws {
    try requireTaskScheduler(.submitTask, id)
    if request.kind == .continued {
      guard profile.hasContinuedProcessing else {
        throw SimulationError.backgroundTaskRefused(.submitTask, app: self[id].config.bundle, .noContinuedProcessing(ios: profile.version))
      }
      // From the foreground, as a result of a person's action: not from
      // the app's background work (a task's handlers).
      switch busy {
      case .taskLaunch?, .expiration?:
        throw SimulationError.backgroundTaskRefused(.submitTask, app: self[id].config.bundle, .continuedFromBackground)
      default:
        guard self[id].state == .active else {
          throw SimulationError.backgroundTaskRefused(.submitTask, app: self[id].config.bundle, .continuedFromBackground)
        }
      }
    }
    var request = request
    request.submitted = now
    // Numbered with the background tasks (§3.4): an `expire` record's task id names one task.
    request.number = nextTaskID
    let modes = self[id].config.backgroundModes
    if let refusal = self[id].bgTasks.check(request, modes: modes) ?? continuedRefusal(request, for: id) {
      throw SimulationError.backgroundTaskRefused(.submitTask, app: self[id].config.bundle, refusal)
    }
    // §3.5: with Background App Refresh off, submit fails with `unavailable`,
    // after the checks of the request itself (a wrong identifier is the
    // app's bug whatever the settings). A continued task is the person's own
    // action, not background refresh: lifesim's choice, no source says.
    if request.kind != .continued && !backgroundRefreshAvailable(id) {
      throw SimulationError.backgroundTaskRefused(.submitTask, app: self[id].config.bundle,
                                                  .unavailable(backgroundRefreshOffReason(id)))
    }
    // Asked before anything changes: a policy that fails leaves the earlier request as it was.
    let runsAt = request.kind == .continued ? now : try scheduledTime(of: request, for: id)
    request.runsAt = runsAt
    _ = self[id].bgTasks.submit(request, modes: modes)
    nextTaskID += 1
    taskConditions.anySubmitted = true
    stats.tasksSubmitted += 1
    guard request.kind != .continued else {
      // It runs as soon as the handler that submitted it returns (§3.5), or
      // waits at the back of the queue while the system runs its most.
      let queued = !continuedRoom(before: request.number)
      trace.append({
        $0.app = id
        $0.detail = "BGTaskScheduler: submitted \(request.kind.requestClassName) \(request.identifier), title \"\(request.title)\""
          + (request.requiresGPU ? ", requires the GPU" : "")
          + (queued ? "; queued: the system runs at most \(policy.continuedTaskLimit ?? 0) continued task\(policy.continuedTaskLimit == 1 ? "" : "s") at once" : "")
      }, kind: .log, at: now)
      kernel.schedule(.bgTask(id, number: request.number, .due), at: now)
      return
    }
    trace.append({
      $0.app = id
      $0.detail = "BGTaskScheduler: submitted \(request.kind.requestClassName) \(request.identifier), earliest t=\(request.earliest.shortDescription)"
        + (runsAt == max(request.earliest, now) ? "" : runsAt.map { "; the scheduler lets it run at t=\($0.shortDescription)" } ?? "; the scheduler will not run it")
    }, kind: .log, at: now)
    if let runsAt { kernel.schedule(.bgTask(id, number: request.number, .due), at: runsAt) }
  }

  /// What a continued request asks that iOS refuses beyond the checks of
  /// every request (§3.5): the GPU without the entitlement or on a device
  /// without background GPU, and no room now with the `.fail` strategy.
  private func continuedRefusal(_ request: BGTaskRequest, for id: AppID) -> BGTaskRefusal? {
    guard request.kind == .continued else { return nil }
    if request.requiresGPU {
      guard self[id].config.backgroundGPU else { return .gpuNotEntitled }
      guard taskConditions.backgroundGPU else { return .gpuUnsupported }
    }
    if request.strategy == .fail, let limit = policy.continuedTaskLimit,
       !continuedRoom(before: request.number, replacing: (id, request.identifier)) {
      return .immediateRunIneligible(limit: limit)
    }
    return nil
  }

  /// Whether a continued task may start now, ahead of every request
  /// numbered `number` or later: fewer than the limit run, and no earlier
  /// request waits in the queue (§3.5: "the back of a queue"). `replacing`:
  /// the pending request a submit replaces does not count.
  func continuedRoom(before number: Int32, replacing: (AppID, String)? = nil) -> Bool {
    guard let limit = policy.continuedTaskLimit else { return true }
    var taken = 0
    for app in apps {
      for r in app.bgTasks.running where r.kind == .continued { taken += 1 }
      for r in app.bgTasks.pending where r.kind == .continued && r.number < number {
        if let (a, identifier) = replacing, a == app.id, r.identifier == identifier { continue }
        // One that waits is ahead of this one: no room for this one now.
        return false
      }
    }
    return taken < limit
  }

  /// A continued task ended: the queue's first requests may start now, in
  /// the order they were submitted.
  func startQueuedContinuedTasks() {
    guard taskConditions.anySubmitted else { return }
    var queued: [(app: AppID, number: Int32)] = []
    for app in apps { for r in app.bgTasks.pending where r.kind == .continued { queued.append((app.id, r.number)) } }
    for q in queued.sorted(by: { $0.number < $1.number }) { kernel.schedule(.bgTask(q.app, number: q.number, .due), at: now) }
  }

  /// When a request just submitted may run: at its earliest time by default
  /// (lifesim's choice, §3.5: the soonest the documented rules allow), or as
  /// the host's `task_scheduler` decides; never within `taskRerunFloor` of
  /// the last start of its identifier.
  private func scheduledTime(of request: BGTaskRequest, for id: AppID) throws -> SimTime? {
    var at = max(request.earliest, now)
    if policy.taskSchedulerFromHost, let host {
      guard let delay = try asking(.taskScheduler, { try host.taskDelay(request, app: id, on: self) }) else { return nil }
      guard delay >= .zero else {
        throw SimulationError.policyFailed(policy: "task_scheduler", message: "returned a negative delay (\(delay) s) for \(request.identifier)")
      }
      at = at + delay
    }
    // The floor holds whatever the scheduler chose, and adds nothing to a later time.
    if let last = self[id].bgTasks.lastStart(of: request.identifier) { at = max(at, last + Self.taskRerunFloor) }
    return at
  }

  /// `cancel(taskRequestWithIdentifier:)`; a running task goes on (§3.5).
  public func cancelTask(_ id: AppID, identifier: String) {
    guard self[id].bgTasks.cancel(identifier) else { return }
    trace.append({ $0.app = id; $0.detail = "BGTaskScheduler: cancelled \(identifier)" }, kind: .log, at: now)
  }

  /// `cancelAllTaskRequests()`.
  public func cancelAllTasks(_ id: AppID) {
    guard !self[id].bgTasks.pending.isEmpty else { return }
    self[id].bgTasks.cancelAll()
    trace.append({ $0.app = id; $0.detail = "BGTaskScheduler: cancelled every request" }, kind: .log, at: now)
  }

  /// `setTaskCompleted(success:)`: the task ends and stops holding the
  /// process, which is suspended once nothing else holds it.
  /// - Returns: false if the task was not running (completed twice, or its
  ///   process died).
  @discardableResult
  public func completeTask(_ id: AppID, number: Int32, success: Bool) -> Bool {
    guard endTask(id, number: number, success: success) else { return false }
    stats.tasksCompleted += 1
    return true
  }

  /// The task ends, by the app's call or the system's decision.
  @discardableResult
  func endTask(_ id: AppID, number: Int32, success: Bool) -> Bool {
    guard let run = self[id].bgTasks.complete(number: number) else { return false }
    self[id].background.heldByScheduler = !self[id].bgTasks.running.isEmpty
    if run.kind == .continued { startQueuedContinuedTasks() }
    host?.taskEnded(run, app: id, on: self)
    trace.append({
      $0.app = id
      $0.detail = "\(run.kind.className) \(run.identifier): setTaskCompleted(success: \(success))"
    }, kind: .log, at: now)
    if self[id].state == .background { kernel.schedule(.process(id, pid: self[id].pid, epoch: self[id].epoch, .idleCheck), at: now) }
    return true
  }

  private func requireTaskScheduler(_ operation: Operation, _ id: AppID) throws {
    guard profile.hasTaskScheduler else {
      throw SimulationError.backgroundTaskRefused(operation, app: self[id].config.bundle, .noScheduler(ios: profile.version))
    }
  }

  // MARK: - Actions

  /// `dev:run_task(app, id)`: what the debugger's
  /// `_simulateLaunchForTaskWithIdentifier:` does: a pending request runs now,
  /// whatever the conditions and the scheduler (§3.5).
  /// - Parameter identifier: nil for the app's first pending request (a search's step).
  public func runTask(_ id: AppID, identifier: String?) throws {
    var number: Int32 = 0
    try begin(.runTask, app: id, detail: identifier) {
      try requireTaskScheduler(.action(.runTask), id)
      // A continued request waits for room, not for the scheduler: the
      // debugger's launch is not for it (a search's step skips it).
      guard let r = self[id].bgTasks.pending.first(where: { identifier == nil ? $0.kind != .continued : $0.identifier == identifier })
      else {
        throw SimulationError.backgroundTaskRefused(.action(.runTask), app: self[id].config.bundle, .notPending(identifier))
      }
      guard r.kind != .continued else {
        throw SimulationError.backgroundTaskRefused(.action(.runTask), app: self[id].config.bundle, .continuedQueued(r.identifier))
      }
      number = r.number
    }
    try startTask(id, number: number, byScheduler: false)
    try settle()
  }

  /// `dev:expire_task(app, id)`: `_simulateExpirationForTaskWithIdentifier:`:
  /// the running task's expiration handler runs now, and the grace begins.
  /// - Parameter identifier: nil for the app's first running task (a search's step).
  public func expireTask(_ id: AppID, identifier: String?) throws {
    var number: Int32 = 0
    try begin(.expireTask, app: id, detail: identifier) {
      try requireTaskScheduler(.action(.expireTask), id)
      guard let r = self[id].bgTasks.running.first(where: { (identifier == nil || $0.identifier == identifier) && !$0.expired }) else {
        throw SimulationError.backgroundTaskRefused(.action(.expireTask), app: self[id].config.bundle, .notRunning(identifier))
      }
      number = r.number
    }
    try expire(id, number: number)
    try settle()
  }

  /// `task:progress(fraction)`: a continued task reports its progress
  /// (`NSProgress`), which keeps it from being expired as stalled.
  public func reportTaskProgress(_ id: AppID, number: Int32, fraction: Double) throws {
    guard let run = self[id].bgTasks.running(number: number) else { return }
    guard run.kind == .continued else {
      throw SimulationError.backgroundTaskRefused(.taskProgress, app: self[id].config.bundle, .noProgress(run.kind))
    }
    self[id].bgTasks.progress(number: number, min(1, max(0, fraction)), at: now)
  }

  /// `dev:cancel_task(app, id)`: the user cancels a continued task in its
  /// Live Activity; its expiration handler runs (§3.5).
  /// - Parameter identifier: nil for the app's first running continued task (a search's step).
  public func cancelContinuedTask(_ id: AppID, identifier: String?) throws {
    var number: Int32?
    try begin(.cancelTask, app: id, detail: identifier) {
      guard profile.hasContinuedProcessing else {
        throw SimulationError.backgroundTaskRefused(.action(.cancelTask), app: self[id].config.bundle, .noContinuedProcessing(ios: profile.version))
      }
      let matching = { (r: BGTaskRun) in (identifier == nil ? r.kind == .continued : r.identifier == identifier) && !r.expired }
      guard let r = self[id].bgTasks.running.first(where: matching) else {
        // One waiting in the queue shows its title in the Live Activity
        // too: the user's cancel drops the request (§3.5).
        if let identifier, let q = self[id].bgTasks.pending.first(where: { $0.kind == .continued && $0.identifier == identifier }) {
          self[id].bgTasks.cancel(q.identifier)
          trace.append({ $0.app = id; $0.detail = "BGTaskScheduler: the user cancelled \(q.identifier), waiting in the queue" },
                       kind: .log, at: now)
          return
        }
        throw SimulationError.backgroundTaskRefused(.action(.cancelTask), app: self[id].config.bundle, .notRunning(identifier))
      }
      guard r.kind == .continued else {
        throw SimulationError.backgroundTaskRefused(.action(.cancelTask), app: self[id].config.bundle, .notContinued(r.identifier))
      }
      number = r.number
    }
    if let number { try expire(id, number: number) }
    try settle()
  }

  /// `dev:charging(on)`: the device is on external power or not.
  public func setCharging(_ on: Bool) throws {
    try begin(.charging, detail: on ? "on" : "off") {}
    taskConditions.charging = on
    scheduleTasksThatMayRun()
    try settle()
  }

  /// `dev:background_refresh(on)` and `dev:background_refresh(app, on)`: the
  /// Background App Refresh switch, for the device or for one app (§3.5).
  /// While it is off, pending refresh and processing requests wait, and
  /// background fetch does not happen; turned on, the requests past their
  /// time may run.
  public func setBackgroundRefresh(_ app: AppID?, _ on: Bool) throws {
    try begin(.backgroundRefresh, app: app, detail: on ? "on" : "off") {}
    if let app { self[app].backgroundRefreshOff = !on } else { taskConditions.backgroundRefresh = on }
    if on { scheduleTasksThatMayRun() }
    try settle()
  }

  /// `dev:low_power_mode(on)`: Low Power Mode, which turns Background App
  /// Refresh off while it lasts (§3.5).
  public func setLowPowerMode(_ on: Bool) throws {
    try begin(.lowPowerMode, detail: on ? "on" : "off") {}
    taskConditions.lowPowerMode = on
    if !on { scheduleTasksThatMayRun() }
    try settle()
  }

  /// `dev:network(on)`: the device has a network connection or not.
  public func setNetwork(_ on: Bool) throws {
    try begin(.network, detail: on ? "on" : "off") {}
    taskConditions.network = on
    scheduleTasksThatMayRun()
    try settle()
  }

  // MARK: - The scheduler

  /// Whether the default scheduler lets a request run now (§3.5): a refresh
  /// request unless the user force-quit the app since last opening it; a
  /// processing request while the device is idle (locked) and, where the
  /// request asks, charging and on a network.
  func taskMayRun(_ id: AppID, _ r: BGTaskRequest) -> Bool {
    switch r.kind {
    case .continued: return continuedRoom(before: r.number)
    case .refresh: return !self[id].backgroundLaunchBlocked && backgroundRefreshAvailable(id)
    case .processing:
      return isLocked && (!r.requiresPower || taskConditions.charging) && (!r.requiresNetwork || taskConditions.network)
        && backgroundRefreshAvailable(id)
    }
  }

  /// After a change the conditions read (a lock, power, network, the user
  /// opening an app): requests past their earliest time that may run now
  /// are due now.
  func scheduleTasksThatMayRun() {
    guard taskConditions.anySubmitted else { return }
    for app in apps where !app.bgTasks.pending.isEmpty {
      for r in app.bgTasks.pending where r.runsAt.map({ $0 <= now }) ?? false && taskMayRun(app.id, r) {
        kernel.schedule(.bgTask(app.id, number: r.number, .due), at: now)
      }
    }
  }

  /// The user starts using the device: processing tasks expire (§3.5: "The
  /// system terminates any background processing tasks running when the
  /// user starts using the device").
  func expireProcessingTasks() throws {
    guard taskConditions.anySubmitted else { return }
    for app in apps {
      for run in app.bgTasks.running where run.kind == .processing && !run.expired {
        try expire(app.id, number: run.number)
      }
    }
  }

  /// A scheduler event came due.
  func taskEvent(_ id: AppID, number: Int32, _ what: BGTaskEvent) throws {
    switch what {
    case .due:
      guard let r = self[id].bgTasks.pending(number: number), taskMayRun(id, r) else { return }
      try startTask(id, number: number)
    case .budgetEnds:
      guard let run = self[id].bgTasks.running(number: number), !run.expired else { return }
      try expire(id, number: number)
    case .stallCheck:
      guard let run = self[id].bgTasks.running(number: number), !run.expired else { return }
      let stalls = run.progressed + Self.continuedStallLimit
      guard now >= stalls else {
        kernel.schedule(.bgTask(id, number: number, .stallCheck), at: stalls)
        return
      }
      try expire(id, number: number)
    case .graceEnds:
      guard let run = self[id].bgTasks.running(number: number) else { return }
      guard self[id].state == .background else {
        // The user brought the app back meanwhile: nothing kills an app on
        // screen for its background time; the task ends unsuccessful.
        endTask(id, number: number, success: false)
        return
      }
      try systemKill(id, reason: .backgroundTask,
                     detail: "\(run.kind.className) \(run.identifier) did not call setTaskCompleted(success:) before its time ran out")
    }
  }

  /// The system launches the app in the background (no scene connects) or
  /// wakes it, and calls the task's launch handler; a refresh task's time
  /// starts (§3.5).
  func startTask(_ id: AppID, number: Int32, byScheduler: Bool = true) throws {
    guard let run = self[id].bgTasks.start(number: number, at: now, byScheduler: byScheduler) else { return }
    self[id].background.heldByScheduler = true
    stats.tasksRun += 1
    stats.taskDelay = stats.taskDelay + max(.zero, now - run.request.earliest)
    trace.append({
      $0.app = id
      $0.detail = "BGTaskScheduler: runs \(run.kind.className) \(run.identifier), submitted at t=\(run.request.submitted.shortDescription)"
    }, kind: .log, at: now)
    // The time counts from the launch, handler included (§3.8: the
    // expiration waits for a handler that is still working).
    switch run.kind {
    case .refresh: kernel.schedule(.bgTask(id, number: number, .budgetEnds), at: now + Self.refreshBudget)
    case .continued: kernel.schedule(.bgTask(id, number: number, .stallCheck), at: now + Self.continuedStallLimit)
    case .processing: break
    }
    let wasBackground = self[id].state == .background
    try cascade(for: id) {
      let woke = self[id].state == .notRunning || self[id].state == .suspended
      switch self[id].state {
      case .notRunning: try apply(.launchInBackground, to: id)
      case .suspended: try apply(.resume, to: id)
      default: break
      }
      // §8.1's documented variant, as for every background launch or wake.
      if woke && quirks.contains(.backgroundLaunchEntersBackground) { try announceBackground(id) }
      // A stretch of background time starts, as for any background launch
      // (§3.4): a task the handler begins expires within it.
      if self[id].state == .background && !wasBackground { try self.run(BackgroundEvent.rest, for: id) }
      guard self[id].bgTasks.running(number: number) != nil, let host else { return }
      guard self[id].bgTasks.isRegistered(run.identifier) else {
        // Registered by an earlier process only: this one has no handler.
        trace.append({
          $0.app = id
          $0.detail = "\(run.kind.className) \(run.identifier): this process registered no launch handler for it, so it does not run"
        }, kind: .warning, at: now)
        endTask(id, number: number, success: false)
        return
      }
      let saved = busy
      busy = .taskLaunch(id)
      defer { busy = saved }
      try host.launchTask(run, app: id, on: self)
    }
  }

  /// A task's time is up: an `expire` record, then its expiration handler;
  /// with none, the task is marked complete and unsuccessful (§3.5), and
  /// otherwise it has the grace to complete.
  func expire(_ id: AppID, number: Int32) throws {
    guard self[id].bgTasks.expire(number: number), let run = self[id].bgTasks.running(number: number) else { return }
    stats.tasksExpired += 1
    trace.append({ $0.app = id; $0.detail = "\(run.kind.className) \(run.identifier)"; $0.task = run.number }, kind: .expire, at: now)
    // Scheduled first: a handler that fails (and a script that catches the
    // error) still leaves the task its grace, not a process held for ever.
    kernel.schedule(.bgTask(id, number: number, .graceEnds), at: now + Self.taskGrace)
    var hadHandler = false
    try cascade(for: id) {
      guard let host else { return }
      let saved = busy
      busy = .expiration(id)
      defer { busy = saved }
      hadHandler = try host.expireTask(run, app: id, on: self)
    }
    if !hadHandler { endTask(id, number: number, success: false) }
  }

  /// The process died: its running tasks end with it, each said in the
  /// trace; its requests stay pending.
  func tasksEnded(_ id: AppID) {
    guard taskConditions.anySubmitted || !self[id].bgTasks.registeredInProcess.isEmpty else { return }
    let (ended, dropped) = self[id].bgTasks.processEnded()
    if ended.contains(where: { $0.kind == .continued }) { startQueuedContinuedTasks() }
    for run in ended {
      host?.taskEnded(run, app: id, on: self)
      trace.append({
        $0.app = id
        $0.detail = "\(run.kind.className) \(run.identifier) ended with its process, without setTaskCompleted(success:)"
      }, kind: .warning, at: now)
    }
    for r in dropped {
      trace.append({
        $0.app = id
        $0.detail = "BGTaskScheduler: \(r.kind.requestClassName) \(r.identifier) waited in the queue and goes with its process: it never runs"
      }, kind: .warning, at: now)
    }
  }
}
