// iPad windows side by side (reference §1.2 "Windows side by side"): Split
// View, Slide Over and Stage Manager show a second window of an app next to
// the first, and both stay in the foreground.
extension Device {
  /// Opens another window of the app on screen next to its window: the new
  /// scene asks for a configuration, connects, enters the foreground and
  /// becomes active, and the windows already on screen stay in the foreground
  /// with no callback. Only models that show windows side by side (iPads).
  /// - Returns: the new scene's session number.
  /// - Throws: `invalidAction` without an iPad model, or when the app is not
  ///   on screen; `noScenes` for an app without scenes.
  @discardableResult
  public func openSceneBeside(_ id: AppID) throws -> Int32 {
    try begin(.openScene, app: id, detail: "beside") {
      try requireUnlocked(.action(.openScene))
      guard model?.showsWindowsSideBySide == true else {
        throw SimulationError.invalidAction(.action(.openScene), .noWindowsSideBySide(model: model?.name))
      }
      guard self[id].model == .scene else {
        throw SimulationError.noScenes(.action(.openScene), app: self[id].config.bundle, sceneless: profile.supportsScenes,
                                       ios: profile.version)
      }
      guard frontmost == id, interruption == nil, !isSwitcherOpen,
            self[id].scenes.count(in: .foregroundActive) > 0 else {
        throw SimulationError.invalidAction(.action(.openScene), .noActiveWindowToOpenBeside(app: self[id].config.bundle))
      }
    }
    let number = newScene(id)
    try cascade(for: id) {
      if let i = self[id].sceneIndex(number) {
        forwardCount += 1
        self[id].scenes[i].lastForward = forwardCount
      }
      for event in SceneRoutes.events(.toActive, from: .unattached) { try apply(event, scene: number, of: id) }
    }
    try settle()
    return number
  }
}
