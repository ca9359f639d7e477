/// A user or system action, as recorded in the trace. Each case is a row of
/// the action table below: its name is the trace's word, the script's method
/// and the search's step; the table says what the action is made on, what it
/// takes, whether `lifesim explore` may take it and what it runs.
///
/// A new action is its engine method, a case here and its row (the compiler
/// asks for the row), and its tests: the bridge makes the script's method, the
/// search its step, and the errors their names from the row.
public enum DeviceAction: UInt8, CaseIterable, Sendable, CustomStringConvertible {
  case launch, openURL, home, lock, unlock, interrupt, endInterrupt, switcher, switchTo
  case forceQuit, memoryWarning, memoryPressure, mark, openScene, closeScene, disconnectScene
  case backgroundFetch, silentPush
  case push, pop, popGesture, present, dismiss, dismissGesture, rotate, addView, removeView
  case endCall, openNotification, notify, addChild, removeFromParent
  case prewarm, runIntent

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
