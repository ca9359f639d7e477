/// Where a user or system action takes an app; the device walks the route's
/// events through the transition table.
public enum Route: UInt8, CaseIterable, Sendable {
  /// To the foreground and active: launch, return, switch to, open URL.
  case toActive
  /// Off the screen: Home, lock (iOS ≥ 5), switching to another app.
  case toBackground
  /// Still on screen but not receiving events: interruptions, the switcher, lock on iOS 4.
  case toInactive
  /// Force-quit from the app switcher.
  case userTerminate
}

/// The routes of the app-delegate model as data: for each route and starting
/// state, the process events to apply in order (scene apps walk `SceneRoutes`). An empty list means nothing happens from that state; a
/// missing entry (nil) means the action makes no sense there.
public enum Routes {
  /// The events that take an app from `state` along `route`.
  public static func events(_ route: Route, from state: AppState) -> [AppEvent]? {
    switch (route, state) {
    // §0 "Cold launch", "Back to foreground"; §2.5 (the same app picked in the switcher).
    case (.toActive, .notRunning): return [.launch, .activate]
    case (.toActive, .suspended): return [.resume, .enterForeground, .activate]
    case (.toActive, .background): return [.enterForeground, .activate]
    case (.toActive, .inactive): return [.activate]
    case (.toActive, .active): return []
    // §0 "Home / swipe up"; §2.4 "User accepts, switching away".
    case (.toBackground, .active): return [.deactivate, .enterBackground]
    case (.toBackground, .inactive): return [.enterBackground]
    case (.toBackground, .background), (.toBackground, .suspended), (.toBackground, .notRunning): return []
    // §2.4, §2.5, §2.3 (iOS 4).
    case (.toInactive, .active): return [.deactivate]
    case (.toInactive, _): return []
    // §0 force-quit rows; §2.6. The app-delegate model enters the background
    // first (seeds 000 §3.4 and 002).
    case (.userTerminate, .inactive): return [.enterBackground, .terminate]
    case (.userTerminate, .active): return [.deactivate, .enterBackground, .terminate]
    case (.userTerminate, .background): return [.terminate]
    case (.userTerminate, .suspended): return [.kill]
    case (.userTerminate, .notRunning): return []
    }
  }
}
