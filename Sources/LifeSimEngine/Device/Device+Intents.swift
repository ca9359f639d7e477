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
      try check(.intent(opensApp: opensApp), app: id)
    }
    if opensApp {
      // The user's tap, as far as the screen can tell (`Screen.reduce`).
      try run(.bringToFront(id))
    } else {
      try cascade(for: id) { try run(SystemLaunchEvent.intent, for: id) }
    }
    try settle()
  }
}
