/// What the process and the scenes of a scene app must do because of each
/// other (reference §1.3): the two machines meet only through these effects,
/// which the device applies (`Device+Effects.swift`). The scene walk returns
/// what the process must do; the process returns what its scenes must do.
public enum LifecycleEffect: Equatable, Sendable {
  // MARK: The process
  /// Apply a process event with its callbacks (a launch, a resume, a kill…).
  case apply(AppEvent)
  /// The app's state follows its scenes: one silent edge of the process
  /// machine, by `event`, to `to`.
  case follow(AppEvent, to: AppState)
  /// The scenes imply a state that is not one step from the app's: a table
  /// that disagrees with itself, reported as an engine error.
  case cannotFollow(AppState)
  /// After the background: the snapshot, then suspension or an exit (§0, §3.7).
  case settleInBackground
  /// Suspended again after a scene event it was resumed for, unless a task or
  /// a mode holds it.
  case suspendUnlessHeld
  /// Post a UIApplication notification with no scene callback before it.
  case post(AppNotification)

  // MARK: The scenes
  /// Walk every connected scene along a route.
  case walkScenes(Route)
  /// Discard every session of the app (reported by
  /// `application:didDiscardSceneSessions:`).
  case discardSessions
  /// The process died: its scenes return to unattached, silently.
  case detachScenes
}

/// The rules that tie a scene app's process to its scenes (reference §1.3,
/// §2.6), as pure functions of their states.
///
///     SceneRules.follow(.inactive, scenes: [activeScene], table: AppLifecycle.scene)
///     // .follow(.activate, to: .active)
public enum SceneRules {
  /// The edge by which the app's state follows its connected scenes while
  /// the process executes: active if one is active, inactive if one is on
  /// screen, background if one is connected; nil when it stays (none
  /// connected: the process state stands alone).
  public static func follow(_ state: AppState, scenes: [Scene],
                            table: TransitionTable<AppState, AppEvent>) -> LifecycleEffect? {
    var implied: AppState?
    for scene in scenes { implied = SceneRules.implied(implied, and: scene.state) }
    return follow(state, implied: implied, table: table)
  }

  /// One scene's part in what its process's state should be: active if one
  /// is active, inactive if one is on screen, background if one is
  /// connected. Folded over the scenes from nil. The device folds in place,
  /// scene by scene: passing its array would retain it on every scene change.
  @inline(__always)
  public static func implied(_ sofar: AppState?, and scene: SceneState) -> AppState? {
    switch scene {
    case .foregroundActive: return .active
    case .foregroundInactive: return sofar == .active ? sofar : .inactive
    case .background: return sofar ?? .background
    case .unattached: return sofar
    }
  }

  /// What the scenes imply, from how many are in each connected state: the
  /// fold of `implied(_:and:)` over them, in any order.
  @inline(__always)
  public static func implied(active: Int, inactive: Int, background: Int) -> AppState? {
    active > 0 ? .active : inactive > 0 ? .inactive : background > 0 ? .background : nil
  }

  /// `follow`, given what the scenes imply (`implied(_:and:)` folded over them).
  /// Inlined into the device's one caller, which runs it on every scene change.
  @inline(__always)
  public static func follow(_ state: AppState, implied: AppState?,
                            table: TransitionTable<AppState, AppEvent>) -> LifecycleEffect? {
    guard state.isExecuting else { return nil }
    // The same rule as `SceneLifecycle.appState(of:)`, without a lazy sequence.
    guard let to = implied, to != state else { return nil }
    for event in [AppEvent.activate, .deactivate, .enterBackground, .enterForeground] {
      if let e = table.edge(from: state, on: event), table.transitions[e].to == to { return .follow(event, to: to) }
    }
    return .cannotFollow(to)
  }

  /// A scene comes forward: a process that does not run launches, a
  /// suspended one resumes, first.
  public static func comingForward(_ state: AppState) -> LifecycleEffect? {
    switch state {
    case .notRunning: return .apply(.launch)
    case .suspended: return .apply(.resume)
    default: return nil
    }
  }

  /// §2.6 scene column, a force-quit: the scenes disconnect, the sessions
  /// are discarded, and the process terminates; a suspended or dead process
  /// hears of the discard at its next launch. `entersBackgroundFirst` is
  /// §8.2's early-iOS-13 order (Neuburg).
  public static func forceQuit(_ state: AppState, entersBackgroundFirst: Bool) -> Effects<LifecycleEffect> {
    switch state {
    case .notRunning: return Effects(.discardSessions)
    case .suspended: return Effects(.apply(.kill), .discardSessions)
    default:
      if entersBackgroundFirst { return Effects(.walkScenes(.toBackground), .apply(.terminate), .discardSessions) }
      // didDiscardSceneSessions:, then applicationWillTerminate:.
      return Effects(.walkScenes(.userTerminate), .discardSessions, .apply(.terminate))
    }
  }

  /// The last window on screen closed: the app as a whole left the screen
  /// with no `sceneDidEnterBackground:`, so the notification stands alone
  /// (§1.3).
  public static func leftScreen(_ state: AppState) -> Effects<LifecycleEffect> {
    state == .inactive ? Effects(.apply(.enterBackground), .post(.didEnterBackground)) : Effects(.post(.didEnterBackground))
  }

  /// The process changed state: when it died, its scenes detach with it
  /// (§1.4 "Suspended → Not running"; their sessions survive).
  /// At most one effect, so an optional rather than `Effects`: the device
  /// asks on every state change of every process.
  public static func processChanged(to state: AppState, hasScenes: Bool) -> LifecycleEffect? {
    state == .notRunning && hasScenes ? .detachScenes : nil
  }
}
