/// The four activation states of a scene (reference §1.2, `UIScene.ActivationState`).
/// A disconnected scene returns to `unattached`; its session may live on.
public enum SceneState: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case unattached, foregroundInactive, foregroundActive, background

  public var description: String { SceneState.names[Int(rawValue)] }

  public init?(name: String) {
    guard let i = SceneState.names.firstIndex(of: name) else { return nil }
    self.init(rawValue: UInt8(i))
  }

  /// On screen: foregroundInactive or foregroundActive.
  public var isForeground: Bool { self == .foregroundInactive || self == .foregroundActive }
  /// Connected to the process: anything but unattached.
  public var isConnected: Bool { self != .unattached }

  static let names = ["unattached", "foregroundInactive", "foregroundActive", "background"]
}

/// An input to the scene state machine.
public enum SceneEvent: UInt8, CaseIterable, Sendable, CustomStringConvertible {
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

/// One edge of the scene state machine. As in `AppTransition`, conditional
/// callbacks (the configuration request for a restored session, the
/// UIApplication notifications) are filtered by guards in `Device`.
public struct SceneTransition: Sendable {
  public var from: SceneState
  public var event: SceneEvent
  public var to: SceneState
  public var callbacks: [Callback]
  /// True when the callbacks run in the new state; false when they run before it.
  public var deliveredAfter: Bool
  /// The reference section the edge comes from.
  public var reference: String
}

/// The scene state machine as data: every legal edge, once.
public enum SceneLifecycle {
  public static let transitions: [SceneTransition] = {
    typealias T = SceneTransition
    var edges: [T] = [
      // §0 "Cold launch" scene column, §2.1: configuration (new sessions only),
      // connection, then the foreground; the scene is still unattached meanwhile.
      T(from: .unattached, event: .connect, to: .foregroundInactive,
        callbacks: [.configurationForConnecting, .sceneWillConnect, .sceneWillEnterForeground],
        deliveredAfter: false, reference: "§2.1"),
      // §1.4 rows Inactive → Active and Active → Inactive, scene column.
      T(from: .foregroundInactive, event: .activate, to: .foregroundActive,
        callbacks: [.sceneDidBecomeActive], deliveredAfter: true, reference: "§1.4"),
      T(from: .foregroundActive, event: .deactivate, to: .foregroundInactive,
        callbacks: [.sceneWillResignActive], deliveredAfter: false, reference: "§1.4"),
      // §1.4 Inactive → Background and back; §0 "Home": no disconnect on the way.
      T(from: .foregroundInactive, event: .enterBackground, to: .background,
        callbacks: [.sceneDidEnterBackground], deliveredAfter: true, reference: "§1.4"),
      T(from: .background, event: .enterForeground, to: .foregroundInactive,
        callbacks: [.sceneWillEnterForeground], deliveredAfter: false, reference: "§1.4"),
      // §2.6 (a): a scene closed from the switcher disconnects with no
      // sceneDidEnterBackground:. §1.2: UIKit disconnects background scenes to
      // reclaim memory, and §8.3 says only then, never on an app switch.
      T(from: .foregroundInactive, event: .disconnect, to: .unattached,
        callbacks: [.sceneDidDisconnect], deliveredAfter: true, reference: "§2.6"),
      T(from: .background, event: .disconnect, to: .unattached,
        callbacks: [.sceneDidDisconnect], deliveredAfter: true, reference: "§1.2"),
    ]
    // §1.4 "Suspended → Not running": a dying process's scenes get nothing.
    for from in [SceneState.foregroundInactive, .foregroundActive, .background] {
      edges.append(T(from: from, event: .detach, to: .unattached, callbacks: [],
                     deliveredAfter: true, reference: "§1.4"))
    }
    return edges
  }()

  /// The edge for (state, event), or nil when the event is illegal in that state.
  /// - Complexity: O(1)
  public static func transition(from state: SceneState, on event: SceneEvent) -> SceneTransition? {
    let i = index[Int(state.rawValue) * eventCount + Int(event.rawValue)]
    return i < 0 ? nil : transitions[Int(i)]
  }

  static let eventCount = SceneEvent.allCases.count
  static let index: [Int16] = {
    var table = [Int16](repeating: -1, count: SceneState.allCases.count * SceneEvent.allCases.count)
    for (i, t) in transitions.enumerated() {
      let slot = Int(t.from.rawValue) * SceneEvent.allCases.count + Int(t.event.rawValue)
      precondition(table[slot] < 0, "duplicate scene edge \(t.from) --\(t.event)-->")
      table[slot] = Int16(i)
    }
    return table
  }()

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
