import LifeSimEngine

/// The app's own code, for a search where it may pass its memory limit: it
/// runs in every callback and notification, does nothing, and in the one a
/// step names (`ExplainStep.killedAt`) allocates past the limit, so that
/// jetsam kills the process there as it would a real app's.
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
  private var dieAt = 0, calls = 0
  /// Where the last armed step killed the app.
  private(set) var killedIn: Delivered?

  init(app: AppID, allocates: Double) {
    self.app = app
    self.allocates = allocates
  }

  /// The app's `at`-th callback or notification from now passes the limit (0: none does).
  func arm(_ at: Int) {
    dieAt = at
    calls = 0
    if at > 0 { killedIn = nil }
  }

  private func code(_ d: Delivered, app: AppID, on device: Device) throws {
    guard dieAt > 0, app == self.app else { return }
    calls += 1
    guard calls == dieAt else { return }
    killedIn = d
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
  func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID { candidates[0].app }
}
