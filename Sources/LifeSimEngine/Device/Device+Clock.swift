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
  ///
  /// The device does not wait for the app (reference §3.8): while the
  /// handler works, the events due meanwhile run at their times, the script's
  /// and the system's and other apps'. What they ask of this app's main thread
  /// waits for it (`wait`); what the system does to its process happens then:
  /// a kill ends the work there, and the handler with it (`processKilled`).
  /// A watchdog armed for the app, or started by a request that waits, bites
  /// at its deadline (§3.1).
  public func work(_ duration: SimTime) throws {
    guard let app = runningApp, let running = busy else {
      throw SimulationError.outsideAppCode(.work)
    }
    let target = try clockTime(after: max(duration, .zero), .work)
    guard target > now else { return }
    let pid = self[app].pid
    // What watches this app now: its own callback's watchdog, fixed while its
    // code runs (another app's launch may replace the one slot meanwhile).
    let armed = watchdogs.armed.flatMap { $0.app == app ? $0 : nil }
    workFrames.append(WorkFrame(app: app, pid: pid, running: running, start: now, end: target, armed: armed))
    let wasInLoop = inClockLoop
    busy = nil
    defer {
      busy = running
      inClockLoop = wasInLoop
      workFrames.removeLast()
    }
    // Neither the user nor the screen waits for the work (§3.8).
    userDriver?.handlerWorks(until: target, on: self)
    if !screenChanges.isEmpty { try continueScreenChanges() }
    if isAlive(app, pid) { try runEvents(upTo: target) }
    if isAlive(app, pid), let bite = workFrames[workFrames.count - 1].bite(self), bite.deadline < target {
      // The watchdog bites before the work is done: the events up to its
      // deadline ran, and the process dies at it.
      kernel.advance(to: max(now, bite.deadline))
      watchdogs.processEnded(app)
      try systemKill(app, reason: .watchdog, code: profile.watchdogKillCode, detail: bite.kind.description)
    }
    if isAlive(app, pid) {
      if now > target { recordLateWork(app, target: target) }
      kernel.advance(to: max(now, target))
      return
    }
    busy = running
    killedWhileRunning = app
    throw SimulationError.processKilled(app)
  }

  /// Whether the process `pid` of `app` still runs.
  @inline(__always)
  func isAlive(_ app: AppID, _ pid: Int32) -> Bool {
    self[app].pid == pid && self[app].state.isRunning
  }

  /// Lets every event due now fire, unless a clock loop is already doing so.
  func settle() throws {
    guard !inClockLoop, busy == nil else { return }
    try flushLayout()
    if !waiting.isEmpty { try runWaiting() }
    try runEvents(upTo: now)
    checkInvariants()
  }

  func checkClock(_ operation: Operation) throws {
    if let busy { throw SimulationError.reentrant(operation, inside: activity(busy)) }
    if inClockLoop { throw SimulationError.reentrant(operation, inside: .clock) }
  }

  /// Runs the events due up to `limit`, in (time, sequence) order. Inside a
  /// handler's work (`work`) the loop stops early where the working process
  /// dies or a watchdog that watches it bites.
  private func runEvents(upTo limit: SimTime) throws {
    let wasInLoop = inClockLoop
    inClockLoop = true
    defer { inClockLoop = wasInLoop }
    var instant = now, atInstant = 0
    var limit = limit
    if !workFrames.isEmpty { limit = workLimit(limit) }
    while let event = kernel.popDue(upTo: limit) {
      if now == instant {
        atInstant += 1
        if atInstant > maxEventsPerInstant { throw SimulationError.stalled(at: now, events: maxEventsPerInstant) }
      } else {
        instant = now
        atInstant = 1
      }
      try process(event)
      if workFrames.isEmpty {
        try flushLayout()
        if !waiting.isEmpty { try runWaiting() }
        checkInvariants()
      } else {
        // A cascade below is half done: its invariants hold once it ends.
        try flushLayout()
        if !waiting.isEmpty { try runWaiting() }
        let f = workFrames[workFrames.count - 1]
        if !isAlive(f.app, f.pid) { return }
        limit = workLimit(limit)
      }
      try step()  // between two events, where stopping loses none
    }
  }

  /// The events a handler's work lets run: up to `limit`, and only those
  /// before a watchdog that watches the working app bites (it was armed
  /// before anything the handler scheduled, so it comes first at its time).
  private func workLimit(_ limit: SimTime) -> SimTime {
    guard let bite = workFrames[workFrames.count - 1].bite(self), bite.deadline <= limit else { return limit }
    return SimTime(microseconds: max(now.microseconds, bite.deadline.microseconds - 1))
  }

  func process(_ event: ScheduledEvent) throws {
    switch event.action {
    case .script(let token):
      defer { host?.release(token, on: self) }
      busy = .script
      let savedDue = scriptDue
      scriptDue = ActionDue(time: now, byUser: false)
      defer { busy = nil; scriptDue = savedDue }
      try host?.fire(token, on: self, app: nil)
    case .user(let act):
      // As a script's function: an act of the user, at its time (§3.8).
      busy = .script
      let savedDue = scriptDue
      scriptDue = ActionDue(time: userDriver?.due ?? now, byUser: true)
      defer { busy = nil; scriptDue = savedDue }
      try userActs(act)
    case .appTimer(let id, let pid, let token):
      guard self[id].pid == pid else {
        host?.release(token, on: self)
        return
      }
      if !workFrames.isEmpty, isMainThreadBusy(id) {
        wait(id, .event(event))  // reference §3.8: it runs on the main thread
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
      // §3.8: the task limit kills at its time; the expiration handlers, the
      // end of a launch window and suspension wait for the running code.
      if what != .taskDeadline, !workFrames.isEmpty, isMainThreadBusy(id) {
        wait(id, .event(event))
        return
      }
      try run(.due(what, pid: pid, epoch: epoch), for: id)
    case .bgTask(let id, let number, let what):
      // §3.8: the launch and expiration handlers run on the app's code's
      // thread; the kill at the end of the grace does not wait.
      if what != .graceEnds, !workFrames.isEmpty, isMainThreadBusy(id) {
        wait(id, .event(event))
        return
      }
      try taskEvent(id, number: number, what)
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

// The main thread (reference §3.8): a handler that works keeps its app's main
// thread busy while the device goes on; what the system tells the app waits
// for it, in order, and runs when the app's code has returned.
extension Device {
  /// A handler's work in progress (`ctx:work`, `ctx:save{ seconds }`).
  public struct WorkFrame: Sendable {
    public var app: AppID
    public var pid: Int32
    /// The handler that works.
    public var running: Busy
    public var start: SimTime
    public var end: SimTime
    /// The watchdog of the handler's own callback, if one watches it.
    var armed: Watchdog?

    /// The first watchdog to bite the working app: its callback's own, or
    /// one started by a request that waits for its main thread (§3.1, §3.8).
    func bite(_ device: Device) -> Watchdog? {
      var first = armed
      for w in device.waiting where w.app == app && w.pid == pid {
        guard let deadline = w.watchdog else { continue }
        if first == nil || deadline < first!.deadline {
          first = Watchdog(app: app, deadline: deadline, kind: .sceneUpdate)
        }
      }
      return first
    }
  }

  /// A screen change under way (`run(_: ScreenEvent)`): its steps, the next
  /// one to take, and the event that follows them. A handler that works in
  /// one of its steps lets the rest go on meanwhile (§3.8).
  ///
  /// Plain data, so that it is made and dropped as bytes: the URL, which few
  /// changes have, is kept beside it (`ScreenChanges.url(of:)`).
  public struct ScreenChangeInProgress: Sendable {
    var effects: Effects<ScreenEffect>
    var next = 0
    var follow: ScreenEvent?
    var scene: Int32?
    /// Where its URL is kept, or -1 when it has none.
    fileprivate var urlSlot: Int32 = -1

    init(effects: Effects<ScreenEffect>, scene: Int32?) {
      self.effects = effects
      self.scene = scene
    }

    /// What comes next: a step to take (marked taken), the event that
    /// follows the steps, or nothing.
    enum Next { case effect(ScreenEffect), follow(ScreenEvent), done }

    mutating func take() -> Next {
      if next < effects.count {
        next += 1
        return .effect(effects[next - 1])
      }
      guard let f = follow else { return .done }
      follow = nil
      return .follow(f)
    }

    /// The steps of the event that followed, from the first.
    mutating func restart(_ effects: Effects<ScreenEffect>) {
      self.effects = effects
      next = 0
    }
  }

  /// The screen changes under way, innermost last: empty between actions.
  /// Each change lives in the frame of the `run` that makes it, and is
  /// reached here by address, so that a handler's work can take the steps
  /// its callers have not taken yet (§3.8) while a change costs no copy.
  final class ScreenChanges {
    // Unchecked: only the device's own thread reaches them, and a checked
    // access costs more than the step it serves.
    @exclusivity(unchecked) private var frames: UnsafeMutablePointer<UnsafeMutablePointer<ScreenChangeInProgress>>
    @exclusivity(unchecked) private var capacity = 8
    @exclusivity(unchecked) private(set) var count = 0
    /// The URLs of the changes that have one, in the changes' order.
    @exclusivity(unchecked) private var urls: [String] = []

    init() { frames = .allocate(capacity: capacity) }

    deinit { frames.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// A change made by a frame that outlives its place here (`run` pops it
    /// before it returns).
    @inline(__always)
    func push(_ change: UnsafeMutablePointer<ScreenChangeInProgress>, url: String?) {
      if let url {
        change.pointee.urlSlot = Int32(urls.count)
        urls.append(url)
      }
      if count == capacity { grow() }
      frames[count] = change
      count += 1
    }

    private func grow() {
      let grown = UnsafeMutablePointer<UnsafeMutablePointer<ScreenChangeInProgress>>.allocate(capacity: capacity * 2)
      grown.moveInitialize(from: frames, count: count)
      frames.deallocate()
      frames = grown
      capacity *= 2
    }

    @inline(__always)
    func pop() {
      precondition(count > 0, "no screen change under way")
      count -= 1
      if frames[count].pointee.urlSlot >= 0 { urls.removeLast() }
    }

    /// The URL a change opens, if it has one.
    func url(of change: UnsafeMutablePointer<ScreenChangeInProgress>) -> String? {
      let slot = change.pointee.urlSlot
      return slot >= 0 ? urls[Int(slot)] : nil
    }

    subscript(i: Int) -> UnsafeMutablePointer<ScreenChangeInProgress> {
      precondition(i >= 0 && i < count, "no screen change \(i)")
      return frames[i]
    }
  }

  /// Something the system asked of an app whose main thread was busy.
  public struct Waiting: Sendable {
    public var app: AppID
    public var pid: Int32
    /// When the system asked.
    public var asked: SimTime
    /// When the scene-update watchdog of the request bites, if it has one:
    /// it counts from the time asked (§3.1, §3.8).
    var watchdog: SimTime?
    var step: Step

    enum Step: Sendable {
      /// An app timer or a process deadline, run as it would have run.
      case event(ScheduledEvent)
      case walk(Route, url: String?)
      case sendToBackground
      case reactivateOnLock
      case bringForward(url: String?, scene: Int32?)
      case deliver(Callback)
      case memoryWarning
    }
  }

  /// Whether a handler of the app's process is working now, so that its
  /// main thread cannot take anything else.
  func isMainThreadBusy(_ id: AppID) -> Bool {
    let pid = self[id].pid
    for f in workFrames where f.app == id && f.pid == pid { return true }
    return false
  }

  /// The work frame of the app's running process, if it is working.
  func workFrame(of id: AppID) -> WorkFrame? {
    let pid = self[id].pid
    return workFrames.last { $0.app == id && $0.pid == pid }
  }

  /// Holds a request for the app's main thread until its code returns.
  @inline(never)
  func wait(_ id: AppID, _ step: Waiting.Step) {
    var watchdog: SimTime?
    switch step {
    case .walk, .sendToBackground, .reactivateOnLock, .bringForward:
      // A scene update: its watchdog starts when the system asks (§3.1).
      if !watchdogs.debugger { watchdog = now + policy.watchdogSceneUpdate }
    case .event, .deliver, .memoryWarning:
      break
    }
    waiting.append(Waiting(app: id, pid: self[id].pid, asked: now, watchdog: watchdog, step: step))
  }

  /// Runs, in the order asked, what waited for main threads that are free now.
  @inline(never)
  func runWaiting() throws {
    var i = 0
    while i < waiting.count {
      let w = waiting[i]
      if isMainThreadBusy(w.app) && self[w.app].pid == w.pid {
        i += 1
        continue
      }
      waiting.remove(at: i)
      guard self[w.app].pid == w.pid, self[w.app].state.isRunning else {
        dropWaiting(w)
        continue
      }
      try runWaited(w)
      i = 0  // what it ran may have freed or filled other queues
    }
  }

  private func runWaited(_ w: Waiting) throws {
    let id = w.app
    switch w.step {
    case .deliver, .memoryWarning:
      // Suspended meanwhile: it hears nothing (§0, §2.9).
      guard self[id].state.isExecuting else { return }
    default: break
    }
    // The screen went on while the app was busy: it comes forward only
    // where it still may be active, and is left inactive where it is on
    // screen but covered (§3.8).
    var step = w.step
    switch step {
    case .bringForward, .walk(.toActive, _):
      if frontmost != id {
        warn("\(describe(step)), asked at t=\(w.asked.shortDescription), not done: another app came to the screen meanwhile", app: id)
        return
      }
      if !screen.isClear { step = .walk(.toInactive, url: nil) }
    default: break
    }
    if trace.isEnabled { recordWait(w) }
    let savedAsked = deliveryAskedAt
    deliveryAskedAt = w.watchdog == nil ? nil : w.asked
    defer { deliveryAskedAt = savedAsked }
    switch step {
    case .event(let event): try process(event)
    case .walk(let route, let url): try walk(route, id, url: url)
    case .sendToBackground: try sendToBackground(id)
    case .reactivateOnLock: try reactivateOnLock(id)
    case .bringForward(let url, let scene): try bringForward(id, url: url, scene: scene)
    case .deliver(let callback):
      try cascade(for: id) { try deliver(callback, to: id) }
    case .memoryWarning:
      stats.memoryWarnings += 1
      try cascade(for: id) {
        try deliver(.didReceiveMemoryWarning, to: id)
        try warnViewControllers(id)
      }
    }
  }

  /// A `wait` record: what waited for the app's main thread, and how long.
  @inline(never)
  private func recordWait(_ w: Waiting) {
    let what = describe(w.step)
    let waited = now - w.asked
    trace.append({ $0.app = w.app; $0.detail = "\(what), asked at t=\(w.asked.shortDescription), waited \(waited.shortDescription) s for the main thread" },
                 kind: .wait, at: now)
  }

  private func describe(_ step: Waiting.Step) -> String {
    let what: String
    switch step {
    case .event(let e):
      switch e.action {
      case .appTimer: what = "an app timer"
      case .bgTask: what = "a background task's launch or expiration"
      default: what = "a background deadline"
      }
    case .walk(.toActive, _): what = "becoming active"
    case .walk(.toInactive, _): what = "resigning active"
    case .walk(.toBackground, _): what = "leaving the screen"
    case .walk(.userTerminate, _): what = "termination"
    case .sendToBackground: what = "leaving the screen"
    case .reactivateOnLock: what = "reactivation on lock"
    case .bringForward: what = "coming forward"
    case .deliver(let c): what = c.selector
    case .memoryWarning: what = "a memory warning"
    }
    return what
  }

  /// A handler's work that ended late: another handler's work began inside
  /// it and ran past its end, and lifesim runs one handler's code at a time.
  @inline(never)
  private func recordLateWork(_ id: AppID, target: SimTime) {
    heldByWork += 1
    trace.append({
      $0.app = id
      $0.detail = "the work meant to end at t=\(target.shortDescription) ended \((now - target).shortDescription) s late: a handler that worked inside it ran until t=\(now.shortDescription), and one handler's code runs at a time here"
    }, kind: .wait, at: now)
  }

  /// Drops what waited for a process that is gone, releasing its timers.
  func dropWaiting(_ w: Waiting) {
    if case .event(let e) = w.step, case .appTimer(_, _, let token) = e.action { host?.release(token, on: self) }
  }

  /// The process ended: nothing waits for it any more.
  func dropWaiting(of id: AppID, pid: Int32) {
    guard !waiting.isEmpty else { return }
    var kept: [Waiting] = []
    for w in waiting {
      if w.app == id && w.pid == pid { dropWaiting(w) } else { kept.append(w) }
    }
    waiting = kept
  }

  /// What the system has decided for the app, which its code may not have
  /// heard yet: the state the last request that waits leads to, else the
  /// state the app has been told (`app.system_state`).
  public func systemState(_ id: AppID) -> AppState {
    var s = self[id].state
    guard s.isRunning else { return s }
    for w in waiting where w.app == id && w.pid == self[id].pid {
      switch w.step {
      case .walk(.toActive, _), .bringForward: s = .active
      case .walk(.toBackground, _), .sendToBackground: s = .background
      case .walk(.toInactive, _): s = .inactive
      default: break
      }
    }
    return s
  }

  /// The words a kill record adds when the process died in the middle of a
  /// handler's work: "during X, 4 s into 8 s of work".
  func duringWork(_ id: AppID) -> String? {
    guard !workFrames.isEmpty, let f = workFrame(of: id) else { return nil }
    let name: String
    switch f.running {
    case .callback(_, let c): name = c.selector
    case .notification(_, let n): name = n.name
    case .appTimer: name = "an app timer"
    case .taskLaunch: name = "a background task's launch handler"
    case .expiration: name = "an expiration handler"
    case .script, .policy: name = "app code"
    }
    let length = (f.end - f.start).shortDescription
    if now > f.end {
      // Another handler's work, begun inside this one, held it past its end.
      return "during \(name), whose \(length) s of work another handler held past its end at t=\(f.end.shortDescription)"
    }
    return "during \(name), \((now - f.start).shortDescription) s into \(length) s of work"
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
    if let due = scriptDue, now > due.time { recordLateAction(action, due: due) }
    try checkTrace()
    try checks()
    if trace.isEnabled { recordAction(action, app: app, detail: detail) }
  }

  /// When an action was due, and whose it is.
  struct ActionDue: Equatable {
    var time: SimTime
    /// A workload's simulated user's, not a `dev:at` function's.
    var byUser: Bool
  }

  /// A `wait` record: an action of a `dev:at` function, or of a workload's
  /// user, comes after its time, because an action before it ran a handler
  /// that worked (§3.8).
  @inline(never)
  private func recordLateAction(_ action: DeviceAction, due: ActionDue) {
    scriptDue?.time = now  // one record for each stretch
    heldByWork += 1
    let whose = due.byUser ? "the user's action due at" : "asked of a function due at"
    let why = due.byUser
      ? "its time was drawn when the act before it was done, after a handler's work had passed it"
      : "the actions before it ran a handler that worked, and an action returns when its handlers have"
    trace.append({
      $0.detail = "\(action), \(whose) t=\(due.time.shortDescription), waited \((now - due.time).shortDescription) s: \(why)"
    }, kind: .wait, at: now)
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
    case .taskLaunch(let id): return .taskLaunch(app: self[id].config.bundle)
    case .script: return .scheduled
    case .policy(let kind): return .policy(kind.rawValue)
    }
  }
}
