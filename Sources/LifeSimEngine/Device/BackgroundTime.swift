/// A process's time in the background (reference §0 "Suspension", §2.8,
/// §3.4, §3.6): the open background tasks and their budget, a background
/// launch's window, audio that holds the process, and the rules (`reduce`)
/// that end each in a suspension or a kill.
///
///     var b = BackgroundTime(epoch: 0, deadline: nil, launchEnd: nil, playingAudio: false)
///     b.reduce(.budget(.seconds(30)), facts: facts)  // now 0, lead 5 s
///     // [.schedule(.taskExpiration, at: 25 s), .schedule(.taskDeadline, at: 30 s)]
public struct BackgroundTime: Equatable, Sendable {
  /// Bumped when a stretch in the background starts or ends: a process
  /// deadline of an older epoch is void.
  public var epoch: UInt32
  /// The background-task limit of this stretch; nil in the foreground, while
  /// audio holds the process, or before the budget starts.
  public var deadline: SimTime?
  /// The end of a background launch's window, while one is open.
  public var launchEnd: SimTime?
  /// The app is playing audio.
  public var playingAudio: Bool
  /// The user force-quit the app and has not opened it since: no background
  /// launch (§2.6).
  public var launchBlocked: Bool
  /// The app has a card in the switcher: the user opened it, and has not
  /// swiped it away since (§2.6). A launch the user did not see (a prewarm,
  /// an App Intent run in the background, a background launch) makes none.
  public var inSwitcher = false
  /// A BGTaskScheduler task runs in the process (§3.5): it holds the
  /// process as an open background task does.
  public internal(set) var heldByScheduler = false
  /// The background tasks open in this process (§3.4), in the order they
  /// began: their ids rise, as the device numbers them.
  public internal(set) var tasks: [BackgroundTask]

  public init(epoch: UInt32, deadline: SimTime?, launchEnd: SimTime?, playingAudio: Bool, launchBlocked: Bool = false,
              tasks: [BackgroundTask] = [BackgroundTask]()) {
    self.tasks = tasks
    self.epoch = epoch
    self.deadline = deadline
    self.launchEnd = launchEnd
    self.playingAudio = playingAudio
    self.launchBlocked = launchBlocked
  }

  /// Audio keeps the process running: it plays, and the app has the `audio` mode.
  public func holdsAudio(_ facts: BackgroundFacts) -> Bool { holdsAudio(audioMode: facts.audioMode) }
  public func holdsAudio(audioMode: Bool) -> Bool { playingAudio && audioMode }

  /// Something keeps the process running in the background: an open task,
  /// audio, or a background launch's window (§0 "Suspension").
  public func isHeld(_ facts: BackgroundFacts) -> Bool { isHeld(audioMode: facts.audioMode) }
  public func isHeld(audioMode: Bool) -> Bool {
    !tasks.isEmpty || holdsAudio(audioMode: audioMode) || launchEnd != nil || heldByScheduler
  }

  /// The open task numbered `id`, if it is open.
  public func task(_ id: Int32) -> BackgroundTask? {
    tasks.first { $0.id == id }
  }

  /// `beginBackgroundTask(withName:expirationHandler:)` (§3.4): the task is
  /// open, and holds the process until it ends or its process dies. A rule
  /// with no effects and no facts, like `left()`: whether the process may
  /// begin one at all is the device's check of every action made from app
  /// code (it runs code).
  public mutating func begin(_ task: BackgroundTask) {
    tasks.append(task)
  }

  /// The process leaves the background: its background deadlines are void.
  /// A rule with no effects and no facts, so the device calls it directly
  /// on every return to the foreground.
  public mutating func left() {
    epoch &+= 1
    deadline = nil
    launchEnd = nil
  }

  /// The user opened the app: background launches may come again (§2.6).
  /// Like `left()`, a rule with no effects and no facts, which the device
  /// calls directly on every return to the foreground.
  public mutating func opened() {
    launchBlocked = false
    inSwitcher = true
  }

