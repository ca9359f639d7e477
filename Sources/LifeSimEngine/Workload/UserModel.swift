import RealModule

/// A simulated user, for experiments (`lifesim.workload.user`): which app
/// they open, how long they stay, when they lock the phone and when a
/// notification pulls them into an app. Every draw comes from the device's seeded
/// generator, so the same seed gives the same week of use.
///
/// The shape is the usual one of app-usage studies: app popularity follows a
/// Zipf law over the installed apps, and the times between events are
/// exponential (memoryless), each with its own mean.
///
///     var user = UserModel(apps: dev.apps.map(\.id))
///     user.zipfExponent = 1.1
///     user.switchMean = .seconds(180)
///     try dev.drive(user, for: .seconds(7 * 86_400))
public struct UserModel: Sendable {
  /// The apps the user opens, most popular first.
  public var apps: [AppID]
  /// Zipf exponent s: the app of rank k is opened with probability ∝ 1/k^s.
  public var zipfExponent = 1.0
  /// Mean time in an app before the user switches to another one.
  public var switchMean: SimTime = .seconds(180)
  /// Mean length of a session before the user locks the phone; nil: never locks.
  public var sessionMean: SimTime?
  /// Mean time the phone stays locked between sessions.
  public var idleMean: SimTime = .seconds(1800)
  /// Notifications that lead the user into their app, per hour (0: none).
  public var notificationsPerHour = 0.0
  /// Share of switches made through the app switcher rather than Home and an icon.
  public var switcherShare = 0.0
  /// Times per hour the user swipes a background app away in the switcher
  /// (a force-quit, §2.6), the app drawn uniformly among the running ones.
  public var quitsPerHour = 0.0

  public init(apps: [AppID]) { self.apps = apps }

  /// The shortest mean time between a user's actions (a tenth of a second):
  /// nobody switches apps faster, and a drive at a microsecond's pace would
  /// run for days in Swift.
  public static let shortestMean = SimTime(microseconds: 100_000)

  /// The first mean time that is shorter than `shortestMean`, by its name.
  public var tooShortMean: (name: String, mean: SimTime)? {
    if switchMean < Self.shortestMean { return ("switchMean", switchMean) }
    if let s = sessionMean, s < Self.shortestMean { return ("sessionMean", s) }
    if idleMean < Self.shortestMean { return ("idleMean", idleMean) }
    return nil
  }

  /// The cumulative Zipf distribution over `apps`.
  func cumulativePopularity() -> [Double] {
    var weights = apps.indices.map { 1 / Double.pow(Double($0 + 1), zipfExponent) }
    let total = weights.reduce(0, +)
    var sum = 0.0
    for i in weights.indices {
      sum += weights[i] / total
      weights[i] = sum
    }
    return weights
  }
}

/// What the user did during a drive, besides what `Device.stats` counts.
public struct DriveSummary: Sendable, Equatable {
  public var switches = 0
  public var locks = 0
  public var notifications = 0
  public var quits = 0
  public init() {}
}

extension Device {
  /// Lets `user` use the device for `duration` of virtual time. Between the
  /// user's actions the device runs as under `advance`: timers, tasks, watchdogs
  /// and jetsam go on.
  ///
  /// Each of the user's acts is an event at its own time (reference §3.8):
  /// one that falls while a handler's work runs comes then, as a script's
  /// `dev:at` function does, not when the handler returns.
  /// - Throws: what the actions and the clock throw (a handler error, a refused action).
  @discardableResult
  public func drive(_ user: UserModel, for duration: SimTime) throws -> DriveSummary {
    guard !user.apps.isEmpty else {
      throw SimulationError.invalidAction(.drive, .noAppsToOpen)
    }
    if let (name, mean) = user.tooShortMean {
      throw SimulationError.invalidAction(.drive, .meanTooShort(name: name, mean: mean, shortest: UserModel.shortestMean))
    }
    try checkDriveLength(max(duration, .zero), .drive)
    let end = try clockTime(after: max(duration, .zero), .drive)
    // Checked before the user's first act, as `advance` would after it.
    try checkClock(.drive)
    let driver = UserDriver(user: user, device: self, end: end)
    precondition(userDriver == nil, "a drive inside a drive")  // `checkClock` refuses one
    userDriver = driver
    defer {
      userDriver = nil
      // Left by a drive stopped on an error; a drive that ends has none.
      _ = kernel.removeAll { if case .user = $0.action { return true } else { return false } }
    }
    try driver.start(self)
    try advance(by: end - now)
    return driver.summary
  }

