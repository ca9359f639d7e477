// What a run leaves behind without a word unless someone asks: handlers the
// lifecycle model can never deliver, timers still pending and background
// tasks still open when the script ends. The engine gives the facts; the
// bridge words them.

/// A handler that the app registered and that this iOS version, for this
/// app's lifecycle model, never calls.
public struct UnreachableHandler: Sendable, Equatable {
  /// Why the OS never calls it.
  public enum Reason: Sendable, Equatable {
    /// An app-delegate method that iOS 13+ sends to the scene delegate of an app with scenes.
    case sceneModel
    /// A scene method, for an app in the app-delegate model on a version with scenes.
    case appDelegateModel
    /// A scene method, on a version before scenes.
    case noScenes(version: Int)
    /// The version does not have the callback.
    case absent(version: Int)
  }

  public let app: AppID
  public let callback: Callback
  public let reason: Reason
  /// What the OS calls instead, if anything.
  public let instead: Callback?
  /// The reference section that says so.
  public let reference: String
}

extension OSProfile {
  /// Whether this version never calls `callback` for an app of `model`, and
  /// what it calls instead. Only callbacks no situation delivers are named:
  /// one that is merely conditional (`application:didDiscardSceneSessions:`)
  /// is not.
  public func unreachable(_ callback: Callback, model: LifecycleModel) -> (UnreachableHandler.Reason, Callback?, String)? {
    switch (callback, model) {
    // §1.3: the scene delegate replaces these in the scene model.
    case (.didBecomeActive, .scene): return (.sceneModel, .sceneDidBecomeActive, "§1.3")
    case (.willResignActive, .scene): return (.sceneModel, .sceneWillResignActive, "§1.3")
    case (.didEnterBackground, .scene): return (.sceneModel, .sceneDidEnterBackground, "§1.3")
    case (.willEnterForeground, .scene): return (.sceneModel, .sceneWillEnterForeground, "§1.3")
    case (.openURLOptions, .scene), (.openURLSourceApplication, .scene):
      return (.sceneModel, .sceneOpenURLContexts, "§2.7")
    default: break
    }
    if callback.receiver == .sceneDelegate || callback == .configurationForConnecting
        || callback == .didDiscardSceneSessions {
      guard model == .appDelegate else { return nil }
      let reason: UnreachableHandler.Reason = supportsScenes ? .appDelegateModel : .noScenes(version: version)
      let instead: Callback?
      switch callback {
      case .sceneDidBecomeActive: instead = .didBecomeActive
      case .sceneWillResignActive: instead = .willResignActive
      case .sceneDidEnterBackground: instead = .didEnterBackground
      case .sceneWillEnterForeground: instead = .willEnterForeground
      case .sceneOpenURLContexts: instead = openURLCallback
      default: instead = nil
      }
      return (reason, instead, "§1.3")
    }
    switch callback {
    case .openURLOptions where openURLCallback != .openURLOptions,
         .openURLSourceApplication where openURLCallback != .openURLSourceApplication:
      return (.absent(version: version), openURLCallback, "§2.7")
    case .willFinishLaunching where delivery(of: callback) == .never:
      return (.absent(version: version), .didFinishLaunching, "§7")
    case .viewIsAppearing where delivery(of: callback) == .never:
      return (.absent(version: version), .viewWillAppear, "§5.3")
    case .viewWillUnload where !hasViewWillUnload:
      return (.absent(version: version), nil, "§5.5")
    case .viewDidUnload where !unloadsViewsOnMemoryWarning:
      return (.absent(version: version), nil, "§5.5")
    case .viewWillTransitionToSize where !hasViewWillTransitionToSize:
      return (.absent(version: version), nil, "§5.3")
    case .userNotificationCenterWillPresent where !hasNotificationCenterDelegate,
         .userNotificationCenterDidReceive where !hasNotificationCenterDelegate:
      return (.absent(version: version), .didReceiveRemoteNotification, "§2.12")
    default:
      return nil
    }
  }
}

