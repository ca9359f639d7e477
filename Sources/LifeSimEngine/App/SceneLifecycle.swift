/// The four activation states of a scene (reference §1.2, `UIScene.ActivationState`).
/// A disconnected scene returns to `unattached`; its session may live on.
public enum SceneState: UInt8, MachineValue {
  case unattached, foregroundInactive, foregroundActive, background

  public var description: String { SceneState.names[Int(rawValue)] }

  public init?(name: String) {
    guard let i = SceneState.names.firstIndex(of: name) else { return nil }
    self.init(rawValue: UInt8(i))
  }

  /// On screen: foregroundInactive or foregroundActive.
  public var isForeground: Bool {
    @inline(__always) get { self == .foregroundInactive || self == .foregroundActive }
  }
  /// Connected to the process: anything but unattached.
  public var isConnected: Bool { self != .unattached }

  static let names = ["unattached", "foregroundInactive", "foregroundActive", "background"]
}

/// An input to the scene state machine.
public enum SceneEvent: UInt8, MachineValue {
  /// A user-requested scene connects and comes to the foreground.
  case connect
  case activate
  case deactivate
  case enterBackground
  case enterForeground
  /// UIKit releases the scene: the user closed it, the app was force-quit, or the
  /// system reclaims a background scene's memory. The session may survive.
  case disconnect
  /// Silent: the process died, so the scene is gone with no callback.
  case detach

  public var description: String {
    ["connect", "activate", "deactivate", "enterBackground", "enterForeground", "disconnect",
     "detach"][Int(rawValue)]
  }
}

/// An edge of the scene machine. As in `AppLifecycle`, conditional callbacks
/// (the configuration request for a restored session, the UIApplication
/// notifications) are filtered by guards in `Device`.
public typealias SceneTransition = Transition<SceneState, SceneEvent>

/// The scene state machine as data: every legal edge, once.
public enum SceneLifecycle {
  public static let table = TransitionTable<SceneState, SceneEvent>("scene", {
    typealias T = SceneTransition
    var edges: [T] = [
      // §0 "Cold launch" scene column, §2.1: configuration (new sessions only),
      // connection, then the foreground; the scene is still unattached meanwhile.
      T(.unattached, .connect, .foregroundInactive,
        callbacks: [.configurationForConnecting, .sceneWillConnect, .sceneWillEnterForeground],
        after: false, reference: "§2.1"),
      // §1.4 rows Inactive → Active and Active → Inactive, scene column.
      T(.foregroundInactive, .activate, .foregroundActive, callbacks: [.sceneDidBecomeActive], reference: "§1.4"),
      T(.foregroundActive, .deactivate, .foregroundInactive, callbacks: [.sceneWillResignActive], after: false,
        reference: "§1.4"),
      // §1.4 Inactive → Background and back; §0 "Home": no disconnect on the way.
      T(.foregroundInactive, .enterBackground, .background, callbacks: [.sceneDidEnterBackground],
        reference: "§1.4"),
      T(.background, .enterForeground, .foregroundInactive, callbacks: [.sceneWillEnterForeground], after: false,
        reference: "§1.4"),
      // §2.6 (a): a scene closed from the switcher disconnects with no
      // sceneDidEnterBackground:. §1.2: UIKit disconnects background scenes to
      // reclaim memory, and §8.3 says only then, never on an app switch.
      T(.foregroundInactive, .disconnect, .unattached, callbacks: [.sceneDidDisconnect], reference: "§2.6"),
      T(.background, .disconnect, .unattached, callbacks: [.sceneDidDisconnect], reference: "§1.2"),
    ]
    // §1.4 "Suspended → Not running": a dying process's scenes get nothing.
    for from in [SceneState.foregroundInactive, .foregroundActive, .background] {
      edges.append(T(from, .detach, .unattached, silent: true, reference: "§1.4"))
    }
    return edges
  }())

  /// Every legal edge.
  public static var transitions: [SceneTransition] { table.transitions }

  /// The edge for (state, event), or nil when the event is illegal in that state.
  /// - Complexity: O(1)
  public static func transition(from state: SceneState, on event: SceneEvent) -> SceneTransition? {
    table.transition(from: state, on: event)
  }

  /// The app state a set of scenes implies (reference §1.3: the app's state
  /// follows its scenes): active if one is active, inactive if one is on screen,
  /// background if one is connected, and nil when none is connected (the
  /// process state then stands alone, as during launch or a background launch).
  public static func appState<S: Sequence>(of states: S) -> AppState? where S.Element == SceneState {
    var best: AppState?
    for s in states {
      switch s {
      case .foregroundActive: return .active
      case .foregroundInactive: best = .inactive
      case .background: if best == nil { best = .background }
      case .unattached: break
      }
    }
    return best
  }
}

/// One scene of an app: its session number and its activation state.
public struct Scene: Sendable, Equatable {
  /// The session's number within its app: 1, 2, … in order of creation, never reused.
  public let number: Int32
  public internal(set) var state: SceneState = .unattached
  /// The session was configured once, so a reconnection restores it without
  /// asking `application:configurationForConnectingSceneSession:options:` (§2.1 step 5).
  public internal(set) var hasSession = false
  /// The session's `stateRestorationActivity`: what the scene delegate's
  /// `stateRestorationActivityForScene:` last returned, handed back at the
  /// next `scene:willConnectToSession:options:` (§2.11).
  public internal(set) var restorationActivity: HostToken?
  /// Orders scenes by when they were last brought forward: the highest is the
  /// one a tap on the icon shows.
  var lastForward: Int = 0
}

/// Where a user action takes one scene: the events to apply from each state
/// (the scene counterpart of `Routes`).
public enum SceneRoutes {
  public static func events(_ route: Route, from state: SceneState) -> [SceneEvent] {
    switch (route, state) {
    case (.toActive, .unattached): return [.connect, .activate]
    case (.toActive, .background): return [.enterForeground, .activate]
    case (.toActive, .foregroundInactive): return [.activate]
    case (.toActive, .foregroundActive): return []
    case (.toBackground, .foregroundActive): return [.deactivate, .enterBackground]
    case (.toBackground, .foregroundInactive): return [.enterBackground]
    case (.toBackground, _): return []
    case (.toInactive, .foregroundActive): return [.deactivate]
    case (.toInactive, _): return []
    // §2.6 scene column: disconnect, with no sceneDidEnterBackground:.
    case (.userTerminate, .foregroundActive): return [.deactivate, .disconnect]
    case (.userTerminate, .foregroundInactive), (.userTerminate, .background): return [.disconnect]
    case (.userTerminate, .unattached): return []
    }
  }
}
