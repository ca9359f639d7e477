/// Which transition a watchdog watches (reference §3.1–§3.3).
public enum WatchdogKind: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case launch, background, terminate
  /// Resigning, becoming active, entering the foreground (§3.1 `scene-update`).
  case sceneUpdate
  public var description: String {
    switch self {
    case .launch: return "launch"
    case .background: return "background"
    case .terminate: return "terminate"
    case .sceneUpdate: return "scene-update"
    }
  }
}

/// An armed watchdog: the app whose callbacks it watches and when it bites.
public struct Watchdog: Equatable, Sendable {
  public var app: AppID
  public var deadline: SimTime
  public var kind: WatchdogKind
}

/// The watchdogs (reference §3.1): at most one is armed, for the app whose
/// transition the system waits on. The launch watchdog runs from the launch to
/// the first `…DidBecomeActive:`; the background and terminate ones run while
/// their callback does, and the one they replaced comes back after it.
public struct Watchdogs: Sendable {
  /// Off under a debugger (§3.1): nothing is armed.
  public var debugger: Bool
  public private(set) var armed: Watchdog?

  public init(debugger: Bool) { self.debugger = debugger }

  /// Arms the watchdog of `callback` if it has one.
  /// - Returns: the watchdog it replaced (`.some(nil)` for none), to restore
  ///   after the callback; nil when the callback has no watchdog.
  mutating func arm(for callback: Callback, app: AppID, at now: SimTime, policy: Policy) -> Watchdog?? {
    guard !debugger else { return nil }
    let kind: WatchdogKind
    let limit: SimTime
    switch callback {
    case .didEnterBackground, .sceneDidEnterBackground: (kind, limit) = (.background, policy.watchdogBackground)
    case .willTerminate: (kind, limit) = (.terminate, policy.watchdogTerminate)
    // §3.1: every other transition the system waits on, in either model.
    case .willResignActive, .didBecomeActive, .willEnterForeground,
         .sceneWillResignActive, .sceneDidBecomeActive, .sceneWillEnterForeground:
      (kind, limit) = (.sceneUpdate, policy.watchdogSceneUpdate)
    default: return nil
    }
    let saved = armed
    let watchdog = Watchdog(app: app, deadline: now + limit, kind: kind)
    // A watchdog of the same app that bites sooner stays (a launch that is
    // nearly out of time is not given ten more seconds by its activation).
    if let current = armed, current.app == app, current.deadline <= watchdog.deadline { return .some(saved) }
    armed = watchdog
    return .some(saved)
  }

  /// Whether `callback` has a watchdog.
  func watches(_ callback: Callback) -> Bool {
    switch callback {
    case .didEnterBackground, .sceneDidEnterBackground, .willTerminate, .willResignActive, .didBecomeActive,
         .willEnterForeground, .sceneWillResignActive, .sceneDidBecomeActive, .sceneWillEnterForeground:
      return true
    default: return false
    }
  }

  /// Puts back what `arm` replaced.
  mutating func restore(_ saved: Watchdog?) { armed = saved }

  /// A launch starts its watchdog (§0: 20 s to the first `…DidBecomeActive:`).
  mutating func armLaunch(app: AppID, at now: SimTime, policy: Policy) {
    guard !debugger else { return }
    armed = Watchdog(app: app, deadline: now + policy.watchdogLaunch, kind: .launch)
  }

  /// A running app comes back to the foreground: the scene update's
  /// watchdog runs to its first `…DidBecomeActive:` (§3.1), unless one of
  /// the app that bites sooner is in force.
  /// - Returns: the watchdog it replaced, to restore at the end of the
  ///   comeback; nil under a debugger.
  @inline(__always)
  mutating func armComeback(app: AppID, at now: SimTime, policy: Policy) -> Watchdog?? {
    guard !debugger else { return nil }
    let saved = armed
    let watchdog = Watchdog(app: app, deadline: now + policy.watchdogSceneUpdate, kind: .sceneUpdate)
    // A launch not over yet (a prewarmed process the tap finishes) keeps
    // its own watchdog, as does one of the app that bites sooner.
    if let current = armed, current.app == app, current.kind == .launch || current.deadline <= watchdog.deadline {
      return .some(saved)
    }
    armed = watchdog
    return .some(saved)
  }

  /// `…DidBecomeActive:` was delivered: the app's launch, or its return to
  /// the foreground, is over.
  mutating func launchFinished(app: AppID) {
    if armed?.app == app && (armed?.kind == .launch || armed?.kind == .sceneUpdate) { armed = nil }
  }

  /// The process ended: nothing of it is watched any more.
  mutating func processEnded(_ app: AppID) {
    if armed?.app == app { armed = nil }
  }
}
