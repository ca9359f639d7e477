// The launches the system makes without the user's tap, whose rules are
// `SystemLaunch`'s (App/SystemLaunch.swift). Prewarming (reference §2.1
// "Prewarming", §8.11): from iOS 15 the system starts an app's process ahead
// of the user's tap, runs its launch methods with no scene, and holds it
// until the tap reuses it. App Intents, Shortcuts and Siri (§2.13): an intent
// runs in the app's process; `openAppWhenRun` says whether the app comes to
// the screen. Then what a process reads of how it was launched, and the
// models whose side button reactivates the app before it leaves.
extension Device {
  /// `dev:prewarm(app)`: the system starts the app's process before any tap
  /// (after a reboot, or when it predicts a launch). The launch methods run in
  /// the background, no scene connects and no configuration is asked for, and
  /// the process is suspended until the user opens the app. Before iOS 15 the
  /// system does not prewarm: a `log` record says so and nothing happens.
  /// What follows is `SystemLaunch.reduce`'s.
  /// - Throws: `invalidAction` for an app whose process runs.
  public func prewarm(_ id: AppID) throws {
    try begin(.prewarm, app: id) { try checkSystemLaunch(.prewarm, app: id) }
    try cascade(for: id) { try run(SystemLaunchEvent.prewarm, for: id) }
    try settle()
  }

  /// `dev:run_intent(app, { name =, opens_app = })`: Shortcuts or Siri runs an
  /// intent of the app. An intent that does not open the app launches the
  /// process in the background (its launch methods run) or wakes it, creates
  /// no scene, and holds it for a background launch's window; one that opens
  /// the app brings it forward as a tap does.
  /// - Throws: `invalidAction` before iOS 16; `locked` for an intent that
  ///   opens the app while the device is locked.
  public func runIntent(_ id: AppID, name: String, opensApp: Bool) throws {
    try begin(.runIntent, app: id, detail: opensApp ? name + " opens app" : name) {
      try checkSystemLaunch(.intent(opensApp: opensApp), app: id)
    }
    if opensApp {
      // The user's tap, as far as the screen can tell (`Screen.reduce`).
      try run(.bringToFront(id))
    } else {
      try cascade(for: id) { try run(SystemLaunchEvent.intent, for: id) }
    }
    try settle()
  }

  /// The user's tap reaches a prewarmed process: no second launch methods;
  /// the environment loses `ActivePrewarm`, and protected data that was
  /// unavailable during the prewarm becomes available before the scene
  /// connects (§2.1 "Prewarming", the iOS 15.0 log; `SystemLaunch.reduce`).
  @inline(never)  // a rare step: see Device+Effects.swift
  func endPrewarm(_ id: AppID) throws {
    guard self[id].prewarm != nil else { return }
    try cascade(for: id) { try run(SystemLaunchEvent.tap, for: id) }
  }

  /// Checks a launch without the user's tap (`SystemLaunch.refusal`).
  func checkSystemLaunch(_ request: SystemLaunchRequest, app id: AppID) throws {
    let action = request.action
    switch SystemLaunch.refusal(of: request, state: self[id].state, locked: isLocked, facts: systemLaunchFacts) {
    case nil: return
    case .processRunning(let state):
      throw SimulationError.invalidAction(.action(action), .processRunning(app: self[id].config.bundle, state: state))
    case .noAppIntents: throw SimulationError.invalidAction(.action(action), .noAppIntents(ios: profile.version))
    case .locked: throw SimulationError.locked(.action(action))
    }
  }

  /// The process environment app code reads (`ProcessInfo.environment`):
  /// `ActivePrewarm = "1"` during an iOS 15 prewarm, and nothing else.
  public func environment(of id: AppID) -> [(String, String)] {
    self[id].prewarm?.activePrewarmEnvironment == true ? [("ActivePrewarm", "1")] : []
  }

  /// `UIApplication.isProtectedDataAvailable` (reference §0 "Protected data").
  public var isProtectedDataAvailable: Bool { protectedData.available }

  /// §2.3 "Models that reactivate on lock": on some models the side button
  /// makes the app on screen resign, become active and resign again before
  /// it enters the background, all at the same instant.
  @inline(never)  // a rare step: see Device+Effects.swift
  func reactivateOnLock(_ id: AppID) throws {
    guard self[id].state == .active else { return }
    try walk(.toInactive, id)
    // A process killed in one of these handlers is gone from the screen.
    guard frontmost == id, self[id].state == .inactive else { return }
    try walk(.toActive, id)
    guard frontmost == id, self[id].state == .active else { return }
    try walk(.toInactive, id)
  }
}