  /// A deadline scheduled for `pid` in `epoch` still applies to a process
  /// whose pid and state are now `processPid` and `state`. Most do not (the
  /// stretch ended before they came due), so the device asks this before it
  /// gathers the facts for `.due`.
  public func counts(pid: Int32, epoch: UInt32, _ processPid: Int32, _ state: AppState) -> Bool {
    processPid == pid && self.epoch == epoch && state == .background
  }

  // MARK: - Rules

  /// Applies one background event: §0, §2.8, §3.4, §3.6.
  /// - Parameters:
  ///   - event: what happened to the process, or a follow-up once the effects before ran.
  ///   - facts: the process and the policy as they are now.
  /// - Returns: what the device does, in order; a `.then` comes last.
  @inline(__always)
  public mutating func reduce(_ event: BackgroundEvent, facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    switch event {
    case .settle:
      guard facts.state == .background else { return Effects() }
      // §0, §3.7: an app that opts out of background execution ends here.
      if facts.exitsOnSuspend { return Effects(.terminateForExit) }
      // §3.6: without the audio key, audio stops on backgrounding.
      if !facts.audioMode { playingAudio = false }
      // §0 "Suspension": right after the snapshot, unless a task or a mode holds it.
      guard startStretch(facts) else { return Effects(.snapshot, .then(.idle)) }
      guard let budget = facts.budget else { return Effects(.snapshot, .askBudget, .then(.idle)) }
      // With the budget known, the step ends here: the snapshot and the
      // deadlines hold nothing, so `.idle` would read the same facts.
      let (expiration, limit) = start(budget, facts)
      let snapshot = BackgroundEffect.snapshot
      let expire = BackgroundEffect.schedule(.taskExpiration, at: expiration), kill = BackgroundEffect.schedule(.taskDeadline, at: limit)
      return isHeld(facts) ? Effects(snapshot, expire, kill) : Effects(snapshot, expire, kill, suspension(facts))

    case .rest:
      guard startStretch(facts) else { return Effects(.then(.idle)) }
      var effects = budgetOrAsk(facts)
      effects.append(.then(.idle))
      return effects

    case .budget(let budget):
      let (expiration, limit) = start(budget, facts)
      return Effects(.schedule(.taskExpiration, at: expiration), .schedule(.taskDeadline, at: limit))

    case .audio(let playing):
      guard playingAudio != playing else { return Effects() }
      playingAudio = playing
      guard facts.state == .background else { return Effects() }
      // §3.4: tasks do not expire under an audio assertion; when it ends, a
      // fresh budget starts.
      guard startStretch(facts) else { return Effects() }
      var effects = budgetOrAsk(facts)
      effects.append(.schedule(.idleCheck, at: facts.now))
      return effects

    case .launchWindowOpens:
      return launchWindowOpens(facts)

    case .launchWindowEnds:
      return launchWindowEnds(facts)

    case .taskEnded(let task):
      return end(task, facts)

    case .left:
      left()
      return Effects()

    case .processEnded:
      return ended()

    case .due(let what, let pid, let epoch):
      guard counts(pid: pid, epoch: epoch, facts.pid, facts.state) else { return Effects() }
      switch what {
      case .taskExpiration:
        // §3.4: "called shortly before the app's remaining background time
        // reaches 0": the tasks open now, not one begun by a handler.
        return expireNext(pid: pid, through: tasks.last?.id ?? .min, facts)
      case .taskDeadline:
        // §0: a task still open at the limit kills the process silently.
        return tasks.isEmpty ? Effects() : Effects(.kill(.backgroundTask, code: facts.taskKillCode))
      case .backgroundLaunchEnd:
        return launchWindowEnds(facts)
      case .idleCheck:
        return idle(facts)
      }

    case .expire(let pid, let through):
      return expireNext(pid: pid, through: through, facts)

    case .idle:
      return idle(facts)

    case .forceQuit:
      // §2.6: in all cases, until the user opens the app.
      launchBlocked = true
      inSwitcher = false
      return Effects()

    case .userOpened:
      opened()
      return Effects()

    case .launchRequested(let action, let callback):
      return launchRequested(action, callback, facts)

    case .launched(let callback, let woke):
      return launched(callback, woke: woke, facts)

    case .resumed(let callback, let woke):
      return resumed(callback, woke: woke, facts)

    case .launchDelivers(let callback):
      return launchDelivers(callback, facts)
    }
  }

