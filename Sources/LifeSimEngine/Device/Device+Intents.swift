// App Intents, Shortcuts and Siri (reference §2.13): an intent runs in the
// app's process; `openAppWhenRun` says whether the app comes to the screen.
extension Device {
  /// `dev:run_intent(app, { name =, opens_app = })`: Shortcuts or Siri runs an
  /// intent of the app. An intent that does not open the app launches the
  /// process in the background (its launch methods run) or wakes it, creates
  /// no scene, and holds it for a background launch's window; one that opens
  /// the app brings it forward as a tap does.
  /// - Throws: `invalidAction` before iOS 16; `locked` for an intent that
  ///   opens the app while the device is locked.
  public func runIntent(_ id: AppID, name: String, opensApp: Bool) throws {
    try begin(.runIntent, app: id, detail: opensApp ? name + " opens app" : name) {
      guard profile.hasAppIntents else {
        throw SimulationError.invalidAction(.action(.runIntent), .noAppIntents(ios: profile.version))
      }
      if opensApp { try requireUnlocked(.action(.runIntent)) }
    }
    if opensApp {
      try run(.bringToFront(id))
      try settle()
      return
    }
    try cascade(for: id) {
      if self[id].state == .notRunning { try apply(.launchInBackground, to: id) }
      if self[id].state == .suspended { try apply(.resume, to: id) }
      if self[id].state == .background { try run(.launchWindowOpens, for: id) }
    }
    try settle()
  }
}
