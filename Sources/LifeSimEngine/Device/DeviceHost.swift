/// The script side of a device: whoever runs handlers, observers and timers.
///
/// The engine knows nothing of Lua. The bridge implements this protocol, and the
/// engine calls it only for apps that registered a handler (see `App.handled`),
/// so a device with no scripts attached never leaves Swift.
public protocol DeviceHost: AnyObject {
  /// Runs the handler of a delivered callback and returns the delegate method's result.
  /// - Throws: `SimulationError.handlerFailed` when the handler fails.
  func handle(_ delivery: Delivery, on device: Device) throws -> HandlerResult
  /// Runs the observers of a notification posted to `app`.
  func observe(_ notification: AppNotification, app: AppID, on device: Device) throws
  /// Runs the function behind a timer token that came due.
  func fire(_ token: HostToken, on device: Device, app: AppID?) throws
  /// The engine will never use `token` again.
  func release(_ token: HostToken, on device: Device)
  /// Runs a background task's expiration handler.
  func expire(_ token: HostToken, task: Int32, app: AppID, on device: Device) throws
  /// The `background_time` policy for one app (asked only when the script set a function).
  func backgroundTime(for app: AppID, on device: Device) throws -> SimTime
  /// The `choose_victim` policy (asked only when the script set one): one of `candidates`.
  func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID
  /// Runs the launch handler the app registered for a BGTaskScheduler task (reference §3.5).
  func launchTask(_ run: BGTaskRun, app: AppID, on device: Device) throws
  /// Runs a BGTaskScheduler task's expiration handler; false when it has none.
  func expireTask(_ run: BGTaskRun, app: AppID, on device: Device) throws -> Bool
  /// The `task_scheduler` policy (asked only when the script set one): how
  /// long after its earliest time a submitted request runs, or nil when the
  /// scheduler never runs it.
  func taskDelay(_ request: BGTaskRequest, app: AppID, on device: Device) throws -> SimTime?
  /// A BGTaskScheduler task ended: completed, ended by the system, or its
  /// process died. The engine never names it again.
  func taskEnded(_ run: BGTaskRun, app: AppID, on device: Device)
}

extension DeviceHost {
  /// A host that registers no launch handlers: nothing runs.
  public func launchTask(_ run: BGTaskRun, app: AppID, on device: Device) throws {}
  /// A host with no expiration handlers.
  public func expireTask(_ run: BGTaskRun, app: AppID, on device: Device) throws -> Bool { false }
  /// A host with no scheduler of its own: requests run at their earliest time.
  public func taskDelay(_ request: BGTaskRequest, app: AppID, on device: Device) throws -> SimTime? { .zero }
  public func taskEnded(_ run: BGTaskRun, app: AppID, on device: Device) {}
}

/// One callback being delivered to an app. Plain values only, so that a
/// delivery costs no reference counting: its URL, if it has one, is
/// `Device.deliveryURL` while the handler runs.
public struct Delivery: Sendable {
  public var app: AppID
  public let callback: Callback
  /// The scene number, for scene-delegate callbacks.
  public var scene: Int32?
  /// Whether the callback carries a URL (in the launch options, connection
  /// options or open-URL call); `Device.deliveryURL` holds it.
  public var hasURL: Bool
  /// For view-controller callbacks the view controller; for view callbacks the
  /// view and the view controller that holds it.
  public var vc: ObjectID?
  public var view: ObjectID?
  /// Whether the OS reads the handler's answer (`Callback.returnsAnswer`):
  /// a host may skip reading any other handler's result. Stored, so that the
  /// host's hot path reads a byte instead of calling across modules.
  public let readsAnswer: Bool

  public init(app: AppID, callback: Callback, scene: Int32? = nil, hasURL: Bool = false,
              vc: ObjectID? = nil, view: ObjectID? = nil) {
    self.app = app
    self.callback = callback
    self.readsAnswer = callback.returnsAnswer
    self.scene = scene
    self.hasURL = hasURL
    self.vc = vc
    self.view = view
  }
}

/// What a handler returned: the delegate method's return value, where it has one.
public enum HandlerResult: Equatable, Sendable {
  case none
  case bool(Bool)
  /// A value the host keeps for the engine (the `NSUserActivity` that
  /// `stateRestorationActivityForScene:` returns); the engine releases it.
  case token(HostToken)
}

/// How an incoming call shows on an unlocked phone (reference §2.4).
public enum CallStyle: String, CaseIterable, Sendable {
  /// iOS 14+: a compact banner at the top; the app under it stays active.
  case banner
  /// The full-screen call interface: the app resigns active.
  case fullScreen = "full_screen"
}

/// A temporary interruption that makes the frontmost app inactive (reference §2.4).
public enum Interruption: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case call, alert, controlCenter
  /// Notification Center pulled all the way down (on iOS 11–12 the app becomes
  /// active again under it, and once more when it is dismissed: §2.4).
  case notificationCenter
  case siri
  /// Notification Center pulled part way, then let go: it springs back, and
  /// the app resigns and becomes active again at once (§2.4). Nothing stays
  /// showing.
  case notificationCenterPeek

  public var description: String {
    switch self {
    case .call: return "call"
    case .alert: return "alert"
    case .controlCenter: return "control_center"
    case .notificationCenter: return "notification_center"
    case .siri: return "siri"
    case .notificationCenterPeek: return "notification_center_peek"
    }
  }

  public init?(name: String) {
    guard let c = Interruption.allCases.first(where: { $0.description == name }) else { return nil }
    self = c
  }
}