  // The steps more than one event takes are functions rather than calls of
  // `reduce` on another event: a `reduce` that calls itself cannot be inlined
  // whole into the loop that applies its effects (see `Screen`).

  /// Suspend the process unless something holds it.
  private func idle(_ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    guard facts.state == .background, !isHeld(facts) else { return Effects() }
    return Effects(suspension(facts))
  }

  /// §3.5.1: a process suspended while it holds a lock on a shared file is
  /// killed instead, with 0xdead10cc and no callback.
  private func suspension(_ facts: BackgroundFacts) -> BackgroundEffect {
    facts.holdsFileLock ? .kill(.fileLock, code: Self.fileLockCode) : .suspend
  }

  /// The exception code of a kill for a file lock held at suspension (§3.5.1).
  public static let fileLockCode: UInt32 = 0xdead10cc

  /// §2.8: the window opens as the event is delivered, within the usual budget.
  private mutating func launchWindowOpens(_ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    var effects = deadline == nil && startStretch(facts) ? budgetOrAsk(facts) : Effects()
    let end = facts.now + facts.launchTime
    launchEnd = end
    effects.append(.schedule(.backgroundLaunchEnd, at: end))
    return effects
  }

  /// §2.8 steps 4–5: the snapshot, then suspension once the code returns.
  @inline(never)  // a rare step: see Device+Effects.swift
  private mutating func launchWindowEnds(_ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    guard launchEnd != nil, facts.state == .background else { return Effects() }
    launchEnd = nil
    return Effects(.snapshot, .schedule(.idleCheck, at: facts.now))
  }

  /// §2.6: after a force-quit, no background launch until the user opens the app.
  @inline(never)  // a rare step: see Device+Effects.swift
  private mutating func launchRequested(_ action: DeviceAction, _ callback: Callback,
                                        _ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    if launchBlocked { return Effects(.refuseLaunch(action)) }
    let woke = facts.state == .notRunning || facts.state == .suspended
    if facts.state == .notRunning { return Effects(.apply(.launchInBackground), .then(.launched(callback, woke: woke))) }
    return launched(callback, woke: woke, facts)
  }

  /// Launched if it did not run: resumed if it was suspended.
  @inline(never)  // a rare step: see Device+Effects.swift
  private mutating func launched(_ callback: Callback, woke: Bool, _ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    if facts.state == .suspended { return Effects(.apply(.resume), .then(.resumed(callback, woke: woke))) }
    return resumed(callback, woke: woke, facts)
  }

  /// §8.1's documented variant (Apple's article, step 2).
  @inline(never)  // a rare step: see Device+Effects.swift
  private mutating func resumed(_ callback: Callback, woke: Bool, _ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    if woke && facts.launchEntersBackground { return Effects(.announceBackground, .then(.launchDelivers(callback))) }
    return launchDelivers(callback, facts)
  }

  /// §2.8: the window opens as the event is delivered, so ctx:complete()
  /// inside it ends it.
  @inline(never)  // a rare step: see Device+Effects.swift
  private mutating func launchDelivers(_ callback: Callback, _ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    guard facts.state == .background else { return Effects(.deliver(callback)) }
    var effects = launchWindowOpens(facts)
    effects.append(.deliver(callback))
    return effects
  }

  /// `endBackgroundTask(_:)`: the task closes and its expiration handler is
  /// released; in the background, suspension follows unless something else
  /// holds the process (§0 "Suspension"). A task that is not open: nothing.
  @inline(never)  // a rare step: see Device+Effects.swift
  private mutating func end(_ task: Int32, _ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    guard let i = tasks.firstIndex(where: { $0.id == task }) else { return Effects() }
    let handler = tasks.remove(at: i).expiration
    var effects = Effects<BackgroundEffect>()
    if let handler { effects.append(.release(handler)) }
    if facts.state == .background { effects.append(.schedule(.idleCheck, at: facts.now)) }
    return effects
  }

