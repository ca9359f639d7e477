/// The five process states of an app (reference §1.1).
public enum AppState: UInt8, MachineValue {
  case notRunning, inactive, active, background, suspended

  /// The state's name, as Lua sees it.
  public var description: String { AppState.names[Int(rawValue)] }

  public init?(name: String) {
    guard let i = AppState.names.firstIndex(of: name) else { return nil }
    self.init(rawValue: UInt8(i))
  }

  /// Whether the process exists (anything but notRunning).
  public var isRunning: Bool { self != .notRunning }
  /// Whether the process executes code (not suspended, not dead).
  @inline(__always)
  public var isExecuting: Bool {
    switch self {
    case .notRunning, .suspended: return false
    case .inactive, .active, .background: return true
    }
  }

  static let names = ["notRunning", "inactive", "active", "background", "suspended"]
}

/// An input to the process state machine.
public enum AppEvent: UInt8, MachineValue {
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

/// An edge of the process machine.
public typealias AppTransition = Transition<AppState, AppEvent>

/// The process state machine as data: every legal edge, once, in
/// one table per lifecycle model. The two tables have the same edges; they
/// differ in the callbacks the app delegate gets.
///
/// Conditional callbacks (e.g. `application:willFinishLaunchingWithOptions:`
/// before iOS 6, or `application:didDiscardSceneSessions:` with nothing to
/// report) are filtered by `Device.shouldDeliver`, the only place where the
/// table is not the whole story.
public enum AppLifecycle {
  /// The table for an app of `model`.
  public static func table(for model: LifecycleModel) -> TransitionTable<AppState, AppEvent> {
    model == .appDelegate ? appDelegate : scene
  }

  /// UIApplicationDelegate only (iOS ≤ 12, or an app without a scene manifest).
  public static let appDelegate = TransitionTable("process (app delegate)", edges(scene: false))
  /// iOS 13+ with scenes: the scene callbacks are on `SceneLifecycle`'s edges,
  /// the process edges carry what the app delegate still gets (§1.3), and the
  /// app's state follows its scenes.
  public static let scene = TransitionTable("process (scenes)", edges(scene: true))

  /// The edge for (state, event) in the app-delegate model.
  public static func transition(from state: AppState, on event: AppEvent) -> AppTransition? {
    appDelegate.transition(from: state, on: event)
  }

  private static func edges(scene: Bool) -> [AppTransition] {
    typealias T = AppTransition
    // The callbacks of an edge in each model.
    func by(_ appDelegate: [Callback], _ sceneModel: [Callback]) -> [Callback] { scene ? sceneModel : appDelegate }
    let launching: [Callback] = by([.willFinishLaunching, .didFinishLaunching],
                                   [.willFinishLaunching, .didFinishLaunching, .didDiscardSceneSessions])
    let terminating = by([.willTerminate], [.didDiscardSceneSessions, .willTerminate])
    var edges: [T] = [
      // §0 "Cold launch"; §2.1. No applicationWillEnterForeground: on a cold launch.
      T(.notRunning, .launch, .inactive, callbacks: launching, reference: "§2.1"),
      // §0 "Background launch"; §2.8 and §8.1: no didEnterBackground by default.
      T(.notRunning, .launchInBackground, .background, callbacks: launching, reference: "§2.8"),
      // §1.4 Inactive → Active.
      T(.inactive, .activate, .active, callbacks: by([.didBecomeActive], []), reference: "§1.4"),
      // §1.4 Active → Inactive: the callback runs while still active.
      T(.active, .deactivate, .inactive, callbacks: by([.willResignActive], []), after: false, reference: "§1.4"),
      // §1.4 Inactive → Background; the snapshot follows (§2.10).
      T(.inactive, .enterBackground, .background, callbacks: by([.didEnterBackground], []), reference: "§1.4"),
      // §1.4 Background → Inactive: "reported state is still .background during the call".
      T(.background, .enterForeground, .inactive, callbacks: by([.willEnterForeground], []), after: false,
        reference: "§1.4"),
      // §1.1, §1.4: suspension is silent, and so is resuming to run again.
      T(.background, .suspend, .suspended, silent: true, reference: "§1.4"),
      T(.suspended, .resume, .background, silent: true, reference: "§1.4"),
      // §2.6 (a) and (b), §3.3: willTerminate only for a running process; in the
      // scene model the scenes have disconnected and the sessions are discarded first (§8.2).
      T(.inactive, .terminate, .notRunning, callbacks: terminating, after: false, reference: "§2.6"),
      T(.background, .terminate, .notRunning, callbacks: terminating, after: false, reference: "§2.6"),
    ]
    // §1.4 "Any → Not running by crash or watchdog", §4 jetsam, §2.6 (c): silent.
    for from in [AppState.inactive, .active, .background, .suspended] {
      edges.append(T(from, .kill, .notRunning, silent: true, reference: "§1.4"))
    }
    return edges
  }
}