  /// The user's act of the drive under way that comes due now (`drive`).
  func userActs(_ act: UserAct) throws {
    guard let driver = userDriver else { return }  // its drive stopped on an error
    try driver.act(act, on: self)
  }

  /// A workload takes the clock at most as far as a run may (`horizon`).
  func checkDriveLength(_ span: SimTime, _ operation: Operation) throws {
    if span > horizon { throw SimulationError.pastHorizon(operation, span: span, horizon: horizon) }
  }

  /// A draw from an exponential distribution with this mean, rounded to the
  /// microsecond, from the device's generator.
  func exponential(mean: SimTime) -> SimTime {
    let u = random.nextUnit()  // in [0, 1), so 1 - u is in (0, 1]
    return SimTime(microseconds: Int64((-Double(mean.microseconds) * Double.log(1 - u)).rounded()))
  }
}

/// What a drive's user does at one of its events (`EventAction.user`).
public enum UserAct: UInt8, Sendable {
  /// Switches to another app.
  case switchApp
  /// Ends the session: locks the phone.
  case endSession
  /// Follows a notification into its app.
  case notification
  /// Swipes a background app away in the switcher.
  case quit
  /// Unlocks the phone after the idle time, or for a notification.
  case wake
  /// Takes the rest of the act under way, whose handler works (§3.8).
  case resume
}

/// The state of one drive: the next time of each kind of user event.
///
/// Its fields are read and written only by the device's thread, in turn:
/// unchecked, since a checked access to a class's field costs more than
/// the act it serves.
final class UserDriver {
  let user: UserModel
  let popularity: [Double]
  /// The drive stops here: the user does not act at or after it.
  let end: SimTime
  @exclusivity(unchecked) var summary = DriveSummary()
  @exclusivity(unchecked) var sessionEnd: SimTime?
  @exclusivity(unchecked) var nextNotification: SimTime?
  @exclusivity(unchecked) var nextQuit: SimTime?
  /// The locked phone wakes for a notification, not after the idle time.
  @exclusivity(unchecked) var wakeByNotification = false
  /// When the act under way began: its event's time. The user's next times
  /// count from it, not from when its handlers returned: the device does not
  /// wait for a busy main thread, and neither does its user (§3.8).
  @exclusivity(unchecked) var actedAt: SimTime
  /// What the act under way has still to draw once its actions returned,
  /// or as soon as a handler of it works (`handlerWorks`).
  @exclusivity(unchecked) private var pending: Pending?
  /// When the user's next event is due: its time drawn, which a handler's
  /// work may have passed.
  @exclusivity(unchecked) private(set) var due: SimTime

  /// The actions of the act under way not taken yet, the next one last.
  /// Kept here, not in the act's Swift frame, so that when a handler of one
  /// of them works the rest come at once, during the work (`handlerWorks`).
  @exclusivity(unchecked) private var steps = Steps()
  /// A `resume` event is scheduled and has not come yet.
  @exclusivity(unchecked) private var resumeScheduled = false

  private enum Step {
    /// Picks an app (another than the one in front, or any) and opens it.
    case open(otherThanFront: Bool)
    case launch(AppID)
    case lock
    case unlock
    case forceQuit(AppID)
    /// The switcher closes on the app the user was in, or on Home.
    case closeSwitcher
    /// The notification that woke the user: its app opens.
    case wakeNotification
    /// An app opens unless one is on screen.
    case startSession
  }

  /// A stack of at most four steps (an act pushes three at most, and a
  /// step taken pushes one in its place), held inline: an array's push and
  /// pop each checked it for uniqueness, on every act of a drive.
  private struct Steps {
    private var items: (Step, Step, Step, Step) = (.lock, .lock, .lock, .lock)
    private var count = 0

    var isEmpty: Bool { count == 0 }

    mutating func append(_ step: Step) {
      precondition(count < 4, "a user's act has at most four steps")
      withUnsafeMutableBytes(of: &items) { $0.baseAddress!.assumingMemoryBound(to: Step.self)[count] = step }
      count += 1
    }