  /// A death has a handler to release: only then does `.processEnded` have
  /// effects. Without one, the device calls `ended()` directly, as it calls
  /// `left()`, rather than run the rules' loop on every death.
  public var holdsHandlers: Bool { tasks.contains { $0.expiration != nil } }

  /// The process died: its tasks go with it, each handler released, never
  /// run (§3.4), a step per handler; then its audio stops and its deadlines
  /// are void. A force-quit's block on background launches stays (§2.6).
  /// - Returns: no effects unless `holdsHandlers`.
  @inline(never)  // a rare step: see Device+Effects.swift
  public mutating func ended() -> Effects<BackgroundEffect> {
    if let i = tasks.firstIndex(where: { $0.expiration != nil }), let handler = tasks[i].expiration {
      tasks.removeSubrange(...i)
      return Effects(.release(handler), .then(.processEnded))
    }
    tasks.removeAll()
    playingAudio = false
    heldByScheduler = false
    left()
    return Effects()
  }

  /// One step of expiration (§3.4): the next task open when it began (its id
  /// at most `through`) that has not expired is marked so, recorded, and its
  /// handler runs, each in its own step. A handler that got its process
  /// killed ends the round; once every task had its turn, the idle check.
  @inline(never)  // a rare step: see Device+Effects.swift
  private mutating func expireNext(pid: Int32, through: Int32, _ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    guard facts.pid == pid else { return Effects() }
    guard let i = tasks.firstIndex(where: { !$0.expired && $0.id <= through }) else {
      return facts.state == .background ? Effects(.schedule(.idleCheck, at: facts.now)) : Effects()
    }
    tasks[i].expired = true
    let task = tasks[i].id
    guard let handler = tasks[i].expiration else {
      return Effects(.recordExpiration(task: task), .then(.expire(pid: pid, through: through)))
    }
    return Effects(.recordExpiration(task: task), .runExpirationHandler(handler, task: task),
                   .then(.expire(pid: pid, through: through)))
  }

  /// A new stretch in the background: older deadlines are void, and unless
  /// audio holds the process the budget starts. True when the device must
  /// ask for the budget (`background_time`).
  private mutating func startStretch(_ facts: BackgroundFacts) -> Bool {
    epoch &+= 1
    deadline = nil
    return !holdsAudio(facts)
  }

  /// The budget of a new stretch: its deadlines when the budget is a fact,
  /// else `.askBudget`, whose answer comes back as `.budget`.
  private mutating func budgetOrAsk(_ facts: BackgroundFacts) -> Effects<BackgroundEffect> {
    guard let budget = facts.budget else { return Effects(.askBudget) }
    let (expiration, limit) = start(budget, facts)
    return Effects(.schedule(.taskExpiration, at: expiration), .schedule(.taskDeadline, at: limit))
  }

  /// The budget of this stretch starts now.
  /// - Returns: when the expiration handlers run and when the limit kills.
  private mutating func start(_ budget: SimTime, _ facts: BackgroundFacts) -> (expiration: SimTime, limit: SimTime) {
    let limit = facts.now + budget
    deadline = limit
    // §3.4: the expiration handlers run `expirationLead` before the limit.
    return (max(facts.now, limit - facts.expirationLead), limit)
  }
}

/// What the background rules read but do not own.
public struct BackgroundFacts: Equatable, Sendable {
  /// The current time.
  public var now: SimTime
  /// The process's state and pid.
  public var state: AppState
  public var pid: Int32
  /// The app has the `audio` background mode.
  public var audioMode: Bool
  /// The app exits instead of suspending (`UIApplicationExitsOnSuspend`).
  public var exitsOnSuspend: Bool
  /// How long before the limit the expiration handlers run.
  public var expirationLead: SimTime
  /// How long a background launch's window stays open.
  public var launchTime: SimTime
  /// The kill code of the background-task limit (the profile's).
  public var taskKillCode: UInt32
  /// A background launch that wakes the app also enters the background
  /// (`backgroundLaunchEntersBackground`, §8.1).
  public var launchEntersBackground: Bool
  /// The process holds a lock on a shared file (`ctx:lock_file`, §3.5.1).
  public var holdsFileLock = false
  /// The background time of a new stretch when it is known without asking
  /// (the policy's); nil when the host answers it (`background_time`), which
  /// the rules then ask for with `.askBudget`.
  public var budget: SimTime?

