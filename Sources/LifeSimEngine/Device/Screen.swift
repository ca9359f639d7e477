/// What the user sees: the app in front, the lock, an overlay,
/// the app switcher, and the rules for changing it.
///
/// `reduce` is the one place that says what Home, a lock, an unlock, an
/// interruption, the end of one, the end of a call and the app switcher do:
/// it changes the screen and returns what the apps must go through
/// (`ScreenEffect`). The device applies the effects in order; where a rule
/// depends on what the app's handlers did (an app killed in its resign
/// handler is no longer on screen), the rule returns a follow-up event
/// (`.then`) that the device sends back once the effects before it ran.
///
///     var s = Screen()
///     s.frontmost = notes
///     s.reduce(.home, facts: facts)   // [.sendToBackground(notes), .leaveScreen(notes)]
public struct Screen: Sendable, Equatable {
  /// The app on screen (or the one that returns on unlock).
  public var frontmost: AppID?
  public var isLocked = false
  /// A temporary interruption over the app in front (reference §2.4).
  public var interruption: Interruption?
  public var isSwitcherOpen = false
  /// The interruption showing lets the app in front be active under it (a
  /// Notification Center pulled all the way down on iOS 11–12, §2.4).
  public var activeUnderInterruption = false
  /// An answered call goes on (a green pill in the status bar).
  public var callInProgress = false
  /// The app that was in front when a full-screen call was answered: iOS
  /// returns to it when the call ends.
  public var callReturnsTo: AppID?

  public init() {}

  /// Nothing covers the app in front: it may be active.
  public var isClear: Bool {
    !isLocked && (interruption == nil || activeUnderInterruption) && !isSwitcherOpen
  }

  /// The user leaves the app in front for Home, a lock or another app: the
  /// switcher and any overlay close with it.
  mutating func closeOverlays() {
    isSwitcherOpen = false
    clearInterruption()
  }

  /// The app left the screen with no screen event: it died, was force-quit,
  /// or its last window closed. Nothing is in front until the user picks.
  mutating func appLeft(_ id: AppID) {
    if frontmost == id { frontmost = nil }
  }

  /// No interruption shows, so none lets the app be active under it.
  private mutating func clearInterruption() {
    interruption = nil
    activeUnderInterruption = false
  }

  // MARK: - Rules

