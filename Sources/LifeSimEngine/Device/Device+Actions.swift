// User and system actions: the action table (`DeviceAction`, one row per
// action) and the device's methods that take them. Each method records an
// `action` record or refuses it (`begin`), runs a part's event, whose rules
// decide what follows, and lets events due now fire (`settle`).

/// A user or system action, as recorded in the trace. Each case is a row of
/// the action table below: its name is the trace's word, the script's method
/// and the search's step; the table says what the action is made on, what it
/// takes, whether `lifesim explore` may take it and what it runs.
///
/// A new device action is its method (below the table), a case here and its
/// row (the compiler asks for the row), the part's rule its event reaches, and
/// its tests: the bridge makes the script's method, the search its step, and
/// the errors their names from the row.
public enum DeviceAction: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case launch, openURL, home, lock, unlock, interrupt, endInterrupt, switcher, switchTo
  case forceQuit, memoryWarning, memoryPressure, mark, openScene, closeScene, disconnectScene
  case backgroundFetch, silentPush
  case push, pop, popGesture, present, dismiss, dismissGesture, rotate, addView, removeView
  case endCall, openNotification, notify, addChild, removeFromParent
  case prewarm, runIntent
  case runTask, expireTask, charging, network, cancelTask
  case backgroundRefresh, lowPowerMode

  /// The table. Rows are made once, in case order (`ActionRow.table`).
  var definition: ActionRow {
    typealias R = ActionRow
    switch self {
    case .launch:
      return R(self, "launch", arguments: .app, explore: .yes, reads: .more,
               summary: "Taps the app's icon: a cold launch, or a return to the foreground.") { try $0.launch($1!) }
    case .openURL:
      return R(self, "open_url", arguments: .app, reads: .more, summary: "Opens a URL in the app, launching it if needed.")
    case .home:
      return R(self, "home", explore: .yes, summary: "Presses Home: the frontmost app goes to the background.") { d, _ in try d.home() }
    case .lock:
      return R(self, "lock", explore: .yes, summary: "Locks the device.") { d, _ in try d.lock() }
    case .unlock:
      return R(self, "unlock", explore: .yes, summary: "Unlocks the device.") { d, _ in try d.unlock() }
    case .interrupt:
      // The search's `call` is a full-screen or banner call, as the profile shows one.
      return R(self, "interrupt", explore: .step("call") { try $0.interrupt(.call) }, reads: .more,
               summary: "An interruption over the frontmost app (it resigns active; a call banner leaves it active).")
    case .endInterrupt:
      return R(self, "end_interrupt", explore: .yes, reads: .more,
               summary: "Ends the interruption; accepting a full-screen call sends the app to the background.") { d, _ in
        try d.endInterrupt()
      }
    case .switcher:
      return R(self, "switcher", explore: .yes, summary: "Opens the app switcher.") { d, _ in try d.openSwitcher() }
    case .switchTo:
      return R(self, "switch_to", arguments: .app, summary: "Picks an app in the switcher.") { try $0.switchTo($1!) }
    case .forceQuit:
      return R(self, "kill", arguments: .app, explore: .yes, summary: "Force-quits the app from the switcher.") {
        try $0.forceQuit($1!)
      }
    case .memoryWarning:
      return R(self, "memory_warning", explore: .yes,
               summary: "Sends a memory warning, as Simulator's \"Simulate Memory Warning\".") { d, _ in try d.memoryWarning() }
    case .memoryPressure:
      return R(self, "memory_pressure", explore: .yes,
               summary: "Memory pressure from outside the apps: jetsam kills every suspended or background process, lowest band first.") { d, _ in
        try d.memoryPressure()
      }
    case .mark:
      return R(self, "mark", reads: .more)  // not a user's action: a position in the trace
    case .openScene: return R(self, "open_scene", on: .app)
    case .closeScene: return R(self, "close_scene", on: .scene, method: "close")
    case .disconnectScene: return R(self, "disconnect_scene", on: .scene, method: "disconnect")
    case .backgroundFetch:
      return R(self, "background_fetch", arguments: .app, explore: .yes,
               summary: "A background fetch: launches or wakes the app in the background.") { try $0.backgroundFetch($1!) }
    case .silentPush:
      return R(self, "silent_push", arguments: .app,
               summary: "A silent push: launches or wakes the app in the background.") { try $0.silentPush($1!) }
    case .push: return R(self, "push", on: .app)
    case .pop: return R(self, "pop", on: .app)
    case .popGesture: return R(self, "pop_gesture", on: .app)
    case .present: return R(self, "present", on: .app)
    case .dismiss: return R(self, "dismiss", on: .app)
    case .dismissGesture: return R(self, "dismiss_gesture", on: .app)
    case .rotate:
      return R(self, "rotate", summary: "Rotates the device: a layout pass without appearance callbacks.") { d, _ in try d.rotate() }
    case .addView: return R(self, "add_view", on: .anyView)
    case .removeView: return R(self, "remove_view", on: .view, method: "remove")
    case .endCall:
      return R(self, "end_call", summary: "An answered call ends; iOS returns to the app a full-screen call interrupted.") { d, _ in
        try d.endCall()
      }
    case .openNotification:
      return R(self, "open_notification", arguments: .app, reads: .more,
               summary: "The user taps the app's notification (a banner or a Notification Center entry).")
    case .notify:
      return R(self, "notify", arguments: .app, reads: .more,
               summary: "A notification of the app arrives; in front, the app may present it.")
    case .addChild: return R(self, "add_child", on: .viewController)
    case .removeFromParent: return R(self, "remove_from_parent", on: .viewController)
    case .prewarm:
      return R(self, "prewarm", arguments: .app,
               summary: "iOS 15+: the system starts the app's process before any tap; the launch methods run, no scene connects.") {
        try $0.prewarm($1!)
      }
    case .runIntent:
      return R(self, "run_intent", arguments: .app, reads: .more,
               summary: "iOS 16+: Shortcuts or Siri runs an App Intent; without opens_app the app runs in the background with no scene.")
    case .runTask:
      // A search step takes the app's first pending request (`run_task com.example.feed`).
      return R(self, "run_task", arguments: .app, explore: .yes, reads: .more,
               summary: "A pending BGTaskScheduler request runs now, as the debugger's _simulateLaunchForTaskWithIdentifier: does.") {
        try $0.runTask($1!, identifier: nil)
      }
    case .expireTask:
      return R(self, "expire_task", arguments: .app, explore: .yes, reads: .more,
               summary: "A running BGTaskScheduler task expires now, as the debugger's _simulateExpirationForTaskWithIdentifier: does.") {
        try $0.expireTask($1!, identifier: nil)
      }
    case .charging:
      return R(self, "charging", reads: .more, summary: "The device is on external power, or not (what processing tasks may require).")
    case .network:
      return R(self, "network", reads: .more, summary: "The device has a network connection, or not (what processing tasks may require).")
    case .backgroundRefresh:
      return R(self, "background_refresh", reads: .more,
               summary: "Turns Background App Refresh on or off in Settings, for the device or for one app.")
    case .lowPowerMode:
      return R(self, "low_power_mode", reads: .more, summary: "Turns Low Power Mode on or off: it turns Background App Refresh off.")
    case .cancelTask:
      return R(self, "cancel_task", arguments: .app, explore: .yes, reads: .more,
               summary: "iOS 26: the user cancels a continued processing task in its Live Activity; its expiration handler runs (one waiting in the queue is dropped).") {
        try $0.cancelContinuedTask($1!, identifier: nil)
      }
    }
  }

  /// The row of the action table.
  public var row: ActionRow { ActionRow.table[Int(rawValue)] }

  /// The trace's word: `end_call`.
  public var description: String { ActionRow.table[Int(rawValue)].name }
}

