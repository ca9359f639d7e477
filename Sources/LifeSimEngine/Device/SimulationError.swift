/// Everything that can go wrong in the engine, with the context to explain it.
///
/// The engine throws these and never swallows one (the SimPy rule). The bridge
/// turns them into Lua errors, and the CLI into messages and exit codes.
public enum SimulationError: Error, Equatable, CustomStringConvertible {
  /// An iOS version without a profile.
  case unsupportedVersion(Int)
  /// An action that makes no sense in the device's current situation.
  case invalidAction(action: String, reason: String)
  /// A state-machine edge that does not exist. The engine never attempts one
  /// unless a table is wrong, so this is a bug report, not a user error.
  case illegalTransition(app: String, from: AppState, event: AppEvent, at: SimTime)
  /// The same for a scene's machine.
  case illegalSceneTransition(app: String, scene: Int32, from: SceneState, event: SceneEvent, at: SimTime)
  /// Two parts of the engine disagree: a bug report, with what was seen.
  case inconsistent(String)
  /// A process was killed while its own code ran: the cascade that ran it
  /// unwinds. The engine catches it; a script never sees it.
  case processKilled(AppID)
  /// A script policy failed or returned nonsense.
  case policyFailed(policy: String, message: String)
  /// A device action or clock call made from inside an app callback or timer.
  case reentrant(action: String, inside: String)
  /// Two apps with the same bundle id.
  case duplicateBundle(String)
  /// A run that reached its virtual-time horizon with events still pending.
  case horizonReached(SimTime)
  /// More events ran at one instant than the limit allows: something
  /// reschedules itself with no delay, so the clock can never move.
  case stalled(at: SimTime, events: Int)
  /// A handler, observer or timer failed; `underlying` is the host's error.
  case handlerFailed(HandlerFailure)

  public var description: String {
    switch self {
    case .unsupportedVersion(let v):
      let list = OSProfile.supportedVersions.map(String.init).joined(separator: ", ")
      return "unsupported iOS version \(v) (supported: \(list))"
    case .invalidAction(let action, let reason):
      return "\(action): \(reason)"
    case .illegalTransition(let app, let from, let event, let t):
      return "internal error: \(app) has no transition from \(from) on \(event) (t=\(t))"
    case .illegalSceneTransition(let app, let scene, let from, let event, let t):
      return "internal error: scene \(scene) of \(app) has no transition from \(from) on \(event) (t=\(t))"
    case .inconsistent(let what):
      return "internal error: \(what)"
    case .processKilled(let app):
      return "the process of app #\(app.index) was killed while its code ran"
    case .policyFailed(let policy, let message):
      return "policy '\(policy)': \(message)"
    case .reentrant(let action, let inside):
      return "\(action) cannot be called inside \(inside); schedule it with dev:at or dev:after instead"
    case .duplicateBundle(let b):
      return "an app with bundle id '\(b)' is already installed"
    case .stalled(let t, let n):
      return "\(n) events ran at t=\(t) without the clock moving: a timer or dev:after reschedules itself with no delay (--max-events-per-instant)"
    case .horizonReached(let t):
      return "the run reached its virtual-time limit at t=\(t) with events still scheduled (--max-time)"
    case .handlerFailed(let f):
      return f.description
    }
  }
}

/// Where a script function failed: the app, the callback, and the virtual time.
public struct HandlerFailure: Equatable, Sendable, CustomStringConvertible {
  /// The bundle id, when the function belonged to an app.
  public var app: String?
  /// The selector, notification, or "timer" / "dev:at" description.
  public var callback: String
  /// The virtual time of the failure.
  public var time: SimTime
  /// The host's message, with the script's `file:line:`.
  public var message: String
  /// The Lua traceback, if any.
  public var traceback: String?
  /// True when the failure is a failed expectation rather than an error.
  public var isExpectationFailure: Bool

  public init(app: String?, callback: String, time: SimTime, message: String,
              traceback: String?, isExpectationFailure: Bool) {
    self.app = app
    self.callback = callback
    self.time = time
    self.message = message
    self.traceback = traceback
    self.isExpectationFailure = isExpectationFailure
  }

  public var description: String {
    let who = app.map { "\($0) " } ?? ""
    return "error in \(who)\(callback) at t=\(time): \(message)"
  }
}