  /// Applies one event to the screen.
  ///
  /// The device checks first that the action is allowed (unlocked, an
  /// interruption to end, …); a refused action never gets here.
  /// - Parameters:
  ///   - event: what the user or the system did, or a follow-up.
  ///   - facts: what the profile and the device model say about it.
  /// - Returns: what the apps go through, in order.
  @inline(__always)
  public mutating func reduce(_ event: ScreenEvent, facts: ScreenFacts) -> Effects<ScreenEffect> {
    switch event {
    case .home:
      // §2.2: the app on screen goes to the background.
      closeOverlays()
      guard let f = frontmost else { return Effects() }
      // Its handlers see it in front while it goes; no action can run in
      // them, so after them it is in front or has died, and then nothing is.
      return Effects(.sendToBackground(f), .leaveScreen(f))

    case .lock:
      // §2.3: from iOS 5 like Home, but the app stays the one to return on
      // unlock; on iOS 4 only a resign. §0: protected data locks later.
      isLocked = true
      closeOverlays()
      var effects: Effects<ScreenEffect> = Effects(.lockProtectedData)
      guard let f = frontmost else { return effects }
      if facts.lockEntersBackground {
        if facts.lockReactivates { effects.append(.reactivateOnLock(f)) }
        effects.append(.sendToBackground(f))
      } else {
        effects.append(.walk(.toInactive, f))
      }
      return effects

    case .unlock:
      isLocked = false
      return Effects(.unlockProtectedData, .then(.protectedDataUnlocked))

    case .protectedDataUnlocked:
      // §2.3: the app that was on screen returns; an overlay that arrived
      // while locked (a call) still covers it (§2.4).
      guard let f = frontmost else { return Effects() }
      return Effects(.walk(interruption == nil ? .toActive : .toInactive, f))

    case .interrupt(let kind, let callStyle):
      if kind == .notificationCenterPeek {
        // §2.4: the shade is pulled part way and springs back: resign, then
        // become active again, with nothing left showing.
        guard let f = frontmost, !isLocked, !isSwitcherOpen else { return Effects() }
        return Effects(.walk(.toInactive, f), .then(.peekResigned(f)))
      }
      interruption = kind
      if facts.showsBanner(kind, style: callStyle) {
        // §2.4, iOS 14+: the compact banner leaves the app under it active.
        activeUnderInterruption = true
        return Effects()
      }
      guard let f = frontmost, !isLocked else { return Effects() }
      if kind == .notificationCenter && facts.notificationCenterReactivates {
        return Effects(.walk(.toInactive, f), .then(.notificationCenterResigned(f)))
      }
      return Effects(.walk(.toInactive, f))

    case .peekResigned(let f):
      // Killed in its resign handler, the app is no longer on screen to return.
      guard frontmost == f else { return Effects() }
      return Effects(.walk(.toActive, f))

    case .notificationCenterResigned(let f):
      // §2.4, iOS 11–12: fully pulled down, Notification Center lets the app
      // become active again.
      guard frontmost == f, !isSwitcherOpen else { return Effects() }
      activeUnderInterruption = true
      return Effects(.walk(.toActive, f))

    case .endInterrupt(let accept):
      guard let current = interruption else { return Effects() }
      let wasActiveUnder = activeUnderInterruption
      clearInterruption()
      if current == .call && accept { callInProgress = true }
      // A call banner: the app was never interrupted; answering keeps the
      // call in the compact banner and the app in front.
      if current == .call && wasActiveUnder { return Effects() }
      if wasActiveUnder, let f = frontmost, !isLocked, !isSwitcherOpen {
        // §2.4, iOS 11–12: dismissing it resigns the app, which becomes active once more.
        return Effects(.walk(.toInactive, f), .walk(.toActive, f))
      }
      guard let f = frontmost, !isLocked else { return Effects() }
      if accept && current == .call { return Effects(.sendToBackground(f), .then(.callAnswered(f))) }
      return isSwitcherOpen ? Effects() : Effects(.walk(.toActive, f))

    case .callAnswered(let f):
      frontmost = nil
      callReturnsTo = f  // iOS returns to it when the call ends
      return Effects()

    case .endCall:
      // §2.4: iOS returns to the app that was in front when a full-screen
      // call was answered; after a banner call nothing changes for the app.
      callInProgress = false
      let back = callReturnsTo
      callReturnsTo = nil
      guard let back, frontmost == nil, !isLocked, interruption == nil, !isSwitcherOpen else { return Effects() }
      frontmost = back
      return Effects(.walk(.toActive, back))

    case .openSwitcher:
      return openSwitcher()

    case .switchTo(let id):
      // §2.5: the switcher opens first, then the app picked comes to the front.
      var effects = openSwitcher()
      effects.append(.then(.bringToFront(id)))
      return effects

    case .forceQuit(let id):
      // §2.6: the switcher opens first (the app in front resigns), then the
      // user swipes the app away, in front, in the background or suspended.
      var effects = openSwitcher()
      effects.append(.swipeAway(id))
      return effects

    case .bringToFront(let id):
      // The previous app leaves, the switcher and any overlay close.
      closeOverlays()
      if let f = frontmost, f != id { return Effects(.sendToBackground(f), .then(.takeFront(id))) }
      return takeFront(id)

    case .takeFront(let id):
      return takeFront(id)

    case .notificationArrives(let id, let remote, let app):
      // §2.12: in front and active, an app with a UNUserNotificationCenter
      // delegate hears it in willPresent; without one, a remote notification
      // reaches the legacy method. Otherwise the system shows it.
      guard frontmost == id && app.active else { return Effects() }
      let delegate = facts.notificationCenterDelegate && (app.willPresent || app.didReceive)
      let callback: Callback? = delegate ? .userNotificationCenterWillPresent : remote ? .didReceiveRemoteNotification : nil
      return callback.map { Effects(.deliver($0, id)) } ?? Effects()

    case .notificationOpened(let id, let remote, let app):
      // §2.12: the delegate's didReceive, or for a remote notification the
      // legacy method; an app already active in front gets it at once, any
      // other comes forward first and gets it just before it becomes active.
      let delegate = facts.notificationCenterDelegate && app.didReceive
      let callback: Callback? = delegate ? .userNotificationCenterDidReceive : remote ? .didReceiveRemoteNotification : nil
      if frontmost == id && app.active && interruption == nil && !isSwitcherOpen {
        return callback.map { Effects(.deliver($0, id)) } ?? Effects()
      }
      return Effects(.bringForwardOpening(id, remote: remote, callback: callback))
    }
  }
}

