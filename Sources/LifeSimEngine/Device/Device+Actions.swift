// User and system actions. Each records an `action` record, runs its
// whole cascade at the current time, then lets events due now fire.
extension Device {
  /// Taps an app's icon: a cold launch, or a return to the foreground (§0).
  /// Another app on screen goes to the background first.
  /// - Parameter url: a URL to open (`dev:launch(app, { url = … })`).
  public func launch(_ id: AppID, url: String? = nil) throws {
    try begin(url == nil ? .launch : .openURL, as: .action(.launch), app: id, detail: url) { try requireUnlocked(.action(.launch)) }
    try run(.bringToFront(id), url: url)
    try settle()
  }

  /// Opens a URL in an app, cold or warm (§2.7).
  public func openURL(_ id: AppID, url: String) throws {
    try begin(.openURL, app: id, detail: url) { try requireUnlocked(.action(.openURL)) }
    try run(.bringToFront(id), url: url)
    try settle()
  }

  /// Presses Home (or swipes up): the app on screen goes to the background (§2.2).
  public func home() throws {
    try begin(.home) { try requireUnlocked(.action(.home)) }
    try run(.home)
    try settle()
  }

  /// Locks the device: from iOS 5 like Home, on iOS 4 only a resign (§2.3).
  public func lock() throws {
    try begin(.lock) {
      if isLocked { throw SimulationError.invalidAction(.action(.lock), .alreadyLocked) }
    }
    try run(.lock)
    try settle()
  }

  /// Unlocks the device: the app that was on screen returns (§2.3).
  public func unlock() throws {
    try begin(.unlock) {
      guard isLocked else { throw SimulationError.invalidAction(.action(.unlock), .notLocked) }
    }
    try run(.unlock)
    try settle()
  }

  /// Shows a temporary interruption: the frontmost app resigns active (§2.4).
  /// - Parameter callStyle: for a call, how it shows; nil means the profile's
  ///   default (a banner from iOS 14).
  public func interrupt(_ kind: Interruption, callStyle: CallStyle? = nil) throws {
    let banner = screenFacts.showsBanner(kind, style: callStyle)
    try begin(.interrupt, detail: banner ? "call banner" : kind.description) {
      if let current = interruption { throw SimulationError.interruptionShowing(.action(.interrupt), current) }
    }
    try run(.interrupt(kind, callStyle: callStyle))
    try settle()
  }

  /// Dismisses the interruption: the app becomes active again (§2.4). With
  /// `accept` (answering a call) the app goes to the background instead.
  public func endInterrupt(accept: Bool = false) throws {
    try begin(.endInterrupt, detail: accept ? "accept" : nil) {
      guard interruption != nil else {
        throw SimulationError.invalidAction(.action(.endInterrupt), .noInterruption)
      }
    }
    try run(.endInterrupt(accept: accept))
    try settle()
  }

  /// An answered call ends: iOS returns to the app that was in front when a
  /// full-screen call was answered (it enters the foreground and becomes
  /// active, or launches if it died meanwhile); after a banner call nothing
  /// changes for the app (§2.4).
  public func endCall() throws {
    try begin(.endCall) {
      guard screen.callInProgress else {
        throw SimulationError.invalidAction(.action(.endCall), .noAnsweredCall)
      }
    }
    try run(.endCall)
    try settle()
  }

  /// The user taps a delivered notification of `id`, on a banner or in
  /// Notification Center (§2.12). An app with a `UNUserNotificationCenter`
  /// delegate (a handler for `userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:`)
  /// gets that method; one without gets, for a remote notification, the legacy
  /// `application:didReceiveRemoteNotification:fetchCompletionHandler:`. Either
  /// way the app comes forward first (cold: the launch options carry the
  /// notification in the app-delegate model) and the method runs while it is
  /// still inactive, just before it becomes active; an app already active gets
  /// it at once.
  public func openNotification(_ id: AppID, remote: Bool) throws {
    try begin(.openNotification, app: id, detail: remote ? "remote" : "local") {
      try requireUnlocked(.action(.openNotification))
    }
    try run(.notificationOpened(id, remote: remote, app: notificationApp(id)))
    try settle()
  }

  /// A notification of `id` arrives (§2.12). In front and active, an app with
  /// a `UNUserNotificationCenter` delegate gets
  /// `userNotificationCenter:willPresentNotification:withCompletionHandler:`;
  /// without one, a remote notification reaches the legacy
  /// `application:didReceiveRemoteNotification:fetchCompletionHandler:`.
  /// Otherwise the system shows it and the app hears nothing until it is opened.
  public func notify(_ id: AppID, remote: Bool) throws {
    try begin(.notify, app: id, detail: remote ? "remote" : "local")
    try run(.notificationArrives(id, remote: remote, app: notificationApp(id)))
    try settle()
  }

  /// What the notification rules read of an app: implemented, not merely
  /// covered by on("*"): implementing a delegate method is setting a delegate.
  func notificationApp(_ id: AppID) -> NotificationApp {
    NotificationApp(active: self[id].state == .active,
                    willPresent: self[id].implemented.contains(.userNotificationCenterWillPresent),
                    didReceive: self[id].implemented.contains(.userNotificationCenterDidReceive))
  }

  /// Opens the app switcher: the frontmost app resigns active (§2.5).
  public func openSwitcher() throws {
    try begin(.switcher) { try requireUnlocked(.action(.switcher)) }
    try run(.openSwitcher)
    try settle()
  }

  /// Picks an app in the switcher (opening it first if needed). The same app
  /// becomes active without `…WillEnterForeground:`; another one comes forward
  /// and the old one goes to the background (§2.5).
  public func switchTo(_ id: AppID) throws {
    try begin(.switchTo, app: id) { try requireUnlocked(.action(.switchTo)) }
    try run(.switchTo(id))
    try settle()
  }

  /// Force-quits an app from the switcher (opening it first if needed), in the
  /// three cases of §2.6: frontmost, running in the background, suspended.
  public func forceQuit(_ id: AppID) throws {
    try begin(.forceQuit, app: id) { try requireUnlocked(.action(.forceQuit)) }
    try run(.forceQuit(id))
    try settle()
  }

  /// Memory pressure from outside the apps (the system or another process
  /// grows): jetsam kills, in its own order, every process below the
  /// foreground band, that is suspended and background processes that do not
  /// play audio (reference §4: the lowest bands go first). What the user sees
  /// survives.
  public func memoryPressure() throws {
    try begin(.memoryPressure)
    try run(MemoryEvent.pressure)
    try settle()
  }

  /// Sends a memory warning to every app that runs code; suspended apps get
  /// none (reference §0 "Memory warning", §2.9).
  public func memoryWarning() throws {
    try begin(.memoryWarning)
    try run(MemoryEvent.simulatedWarning)
    try settle()
  }

  // MARK: - Helpers

  /// The app whose code runs now, if any.
  public var runningApp: AppID? {
    switch busy {
    case .callback(let id, _), .notification(let id, _), .appTimer(let id), .expiration(let id): return id
    case .script, .policy, nil: return nil
    }
  }
}
