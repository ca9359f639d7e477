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
    var driver = UserDriver(user: user, device: self)
    return try driver.drive(until: try clockTime(after: max(duration, .zero), .drive))
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

/// The state of one drive: the next time of each kind of user event.
private struct UserDriver {
  let user: UserModel
  let device: Device
  let popularity: [Double]
  var summary = DriveSummary()
  var sessionEnd: SimTime?
  var nextNotification: SimTime?
  var nextQuit: SimTime?
  /// When the action under way began: the time drawn for it, or later when
  /// a handler before it still worked. The user's next times count from it,
  /// not from when its own handlers returned: the device does not wait for
  /// a busy main thread, and neither does its user (§3.8). Late actions do
  /// not pile up: each counts from when it came.
  var actedAt: SimTime

  init(user: UserModel, device: Device) {
    self.user = user
    self.device = device
    self.popularity = user.cumulativePopularity()
    self.actedAt = device.now
  }

  mutating func drive(until end: SimTime) throws -> DriveSummary {
    scheduleNotification()
    scheduleQuit()
    if device.isLocked { try device.unlock() }
    try startSession()
    var instant = device.now, atInstant = 0
    while true {
      // Each action is a step of the device's long loops, and actions at
      // one instant count as events at one instant do.
      try device.step()
      if device.now == instant {
        atInstant += 1
        if atInstant > device.maxEventsPerInstant { throw SimulationError.stalled(at: instant, events: device.maxEventsPerInstant) }
      } else {
        instant = device.now
        atInstant = 1
      }
      let nextSwitch = actedAt + device.exponential(mean: user.switchMean)
      var next = (time: nextSwitch, kind: 0)
      if let s = sessionEnd, s < next.time { next = (s, 1) }
      if let n = nextNotification, n < next.time { next = (n, 2) }
      if let q = nextQuit, q < next.time { next = (q, 3) }
      // The user does not act once the drive is over, even when a handler's
      // work carried the clock past its end.
      guard next.time < end, device.now < end else { break }
      try device.advance(by: next.time - device.now)
      // The user acts at `next.time` (reference §3.8). When a handler's work
      // ran past it, the action comes when the handler returns, and `begin`
      // says so with a `wait` record, as for a late `dev:at` function.
      let savedDue = device.scriptDue
      device.scriptDue = Device.ActionDue(time: next.time, byUser: true)
      defer { device.scriptDue = savedDue }
      actedAt = max(next.time, device.now)
      switch next.kind {
      case 0:
        summary.switches += 1
        try open(pickApp(other: device.frontmost))
      case 1:
        summary.locks += 1
        try lockAndWait(until: end)
        guard device.now < end else { return summary }
      case 2:
        summary.notifications += 1
        scheduleNotification()
        try open(pickApp(other: nil))
      default:
        scheduleQuit()
        let running = device.apps.filter { $0.state.isRunning && $0.id != device.frontmost }
        guard !running.isEmpty else { continue }
        summary.quits += 1
        let victim = running[min(running.count - 1, Int(device.random.nextUnit() * Double(running.count)))]
        try device.forceQuit(victim.id)
        // The switcher closes on the app the user was in.
        if let f = device.frontmost { try device.switchTo(f) } else { try device.home() }
      }
    }
    try device.advance(by: end - device.now)
    return summary
  }

  /// Opens an app unless one is on screen, and draws when the session ends.
  mutating func startSession() throws {
    if device.frontmost == nil { try open(pickApp(other: nil)) }
    sessionEnd = user.sessionMean.map { actedAt + device.exponential(mean: $0) }
  }

  /// Locks the phone; notifications that arrive while it is locked wake the
  /// user, who unlocks and opens their app; otherwise the user comes back after
  /// the idle time.
  mutating func lockAndWait(until end: SimTime) throws {
    try device.lock()
    let wake = actedAt + device.exponential(mean: user.idleMean)
    let byNotification = nextNotification.map { $0 < wake } ?? false
    let at = min(byNotification ? nextNotification! : wake, end)
    try device.advance(by: at - device.now)
    guard at < end, device.now < end else { return }
    device.scriptDue = Device.ActionDue(time: at, byUser: true)  // the drive's loop restores it
    actedAt = max(at, device.now)
    try device.unlock()
    if byNotification {
      summary.notifications += 1
      scheduleNotification()
      try open(pickApp(other: nil))
    }
    try startSession()
  }

  mutating func scheduleNotification() {
    guard user.notificationsPerHour > 0 else { return }
    let mean = SimTime(seconds: 3600 / user.notificationsPerHour) ?? .seconds(3600)
    nextNotification = actedAt + device.exponential(mean: mean)
  }

  mutating func scheduleQuit() {
    guard user.quitsPerHour > 0 else { return }
    let mean = SimTime(seconds: 3600 / user.quitsPerHour) ?? .seconds(3600)
    nextQuit = actedAt + device.exponential(mean: mean)
  }

  /// An app drawn by popularity; with `other`, a different one when there is one.
  func pickApp(other: AppID?) -> AppID {
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

  /// Brings an app to the screen: from the switcher, or with Home and its icon.
  func open(_ app: AppID) throws {
    guard device.frontmost != app else { return }
    if user.switcherShare > 0 && device.random.nextUnit() < user.switcherShare {
      try device.switchTo(app)
      return
    }
    if device.frontmost != nil { try device.home() }
    try device.launch(app)
  }
}