// The steps more than one event takes, as functions rather than calls of
// `reduce` on another event: a `reduce` that calls itself cannot be inlined
// whole into the loop that applies its effects, and its second copy, out of
// line, puts the common steps in two places in the instruction cache.
extension Screen {
  /// §2.5: the switcher opens, and the app in front resigns active.
  private mutating func openSwitcher() -> Effects<ScreenEffect> {
    clearInterruption()
    if isSwitcherOpen { return Effects() }
    isSwitcherOpen = true
    guard let f = frontmost else { return Effects() }
    return Effects(.walk(.toInactive, f))
  }

  /// The app comes to the front: an open if it was not there, and forward.
  private mutating func takeFront(_ id: AppID) -> Effects<ScreenEffect> {
    var effects = Effects<ScreenEffect>()
    if frontmost != id { effects.append(.countOpen(id)) }
    frontmost = id
    effects.append(.bringForward(id))
    return effects
  }
}

/// What the notification rules read of the app: whether it is active, and
/// which `UNUserNotificationCenter` delegate methods it implements (not merely
/// covers with `on("*")`: implementing one is setting a delegate).
public struct NotificationApp: Equatable, Sendable {
  public var active: Bool
  public var willPresent: Bool
  public var didReceive: Bool

  public init(active: Bool, willPresent: Bool, didReceive: Bool) {
    self.active = active
    self.willPresent = willPresent
    self.didReceive = didReceive
  }
}

/// What happens to the screen: a user action, or a follow-up that a rule asks
/// for once the apps went through the effects before it.
public enum ScreenEvent: Equatable, Sendable {
  // MARK: Actions
  /// Home, or a swipe up (§2.2).
  case home
  /// The side button locks the device (§2.3).
  case lock
  /// The user unlocks the device (§2.3).
  case unlock
  /// A temporary interruption shows (§2.4); `callStyle` nil means the profile's.
  case interrupt(Interruption, callStyle: CallStyle?)
  /// The interruption goes away; `accept` answers a call (§2.4).
  case endInterrupt(accept: Bool)
  /// An answered call ends (§2.4).
  case endCall
  /// The app switcher opens (§2.5).
  case openSwitcher
  /// The user picks an app in the switcher, opening it first if needed (§2.5).
  case switchTo(AppID)
  /// An app comes to the screen: a tap, a URL, a notification, a picked app.
  case bringToFront(AppID)
  /// The user force-quits an app from the switcher (§2.6).
  case forceQuit(AppID)
  /// A notification of the app arrives (§2.12).
  case notificationArrives(AppID, remote: Bool, app: NotificationApp)
  /// The user taps a delivered notification of the app (§2.12).
  case notificationOpened(AppID, remote: Bool, app: NotificationApp)

  // MARK: Follow-ups
  /// Protected data came back after an unlock.
  case protectedDataUnlocked
  /// The app resigned under a Notification Center peek.
  case peekResigned(AppID)
  /// The app resigned under Notification Center pulled all the way down.
  case notificationCenterResigned(AppID)
  /// The app in front went to the background for an answered call.
  case callAnswered(AppID)
  /// The previous app left the screen for this one.
  case takeFront(AppID)
}