  public init(now: SimTime, state: AppState, pid: Int32, audioMode: Bool,
              exitsOnSuspend: Bool, expirationLead: SimTime, launchTime: SimTime, taskKillCode: UInt32,
              launchEntersBackground: Bool = false, budget: SimTime? = nil) {
    self.launchEntersBackground = launchEntersBackground
    self.budget = budget
    self.now = now
    self.state = state
    self.pid = pid
    self.audioMode = audioMode
    self.exitsOnSuspend = exitsOnSuspend
    self.expirationLead = expirationLead
    self.launchTime = launchTime
    self.taskKillCode = taskKillCode
  }
}

/// Something that happened to a process's time in the background (`BackgroundTime.reduce`).
public enum BackgroundEvent: Equatable, Sendable {
  /// The process reached the background from the foreground: exit, or the
  /// snapshot, the budget and suspension unless something holds it.
  case settle
  /// The process stays in the background with no snapshot (a prewarm): the
  /// budget, then suspension unless something holds it.
  case rest
  /// The answer to `.askBudget`: the background time of this stretch.
  case budget(SimTime)
  /// The app starts or stops playing audio.
  case audio(playing: Bool)
  /// A background launch's window opens (fetch, silent push, an intent).
  case launchWindowOpens
  /// A background launch's window ends (`ctx:complete()`).
  case launchWindowEnds
  /// `endBackgroundTask(_:)` of the task with this number.
  case taskEnded(Int32)
  /// The process left the background: its deadlines are void.
  case left
  /// The process died (a kill, an exit, a termination): its tasks, audio
  /// and deadlines go with it.
  case processEnded
  /// A process deadline scheduled for `pid` in `epoch` came due.
  case due(ProcessEvent, pid: Int32, epoch: UInt32)
  /// The next expiration handler of `pid`'s tasks numbered at most
  /// `through` (those open when the budget ran out), once the one before ran.
  case expire(pid: Int32, through: Int32)
  /// Suspend the process unless something holds it.
  case idle
  /// The user force-quit the app (or discarded its last scene).
  case forceQuit
  /// The user opened the app.
  case userOpened
  /// The system launches or wakes the app in the background to deliver
  /// `callback` (background fetch, a silent push) for `action` (§2.8).
  case launchRequested(DeviceAction, Callback)
  /// Launched if it did not run; `woke`: it was not running or suspended.
  case launched(Callback, woke: Bool)
  /// Resumed if it was suspended.
  case resumed(Callback, woke: Bool)
  /// Awake: the window, then the callback.
  case launchDelivers(Callback)
}

/// What the background rules ask of the device.
public enum BackgroundEffect: Equatable, Sendable {
  /// Ask the background time (the policy's, or the host's `background_time`)
  /// and run `.budget` with the answer.
  case askBudget
  /// Schedule a process deadline of the current pid and epoch.
  case schedule(ProcessEvent, at: SimTime)
  /// An `expire` record of the task, just marked expired.
  case recordExpiration(task: Int32)
  /// Run the task's expiration handler (the host's), in its own cascade.
  case runExpirationHandler(HostToken, task: Int32)
  /// Let go of an expiration handler that will not run (the host's).
  case release(HostToken)
  /// A `snapshot` record.
  case snapshot
  /// Suspend the process.
  case suspend
  /// Kill the process silently (`systemKill`).
  case kill(KillReason, code: UInt32)
  /// The visible view controller disappears and the process terminates (§0, §3.7).
  case terminateForExit
  /// A process event (`.launchInBackground`, `.resume`).
  case apply(AppEvent)
  /// The app hears that it entered the background, by its model.
  case announceBackground
  /// The app gets the callback.
  case deliver(Callback)
  /// A `log` record: the action is not delivered after a force-quit.
  case refuseLaunch(DeviceAction)
  /// Ask the part again with this event once the effects before it ran.
  case then(BackgroundEvent)
}