/// One row of the action table (`DeviceAction.definition`).
public struct ActionRow: Sendable {
  /// What an action is made on: the device, or one of an app's objects.
  public enum Target: Sendable {
    case device, app, scene, viewController, view
    /// A view controller or a view: the action has the same name on both.
    case anyView
  }

  /// What a device action takes before any options: nothing, or an app.
  public enum Arguments: Sendable { case none, app }

  /// Whether the caller reads more than `arguments` (options such as a URL
  /// or `accept`) and calls the engine itself, or `run` is the whole action.
  public enum Reads: Sendable { case exactly, more }

  /// How `lifesim explore` may take the action.
  public enum Explore: Sendable {
    /// Not at all.
    case no
    /// As `run` does it, under the action's name: once, or once per app
    /// (`kill com.example.notes`) when it takes an app.
    case yes
    /// As a step of its own name that runs `perform` (a `call` is an interrupt).
    case step(String, perform: @Sendable (Device) throws -> Void)
  }

  public let action: DeviceAction
  /// The trace's word, the method's name on the device, the search's step.
  public let name: String
  public let target: Target
  /// The method's name on its target, when it differs from `name` (`scene:close`).
  public let method: String
  public let arguments: Arguments
  public let reads: Reads
  public let explore: Explore
  /// One sentence in iOS terms, for the device method's documentation.
  public let summary: String
  /// What the action runs with its `arguments` (the app, or nil).
  public let run: (@Sendable (Device, AppID?) throws -> Void)?