/// What the apps go through when the screen changes; the device applies each.
public enum ScreenEffect: Equatable, Sendable {
  /// The app walks a route: `.toInactive` resigns it (or brings a background
  /// app forward, inactive), `.toActive` makes it active.
  case walk(Route, AppID)
  /// The app leaves the screen: the background, its snapshot, suspension
  /// (or its exit).
  case sendToBackground(AppID)
  /// Nothing is in front any more, once the effects before it ran
  /// (`appLeft`): the app Home sent away.
  case leaveScreen(AppID)
  /// The model's resign, activate, resign on lock (§2.3), before the app goes.
  case reactivateOnLock(AppID)
  /// The app comes to a screen it was not on: an open (and a cold one when
  /// it does not run).
  case countOpen(AppID)
  /// The app in front comes forward and becomes active, cold or warm, with
  /// the action's URL or scene; a prewarmed process is reused (§2.1).
  case bringForward(AppID)
  /// Protected data will lock some time after this lock (§0).
  case lockProtectedData
  /// Protected data comes back, if it had gone (§0).
  case unlockProtectedData
  /// The user swipes the app away: its kill record, the force-quit cascade
  /// of its model, and it leaves the screen (§2.6).
  case swipeAway(AppID)
  /// The app gets a callback where it is, in its own cascade.
  case deliver(Callback, AppID)
  /// The app comes to the front (`.bringToFront`) with an opened
  /// notification, whose callback runs as it comes forward.
  case bringForwardOpening(AppID, remote: Bool, callback: Callback?)
  /// Ask the screen again with this event once the effects before it ran.
  case then(ScreenEvent)
}

extension ScreenEffect {
  /// The app the effect is about, if it is about one.
  var app: AppID? {
    switch self {
    case .walk(_, let id), .sendToBackground(let id), .leaveScreen(let id), .reactivateOnLock(let id),
         .countOpen(let id), .bringForward(let id), .swipeAway(let id), .deliver(_, let id),
         .bringForwardOpening(let id, _, _):
      return id
    case .lockProtectedData, .unlockProtectedData, .then: return nil
    }
  }
}

/// What the profile and the device model say about the screen's rules,
/// passed in so that `Screen.reduce` reads nothing else.
public struct ScreenFacts: Equatable, Sendable {
  /// From iOS 5 a lock sends the app on screen to the background (§2.3).
  public var lockEntersBackground: Bool
  /// The model makes the app resign, become active and resign again on lock (§2.3).
  public var lockReactivates: Bool
  /// Notification Center pulled all the way down lets the app become active
  /// again under it (§2.4).
  public var notificationCenterReactivates: Bool
  /// How a call shows when the action does not say (§2.4).
  public var callStyle: CallStyle
  /// `UNUserNotificationCenter` and its delegate exist (§2.12).
  public var notificationCenterDelegate: Bool

  public init(lockEntersBackground: Bool, lockReactivates: Bool = false,
              notificationCenterReactivates: Bool = false, callStyle: CallStyle = .fullScreen,
              notificationCenterDelegate: Bool = false) {
    self.lockEntersBackground = lockEntersBackground
    self.lockReactivates = lockReactivates
    self.notificationCenterReactivates = notificationCenterReactivates
    self.callStyle = callStyle
    self.notificationCenterDelegate = notificationCenterDelegate
  }

  public init(profile: OSProfile, model: DeviceModel?) {
    self.init(lockEntersBackground: profile.lockEntersBackground, lockReactivates: model?.lockReactivates == true,
              notificationCenterReactivates: profile.notificationCenterReactivates, callStyle: profile.callStyle,
              notificationCenterDelegate: profile.hasNotificationCenterDelegate)
  }

  /// Whether an interruption shows as a compact banner that leaves the app
  /// under it active: a call, in the banner style (§2.4).
  public func showsBanner(_ kind: Interruption, style: CallStyle?) -> Bool {
    kind == .call && (style ?? callStyle) == .banner
  }
}
