import LifeSimEngine

/// The app's own code, for a search where it acts: it runs in every
/// callback and notification and does nothing, but in the one a step names
/// it allocates past the limit (`ExplainStep.killedAt`), so that jetsam kills
/// the process there as it would a real app's, or blocks past the watchdog's
/// limit there, or begins a background task (`ExplainStep.taskAt`) that it
/// never ends, or works a while (`ExplainStep.busyAt`). Where the app runs a BGTaskScheduler task, its launch
/// handler is here too.
final class ExplainHost: DeviceHost {
  /// Where the app's code runs.
  enum Delivered: Equatable {
    case callback(Callback), notification(AppNotification)

    var name: String {
      switch self {
      case .callback(let c): return c.selector
      case .notification(let n): return n.name
      }
    }
  }

  let app: AppID
  /// What the code allocates to pass its limit, in MB.
  let allocates: Double
  private var dieAt = 0, hangAt = 0, taskAt = 0, busyAt = 0, calls = 0
  private var busyFor = SimTime.zero
  /// Where the app's code acted in the last armed step.
  private(set) var actedIn: Delivered?

  init(app: AppID, allocates: Double) {
    self.app = app
    self.allocates = allocates
  }

  /// In the app's `kill`-th callback or notification from now its code
  /// passes the memory limit, in the `hang`-th it blocks past every
  /// watchdog's limit, in the `task`-th it begins a task, in the `busy`-th
  /// it works `busyFor` (0: in none).
  func arm(kill: Int, hang: Int, task: Int, busy: Int, busyFor: SimTime) {
    dieAt = kill
    hangAt = hang
    taskAt = task
    busyAt = busy
    self.busyFor = busyFor
    calls = 0
    if kill > 0 || hang > 0 || task > 0 || busy > 0 { actedIn = nil }
  }

  /// Longer than any watchdog's limit: code that blocks this long is killed
  /// by the watchdog of the callback it runs in, if it has one.
  static func hang(_ p: Policy) -> SimTime {
    max(p.watchdogLaunch, p.watchdogBackground, p.watchdogTerminate, p.watchdogSceneUpdate) + .seconds(1)
  }

  private func code(_ d: Delivered, app: AppID, on device: Device) throws {
    guard dieAt > 0 || hangAt > 0 || taskAt > 0 || busyAt > 0, app == self.app else { return }
    calls += 1
    if calls == taskAt {
      actedIn = d
      taskAt = 0
      _ = try device.beginBackgroundTask(app: app, name: "explain", expiration: nil)
    }
    if calls == busyAt {
      actedIn = d
      busyAt = 0
      try device.work(busyFor)
    }
    if calls == hangAt {
      actedIn = d
      hangAt = 0
      try device.work(Self.hang(device.policy))
    }
    guard calls == dieAt else { return }
    actedIn = d
    dieAt = 0
    try device.allocate(allocates, app: app)
  }

  func handle(_ delivery: Delivery, on device: Device) throws -> HandlerResult {
    try code(.callback(delivery.callback), app: delivery.app, on: device)
    return .none
  }

  func observe(_ notification: AppNotification, app: AppID, on device: Device) throws {
    try code(.notification(notification), app: app, on: device)
  }

  func fire(_ token: HostToken, on device: Device, app: AppID?) throws {}
  func release(_ token: HostToken, on device: Device) {}
  func expire(_ token: HostToken, task: Int32, app: AppID, on device: Device) throws {}
  func backgroundTime(for app: AppID, on device: Device) throws -> SimTime { device.policy.backgroundTime }

  /// The refresh request of an app that runs tasks (`ExplainSearch.tasks`).
  static func request(at now: SimTime) -> BGTaskRequest {
    BGTaskRequest(identifier: ExplainStep.task, kind: .refresh, earliest: now)
  }

  /// The refresh task's launch handler submits the next request, so that a
  /// later step can run the task again, and completes at once.
  func launchTask(_ run: BGTaskRun, app: AppID, on device: Device) throws {
    try device.submitTask(app, Self.request(at: device.now))
    _ = device.completeTask(app, number: run.number, success: true)
  }

  /// The scheduler never runs the request on its own: only a step does.
  func taskDelay(_ request: BGTaskRequest, app: AppID, on device: Device) throws -> SimTime? { nil }
  func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID { candidates[0].app }
}