  init(_ action: DeviceAction, _ name: String, on target: Target = .device, method: String? = nil,
       arguments: Arguments = .none, explore: Explore = .no, reads: Reads = .exactly, summary: String = "",
       run: (@Sendable (Device, AppID?) throws -> Void)? = nil) {
    self.action = action
    self.name = name
    self.target = target
    self.method = method ?? name
    self.arguments = arguments
    self.reads = reads
    self.explore = explore
    self.summary = summary
    self.run = run
  }

  /// Every row, in `DeviceAction` order.
  public static let table: [ActionRow] = DeviceAction.allCases.map(\.definition)

  /// The search's steps an action gives, in table order, before the script's
  /// own and the clock's: a name, or with `perApp` a name followed by each
  /// app's bundle id.
  public static var exploreSteps: [(name: String, perApp: Bool)] {
    table.compactMap { row in
      switch row.explore {
      case .no: return nil
      case .yes: return (row.name, row.arguments == .app)
      case .step(let name, _): return (name, false)
      }
    }
  }

  /// The row a search step names: a step of its own (`call`), or an action
  /// that runs with its arguments alone, under its name.
  public static func stepping(_ name: Substring) -> ActionRow? {
    table.first { row in
      if case .step(let step, _) = row.explore { return step == name }
      return row.run != nil && row.name == name
    }
  }

  /// Whether the search's default alphabet has this action's step for `app`
  /// on a device of `profile`: no step the device can only refuse. The
  /// BGTaskScheduler steps are for an app that declares task identifiers
  /// (a user's cancel, on iOS 26), and background fetch for one that does
  /// not, where BGTaskScheduler exists (§3.5).
  public func explores(_ app: App, on profile: OSProfile) -> Bool {
    let declares = !app.config.backgroundTasks.isEmpty
    switch action {
    case .runTask, .expireTask: return declares && profile.hasTaskScheduler
    case .cancelTask: return declares && profile.hasContinuedProcessing
    case .backgroundFetch: return !(declares && profile.hasTaskScheduler)
    default: return true
    }
  }

  /// Whether the search's step is the action itself, under its name, rather
  /// than a step of its own (`call` for an interrupt).
  public var isStepItself: Bool {
    if case .step = explore { return false }
    return true
  }

  /// Takes the action as a search step: `run` with the app when the step is
  /// the action itself, else the step's own `perform`.
  public func step(on device: Device, app: AppID?) throws {
    if case .step(_, let perform) = explore { return try perform(device) }
    try run?(device, app)
  }
}

// MARK: - The device's actions

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
    scheduleTasksThatMayRun()  // §3.5: the device is idle
    try settle()
  }

  /// Unlocks the device: the app that was on screen returns (§2.3).
  public func unlock() throws {
    try begin(.unlock) {
      guard isLocked else { throw SimulationError.invalidAction(.action(.unlock), .notLocked) }
    }
    try run(.unlock)
    try expireProcessingTasks()  // §3.5: the user starts using the device
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
  /// An app with no process is noted in the action's record, not killed: a
  /// card is swiped away, or (a script may ask, and `explore` tries it)
  /// nothing is; either way the app is not launched in the background
  /// again until the user opens it.
  public func forceQuit(_ id: AppID) throws {
    let detail: String? = self[id].state.isRunning ? nil
      : self[id].hasSwitcherCard ? "(not running: only its card leaves the switcher)"
      : "(not running, and no card in the switcher: nothing to swipe away)"
    try begin(.forceQuit, app: id, detail: detail) { try requireUnlocked(.action(.forceQuit)) }
    try run(.forceQuit(id))
    try settle()
  }

  /// Rotates the device: the view controllers on screen hear of the new size
  /// (`viewWillTransitionToSize:withTransitionCoordinator:`, iOS 8+), then
  /// their bounds change and they lay out once, with no appearance callbacks
  /// (§5.3: layout follows bounds).
  public func rotate() throws {
    try begin(.rotate)
    try reachOnScreen(ViewControllerEvent.willTransitionToSize)
    try reachOnScreen(ViewControllerEvent.boundsChanged, laysOut: true)
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
    case .callback(let id, _), .notification(let id, _), .appTimer(let id), .expiration(let id), .taskLaunch(let id): return id
    case .script, .policy, nil: return nil
    }
  }
}