/// A timer still pending, or a background task still open, when the script ended.
public struct LeftoverWork: Sendable, Equatable {
  public enum Kind: Sendable, Equatable {
    /// `dev:at` / `dev:after`.
    case scriptTimer(HostToken)
    /// `ctx:after` of a running process; `parked` while the app is suspended.
    case appTimer(AppID, HostToken, parked: Bool)
    /// A background task the app never ended.
    case backgroundTask(AppID, name: String, began: SimTime)
  }

  public let kind: Kind
  /// When a timer was due; nil for a task.
  public let due: SimTime?
}

extension Device {
  /// The handlers that never ran and never could: each app's own handlers
  /// (not `on("*")`) for callbacks that its lifecycle model on this version
  /// does not deliver, unless the app also handles what the OS calls instead
  /// (an app written for several versions implements both, as real apps do).
  public var unreachableHandlers: [UnreachableHandler] {
    var found: [UnreachableHandler] = []
    for app in apps {
      let own = app.implemented
      guard own.bits & ~app.delivered.bits != 0 else { continue }
      for c in Callback.allCases where own.contains(c) && !app.delivered.contains(c) {
        guard let (reason, instead, reference) = profile.unreachable(c, model: app.model) else { continue }
        if let instead, own.contains(instead) { continue }
        // A scene method with no one counterpart (connecting, disconnecting,
        // configurations) in an app that also handles the app-delegate
        // lifecycle: written for both models, as apps that support iOS 12 are.
        if instead == nil, app.model == .appDelegate, c.receiver == .sceneDelegate || c == .configurationForConnecting
            || c == .didDiscardSceneSessions, own.bits & Device.appDelegateLifecycle.bits != 0 { continue }
        found.append(UnreachableHandler(app: app.id, callback: c, reason: reason, instead: instead,
                                        reference: reference))
      }
    }
    return found
  }

  /// The four app-delegate methods that the scene delegate replaces (§1.3).
  static let appDelegateLifecycle: CallbackSet = {
    var s = CallbackSet()
    for c in [Callback.didBecomeActive, .willResignActive, .didEnterBackground, .willEnterForeground] { s.insert(c) }
    return s
  }()

  /// Timers still pending and background tasks still open, in the order they
  /// would have come (timers by due time and sequence, then tasks by app and
  /// beginning). Timers of a process that died, and OS deadlines, are left out.
  public var leftoverWork: [LeftoverWork] {
    var out: [LeftoverWork] = []
    for event in kernel.pendingInOrder {
      switch event.action {
      case .script(let token):
        out.append(LeftoverWork(kind: .scriptTimer(token), due: event.time))
      case .appTimer(let id, let pid, let token) where self[id].pid == pid:
        out.append(LeftoverWork(kind: .appTimer(id, token, parked: false), due: event.time))
      default:
        break
      }
    }
    for app in apps {
      for event in app.parkedTimers {
        if case .appTimer(let id, _, let token) = event.action {
          out.append(LeftoverWork(kind: .appTimer(id, token, parked: true), due: event.time))
        }
      }
      for task in app.tasks {
        out.append(LeftoverWork(kind: .backgroundTask(app.id, name: task.name, began: task.began), due: nil))
      }
    }
    return out
  }
}

/// What keeps a process running in the background (§0 "Suspension"): what an
/// expectation that it is suspended names when it is not.
public enum Holder: Sendable, Equatable {
  case backgroundTask(name: String, began: SimTime)
  case audio
  case backgroundLaunch(until: SimTime)
}

extension Device {
  /// Everything that holds app `id` in the background now, tasks first in
  /// the order they began.
  public func holders(of id: AppID) -> [Holder] {
    var out = self[id].tasks.map { Holder.backgroundTask(name: $0.name, began: $0.began) }
    if holdsAudio(id) { out.append(.audio) }
    if let end = self[id].backgroundLaunchEnd { out.append(.backgroundLaunch(until: end)) }
    return out
  }
}
