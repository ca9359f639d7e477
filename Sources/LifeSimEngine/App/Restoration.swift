/// What the profile, the model and the quirks say about scene state
/// restoration (§2.11, §8.12), so that its rules test no version number.
public struct RestorationFacts: Equatable, Sendable {
  /// A force-quit deletes every activity, as Apple's sample documentation
  /// says (quirk `force_quit_deletes_restoration`, §8.12); by default the
  /// one of the window shown last survives, as on the devices (§8.12).
  public var forceQuitDeletesRestoration: Bool
  /// The last window closed in the switcher keeps its session: an iPad from
  /// iPadOS 15 (§2.11).
  public var keepsLastClosedSession: Bool

  public init(forceQuitDeletesRestoration: Bool = false, keepsLastClosedSession: Bool = false) {
    self.forceQuitDeletesRestoration = forceQuitDeletesRestoration
    self.keepsLastClosedSession = keepsLastClosedSession
  }

  public init(profile: OSProfile, model: DeviceModel?, quirks: QuirkSet) {
    self.init(forceQuitDeletesRestoration: quirks.contains(.forceQuitDeletesRestoration),
              keepsLastClosedSession: model?.showsWindowsSideBySide == true && profile.lastClosedWindowKeepsSession)
  }
}

/// An input to the rules of a scene app's restoration activities (§2.11).
public enum RestorationEvent: Equatable, Sendable {
  /// `sceneDidEnterBackground:` returned for a scene.
  case enteredBackground(scene: Int32)
  /// `stateRestorationActivityForScene:` returned an activity for a scene.
  case returned(HostToken, scene: Int32)
  /// A scene connects with a new session.
  case connects(scene: Int32)
  /// A scene's session is discarded.
  case discarded(scene: Int32)
  /// A force-quit ended; `surviving` is what it took out of the sessions
  /// (`App.takeActivitySurvivingForceQuit`).
  case forceQuitEnded(surviving: HostToken?)
}

/// What a step of the restoration rules asks the device to do.
public enum RestorationEffect: Equatable, Sendable {
  /// `stateRestorationActivityForScene:` to the scene's delegate; what it
  /// returns comes back as `.returned`.
  case ask(scene: Int32)
  /// The host lets go of an activity nothing holds any more.
  case release(HostToken)
}

extension App {
  /// One step of scene state restoration (§2.11): the activity the scene
  /// delegate gives when its scene goes to the background becomes its
  /// session's, handed back at the session's next connection; an activity
  /// a force-quit carried goes to the next new session. Each activity is
  /// held by one place at a time: the one it replaces is released.
  public mutating func reduce(_ event: RestorationEvent) -> Effects<RestorationEffect> {
    switch event {
    case .enteredBackground(let number):
      // Asked only of an app that implements it.
      return implemented.contains(.stateRestorationActivity) ? Effects(.ask(scene: number)) : Effects()
    case .returned(let token, let number):
      // Its session was discarded meanwhile: nothing would hold the activity.
      guard let i = sceneIndex(number) else { return Effects(.release(token)) }
      return Self.replace(&scenes[i].restorationActivity, with: token)
    case .connects(let number):
      // A new session takes the activity a force-quit left (§8.12).
      guard let token = carriedRestorationActivity, let i = sceneIndex(number) else { return Effects() }
      carriedRestorationActivity = nil
      return Self.replace(&scenes[i].restorationActivity, with: token)
    case .discarded(let number):
      // A session that goes takes its activity with it.
      guard let i = sceneIndex(number), let token = scenes[i].restorationActivity else { return Effects() }
      scenes[i].restorationActivity = nil
      return Effects(.release(token))
    case .forceQuitEnded(let surviving):
      guard let token = surviving else { return Effects() }
      return Self.replace(&carriedRestorationActivity, with: token)
    }
  }

  /// The activity a force-quit does not delete on the devices (iOS 15,
  /// §8.12): the one of the window shown last, taken out of its session so
  /// that the discard does not release it; `.forceQuitEnded` carries it.
  public mutating func takeActivitySurvivingForceQuit(facts: RestorationFacts) -> HostToken? {
    guard !facts.forceQuitDeletesRestoration, let focus = focusScene, let i = sceneIndex(focus),
          let token = scenes[i].restorationActivity else { return nil }
    scenes[i].restorationActivity = nil
    return token
  }

  private static func replace(_ slot: inout HostToken?, with token: HostToken) -> Effects<RestorationEffect> {
    let old = slot
    slot = token
    return old.map { Effects(.release($0)) } ?? Effects()
  }
}