    mutating func popLast() -> Step? {
      guard count > 0 else { return nil }
      count -= 1
      return withUnsafeBytes(of: &items) { $0.baseAddress!.assumingMemoryBound(to: Step.self)[count] }
    }

    mutating func removeAll() { count = 0 }
  }

  private enum Pending {
    /// When the next act comes.
    case nextAct
    /// When the session ends, then when the next act comes.
    case session
    /// When the locked phone wakes.
    case wake
  }

  init(user: UserModel, device: Device, end: SimTime) {
    self.user = user
    self.end = end
    self.popularity = user.cumulativePopularity()
    self.actedAt = device.now
    self.due = device.now
  }

  /// The first session, now, and the event of the next act.
  func start(_ device: Device) throws {
    scheduleNotification(device)
    scheduleQuit(device)
    pending = .session
    steps.append(.startSession)
    if device.isLocked { steps.append(.unlock) }
    try takeSteps(device)
  }

  /// The act under way returned: what it had left to draw is drawn, and
  /// its next event scheduled.
  private func moveOn(_ device: Device) throws {
    guard let p = pending else { return }
    pending = nil
    // Each act is a step of the device's long loops (its event is one).
    if p != .wake { try device.step() }
    if let next = draw(p, device) { schedule(next.act, at: next.time, device) }
  }

  /// A handler of the act under way works until `end`: the user does not
  /// wait for it (reference §3.8). The next event is drawn now; when it
  /// falls inside the work it is scheduled, to come during it. Otherwise
  /// the draw is undone and made when the act returns, as it would have
  /// been with no work: a handler's work changes a drive only where an
  /// event of the user falls inside it.
  func handlerWorks(until workEnd: SimTime, on device: Device) {
    if !steps.isEmpty {
      // The rest of the act comes now, during the work, in order; the next
      // act is drawn after it, as with no work.
      if !resumeScheduled {
        resumeScheduled = true
        device.kernel.schedule(.user(.resume), at: device.now)
      }
      return
    }
    guard let p = pending else { return }
    let saved = (random: device.random, sessionEnd: sessionEnd, wakeByNotification: wakeByNotification)
    if let next = draw(p, device), next.time <= workEnd {
      pending = nil
      schedule(next.act, at: next.time, device)
    } else {
      device.random = saved.random
      sessionEnd = saved.sessionEnd
      wakeByNotification = saved.wakeByNotification
    }
  }

  /// What comes after the act `p` stands for, unless the drive is over by
  /// then, or already (a handler's work carried the clock past its end).
  private func draw(_ p: Pending, _ device: Device) -> (time: SimTime, act: UserAct)? {
    switch p {
    case .session:
      sessionEnd = user.sessionMean.map { actedAt + device.exponential(mean: $0) }
      return draw(.nextAct, device)
    case .nextAct:
      let nextSwitch = actedAt + device.exponential(mean: user.switchMean)
      var next = (time: nextSwitch, act: UserAct.switchApp)
      if let s = sessionEnd, s < next.time { next = (s, .endSession) }
      if let n = nextNotification, n < next.time { next = (n, .notification) }
      if let q = nextQuit, q < next.time { next = (q, .quit) }
      guard next.time < end, device.now < end else { return nil }
      return next
    case .wake:
      // A notification that arrives while the phone is locked wakes the
      // user, who unlocks and opens their app; otherwise the user comes back
      // after the idle time.
      let wake = actedAt + device.exponential(mean: user.idleMean)
      wakeByNotification = nextNotification.map { $0 < wake } ?? false
      let at = min(wakeByNotification ? nextNotification! : wake, end)
      guard at < end, device.now < end else { return nil }
      return (at, .wake)
    }
  }

  /// An event of the user at `time`, or now when `time` is past. A time
  /// past when the act before began (a quit drawn for while the phone was
  /// locked) is the model's: due when the user is back. One past since is a
  /// handler's doing: it stays the act's due time, for its `wait` record.
  private func schedule(_ act: UserAct, at time: SimTime, _ device: Device) {
    due = max(time, actedAt)
    device.kernel.schedule(.user(act), at: max(time, device.now))
  }

