/// The five process states of an app (reference §1.1).
public enum AppState: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case notRunning, inactive, active, background, suspended

  /// The SPEC's name for the state, as Lua sees it.
  public var description: String { AppState.names[Int(rawValue)] }

  public init?(name: String) {
    guard let i = AppState.names.firstIndex(of: name) else { return nil }
    self.init(rawValue: UInt8(i))
  }

  /// Whether the process exists (anything but notRunning).
  public var isRunning: Bool { self != .notRunning }
  /// Whether the process executes code (not suspended, not dead).
  public var isExecuting: Bool { self != .notRunning && self != .suspended }

  static let names = ["notRunning", "inactive", "active", "background", "suspended"]
}

/// An input to the process state machine.
public enum AppEvent: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  /// User launch: not running → inactive.
  case launch
  /// Launch straight into the background (fetch, silent push): not running → background.
  case launchInBackground
  case activate
  case deactivate
  case enterBackground
  case enterForeground
  /// Silent: the system stops executing the process.
  case suspend
  /// Silent: the system runs the process again.
  case resume
  /// Ends the process after `applicationWillTerminate:`.
  case terminate
  /// Ends the process with no callback: jetsam, force-quit while suspended, watchdog.
  case kill

  public var description: String {
    ["launch", "launchInBackground", "activate", "deactivate", "enterBackground",
     "enterForeground", "suspend", "resume", "terminate", "kill"][Int(rawValue)]
  }
}

/// Which set of delegate callbacks an app gets (reference §1.3).
public enum LifecycleModel: UInt8, Sendable {
  /// UIApplicationDelegate only: iOS ≤ 12, or an app without a scene manifest.
  case appDelegate
  /// iOS 13+, an app that adopts scenes: the scene delegate replaces the four
  /// foreground/background methods, and the UIApplication notifications stay.
  case scene
}

/// One edge of the process state machine.
///
/// The callbacks are listed in full, in order, for each model. Conditional ones
/// (e.g. `application:willFinishLaunchingWithOptions:` before iOS 6, or the scene
/// configuration for a restored session) are filtered by guards in
/// `Device.shouldDeliver`, the only place where the table is not the whole story.
public struct AppTransition: Sendable {
  public var from: AppState
  public var event: AppEvent
  public var to: AppState
  /// Callbacks in the app-delegate model.
  public var appDelegate: [Callback]
  /// Callbacks in the scene model.
  public var scene: [Callback]
  /// True when the callbacks run in the new state; false when they run before it.
  public var deliveredAfter: Bool
  /// The reference section the edge comes from.
  public var reference: String

  public func callbacks(_ model: LifecycleModel) -> [Callback] {
    model == .appDelegate ? appDelegate : scene
  }
}

/// The process state machine as data (STYLE §4): every legal edge, once.
public enum AppLifecycle {
  public static let transitions: [AppTransition] = {
    typealias T = AppTransition
    // In the scene model the process edges carry only what the app delegate
    // still gets (§1.3); the scene callbacks are on the edges of `SceneLifecycle`,
    // and the app's state follows its scenes.
    let launchScene: [Callback] = [.willFinishLaunching, .didFinishLaunching, .didDiscardSceneSessions]
    let terminateScene: [Callback] = [.didDiscardSceneSessions, .willTerminate]
    var edges: [T] = [
      // §0 "Cold launch"; §2.1. No applicationWillEnterForeground: on a cold launch.
      T(from: .notRunning, event: .launch, to: .inactive,
        appDelegate: [.willFinishLaunching, .didFinishLaunching], scene: launchScene,
        deliveredAfter: true, reference: "§2.1"),
      // §0 "Background launch"; §2.8 and §8.1: no didEnterBackground by default.
      T(from: .notRunning, event: .launchInBackground, to: .background,
        appDelegate: [.willFinishLaunching, .didFinishLaunching], scene: launchScene,
        deliveredAfter: true, reference: "§2.8"),
      // §1.4 Inactive → Active.
      T(from: .inactive, event: .activate, to: .active,
        appDelegate: [.didBecomeActive], scene: [],
        deliveredAfter: true, reference: "§1.4"),
      // §1.4 Active → Inactive: the callback runs while still active.
      T(from: .active, event: .deactivate, to: .inactive,
        appDelegate: [.willResignActive], scene: [],
        deliveredAfter: false, reference: "§1.4"),
      // §1.4 Inactive → Background; the snapshot follows (§2.10).
      T(from: .inactive, event: .enterBackground, to: .background,
        appDelegate: [.didEnterBackground], scene: [],
        deliveredAfter: true, reference: "§1.4"),
      // §1.4 Background → Inactive: "reported state is still .background during the call".
      T(from: .background, event: .enterForeground, to: .inactive,
        appDelegate: [.willEnterForeground], scene: [],
        deliveredAfter: false, reference: "§1.4"),
      // §1.1, §1.4: suspension is silent, and so is resuming to run again.
      T(from: .background, event: .suspend, to: .suspended,
        appDelegate: [], scene: [], deliveredAfter: true, reference: "§1.4"),
      T(from: .suspended, event: .resume, to: .background,
        appDelegate: [], scene: [], deliveredAfter: true, reference: "§1.4"),
      // §2.6 (a) and (b), §3.3: willTerminate only for a running process; in the
      // scene model the scenes have disconnected and the sessions are discarded first (§8.2).
      T(from: .inactive, event: .terminate, to: .notRunning,
        appDelegate: [.willTerminate], scene: terminateScene,
        deliveredAfter: false, reference: "§2.6"),
      T(from: .background, event: .terminate, to: .notRunning,
        appDelegate: [.willTerminate], scene: terminateScene,
        deliveredAfter: false, reference: "§2.6"),
    ]
    // §1.4 "Any → Not running by crash or watchdog", §4 jetsam, §2.6 (c): silent.
    for from in [AppState.inactive, .active, .background, .suspended] {
      edges.append(T(from: from, event: .kill, to: .notRunning, appDelegate: [], scene: [],
                     deliveredAfter: true, reference: "§1.4"))
    }
    return edges
  }()

  /// The edge for (state, event), or nil when the event is illegal in that state.
  /// - Complexity: O(1)
  public static func transition(from state: AppState, on event: AppEvent) -> AppTransition? {
    let i = index[Int(state.rawValue) * eventCount + Int(event.rawValue)]
    return i < 0 ? nil : transitions[Int(i)]
  }

  static let eventCount = AppEvent.allCases.count
  static let index: [Int16] = {
    var table = [Int16](repeating: -1, count: AppState.allCases.count * AppEvent.allCases.count)
    for (i, t) in transitions.enumerated() {
      let slot = Int(t.from.rawValue) * AppEvent.allCases.count + Int(t.event.rawValue)
      precondition(table[slot] < 0, "duplicate edge \(t.from) --\(t.event)-->")
      table[slot] = Int16(i)
    }
    return table
  }()
}
