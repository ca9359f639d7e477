// Scene state restoration (reference §2.11): the scene delegate's activity is
// asked for when a scene goes to the background and handed back at its
// session's next connection; what survives a force-quit and the close of an
// iPad's last window follows the devices (FB9855914, the iPadOS 15 thread).
extension Device {
  /// After `sceneDidEnterBackground:`: `stateRestorationActivityForScene:`, to
  /// an app that implements it; what it returns becomes the session's activity.
  func askRestorationActivity(_ id: AppID, scene number: Int32) throws {
    guard self[id].implemented.contains(.stateRestorationActivity) else { return }
    let result = try deliver(.stateRestorationActivity, to: id, scene: number)
    guard case .token(let token) = result else { return }
    guard let i = self[id].sceneIndex(number) else {
      host?.release(token, on: self)
      return
    }
    if let old = self[id].scenes[i].restorationActivity { host?.release(old, on: self) }
    self[id].scenes[i].restorationActivity = token
  }

  /// A new session takes the activity a force-quit left (FB9855914).
  func adoptCarriedRestoration(_ id: AppID, scene i: Int) {
    guard let token = self[id].carriedRestorationActivity else { return }
    self[id].carriedRestorationActivity = nil
    if let old = self[id].scenes[i].restorationActivity { host?.release(old, on: self) }
    self[id].scenes[i].restorationActivity = token
  }

  /// Sessions that go: their activities with them.
  func releaseRestoration(of numbers: [Int32], in id: AppID) {
    for i in self[id].scenes.indices where numbers.contains(self[id].scenes[i].number) {
      if let token = self[id].scenes[i].restorationActivity {
        self[id].scenes[i].restorationActivity = nil
        host?.release(token, on: self)
      }
    }
  }

  /// The activity a force-quit does not delete on the devices (FB9855914,
  /// iOS 15): the one of the window shown last. Taken out of its session so
  /// that the discard does not release it. Apple's sample documentation says
  /// the force-quit deletes it: the quirk `force_quit_deletes_restoration` (§8.12).
  func restorationSurvivingForceQuit(_ id: AppID) -> HostToken? {
    guard !quirks.contains(.forceQuitDeletesRestoration), let focus = self[id].focusScene,
          let i = self[id].sceneIndex(focus), let token = self[id].scenes[i].restorationActivity else { return nil }
    self[id].scenes[i].restorationActivity = nil
    return token
  }

  func carryRestoration(_ token: HostToken?, to id: AppID) {
    guard let token else { return }
    if let old = self[id].carriedRestorationActivity { host?.release(old, on: self) }
    self[id].carriedRestorationActivity = token
  }

  /// On an iPad from iPadOS 15, the last window closed in the switcher keeps
  /// its session (Apple Developer Forums thread 702040).
  var keepsLastClosedSession: Bool {
    model?.showsWindowsSideBySide == true && profile.lastClosedWindowKeepsSession
  }

}