  /// The act due now. Its actions come one after the other, each when the
  /// one before returned, as in a `dev:at` function, unless a handler of one
  /// works: then the rest come at once (`handlerWorks`). One made late says
  /// so with a `wait` record (`begin`).
  func act(_ act: UserAct, on device: Device) throws {
    if act == .resume {
      resumeScheduled = false
      return try takeSteps(device)
    }
    precondition(steps.isEmpty, "a user's act began before the one before it ended")
    actedAt = device.now
    pending = act == .endSession ? .wake : act == .wake ? .session : .nextAct
    switch act {
    case .switchApp:
      summary.switches += 1
      steps.append(.open(otherThanFront: true))
    case .endSession:
      summary.locks += 1
      steps.append(.lock)
    case .notification:
      summary.notifications += 1
      scheduleNotification(device)
      steps.append(.open(otherThanFront: false))
    case .quit:
      scheduleQuit(device)
      let running = device.apps.filter { $0.state.isRunning && $0.id != device.frontmost }
      if !running.isEmpty {
        summary.quits += 1
        let victim = running[min(running.count - 1, Int(device.random.nextUnit() * Double(running.count)))]
        steps.append(.closeSwitcher)
        steps.append(.forceQuit(victim.id))
      }
    case .wake:
      steps.append(.startSession)
      if wakeByNotification { steps.append(.wakeNotification) }
      steps.append(.unlock)
    case .resume:
      break
    }
    try takeSteps(device)
  }

  /// Takes the act's actions not taken yet, then draws what comes next.
  private func takeSteps(_ device: Device) throws {
    do {
      try takeEachStep(device)
    } catch {
      // A failed act takes no more steps. The user goes on should a handler
      // catch the error (a `pcall` around another app's work); otherwise the
      // drive stops with it.
      steps.removeAll()
      try moveOn(device)
      throw error
    }
    try moveOn(device)
  }

  private func takeEachStep(_ device: Device) throws {
    while let step = steps.popLast() {
      switch step {
      case .open(let otherThanFront):
        try open(pickApp(other: otherThanFront ? device.frontmost : nil, device), device)
      case .launch(let app):
        try device.launch(app)
      case .lock:
        try device.lock()
      case .unlock:
        try device.unlock()
      case .forceQuit(let app):
        try device.forceQuit(app)
      case .closeSwitcher:
        if let f = device.frontmost { try device.switchTo(f) } else { try device.home() }
      case .wakeNotification:
        summary.notifications += 1
        scheduleNotification(device)
        steps.append(.open(otherThanFront: false))
      case .startSession:
        if device.frontmost == nil { steps.append(.open(otherThanFront: false)) }
      }
    }
  }

  private func scheduleNotification(_ device: Device) {
    guard user.notificationsPerHour > 0 else { return }
    let mean = SimTime(seconds: 3600 / user.notificationsPerHour) ?? .seconds(3600)
    nextNotification = actedAt + device.exponential(mean: mean)
  }

  private func scheduleQuit(_ device: Device) {
    guard user.quitsPerHour > 0 else { return }
    let mean = SimTime(seconds: 3600 / user.quitsPerHour) ?? .seconds(3600)
    nextQuit = actedAt + device.exponential(mean: mean)
  }

  /// An app drawn by popularity; with `other`, a different one when there is one.
  private func pickApp(other: AppID?, _ device: Device) -> AppID {
    while true {
      let u = device.random.nextUnit()
      var lo = 0, hi = popularity.count - 1
      while lo < hi {
        let mid = (lo + hi) / 2
        if popularity[mid] > u { hi = mid } else { lo = mid + 1 }
      }
      let app = user.apps[lo]
      if app != other || user.apps.count == 1 { return app }
    }
  }

  /// Brings an app to the screen: from the switcher, or with Home and its
  /// icon (the tap is the act's next step, taken when Home returns).
  private func open(_ app: AppID, _ device: Device) throws {
    guard device.frontmost != app else { return }
    if user.switcherShare > 0 && device.random.nextUnit() < user.switcherShare {
      try device.switchTo(app)
      return
    }
    guard device.frontmost != nil else { return try device.launch(app) }
    steps.append(.launch(app))
    try device.home()
  }
}
