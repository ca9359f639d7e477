import CLua
import CLuaShim
import LifeSimEngine

// The app object: app:on, app:observe, navigation, and its fields.
extension API {
  static let appRows: [APIRow] = [
    .method(.app, "on", "app:on(\"selector\" | \"*\", function(ctx) … end)",
            "Handles a callback of the app, its scenes, view controllers and views.") { try $0.appOn() },
    .method(.app, "observe", "app:observe(\"UIApplication…Notification\", function(ctx) … end)",
            "Observes a notification the app receives.") { try $0.appObserve() },
    .method(.app, "open_scene", "local s = app:open_scene([{ beside = true }])",
            "Opens another window (scene apps); beside = true keeps the first on screen next to it (iPads).") { try $0.appOpenScene() },
    .method(.app, "push", "app:push{ class =, from = \"storyboard\" | \"xib\" | \"code\", on = { … } }",
            "Pushes a view controller onto the navigation stack.") { try $0.appPush() },
    .method(.app, "pop", "app:pop()", "Pops the top view controller.") { try $0.appSimple { try $0.pop(app: $1) } },
    .method(.app, "pop_gesture", "app:pop_gesture{ cancel = true | false }",
            "An interactive pop, finished or cancelled half way.") { try $0.appGesture { try $0.popGesture(app: $1, cancel: $2) } },
    .method(.app, "present", "app:present(spec [, { style = \"fullScreen\" | \"pageSheet\" | \"formSheet\" | \"overFullScreen\" }])",
            "Presents a view controller modally; the default style depends on the profile.") { try $0.appPresent() },
    .method(.app, "dismiss", "app:dismiss()", "Dismisses the presented view controller.") { try $0.appSimple { try $0.dismiss(app: $1) } },
    .method(.app, "dismiss_gesture", "app:dismiss_gesture{ cancel = true | false }",
            "An interactive sheet dismissal, finished or cancelled.") { try $0.appGesture { try $0.dismissGesture(app: $1, cancel: $2) } },

    appField("bundle", "The bundle id.") { L, _, _, app in push(L, app.config.bundle) },
    appField("state", "What the app has been told: \"notRunning\", \"inactive\", \"active\", \"background\" or \"suspended\".") { L, _, _, app in push(L, app.state.description) },
    appField("system_state", "What the system has decided for the app: its state, or where the requests that wait for its busy main thread lead (ctx:work).") { L, slot, id, _ in
      push(L, slot.device.systemState(id).description)
    },
    appField("pid", "The process id while it runs, else nil.") { L, _, _, app in
      if app.pid != 0 { push(L, Int(app.pid)) } else { lua_pushnil(L) }
    },
    appField("launches", "How many times a process was started.") { L, _, _, app in push(L, app.launches) },
    appField("running", "Whether a process exists (suspended counts).") { L, _, _, app in push(L, app.state.isRunning) },
    appField("model", "\"scene\" or \"app_delegate\".") { L, _, _, app in push(L, app.model == .scene ? "scene" : "app_delegate") },
    appField("scenes", "The open scene sessions, connected or not, in order of creation.") { L, slot, id, app in
      pushArray(L, app.scenes) { slot.runtime.pushScene($0.number, of: id, on: slot) }
    },
    appField("footprint_mb", "The memory footprint in MB (the installed size while not running).") { L, _, _, app in
      push(L, app.state.isRunning ? app.footprintMB : app.config.footprintMB)
    },
    appField("exits_on_suspend", "UIApplicationExitsOnSuspend.") { L, _, _, app in push(L, app.config.exitsOnSuspend) },
    appField("background_modes", "The background modes it declares.") { L, _, _, app in push(L, app.config.backgroundModes) },
    appField("background_gpu", "Whether it has the Background GPU Access entitlement (dev:install's background_gpu).") { L, _, _, app in
      push(L, app.config.backgroundGPU)
    },
    appField("background_time_remaining", "backgroundTimeRemaining, in seconds.") { L, slot, id, _ in
      push(L, slot.device.backgroundTimeRemaining(id))
    },
    appField("background_refresh_status", "backgroundRefreshStatus: \"available\", or \"denied\" while Background App Refresh is off for it, for the device or in Low Power Mode.") { L, slot, id, _ in
      push(L, slot.device.backgroundRefreshAvailable(id) ? "available" : "denied")
    },
    appField("unsaved", "Unsaved changes that a death would lose.") { L, _, _, app in push(L, app.unsaved) },
    appField("playing_audio", "Whether it plays audio.") { L, _, _, app in push(L, app.playingAudio) },
    appField("band", "Its jetsam priority band.") { L, _, _, app in push(L, app.band.rawValue) },
    appField("tasks", "Its open background tasks.") { L, slot, id, app in
      pushArray(L, app.tasks) { slot.runtime.pushTask($0.id, of: id, on: slot) }
    },
    appField("top", "The view controller on top of its focus window, or nil.") { L, slot, id, _ in
      if let vc = slot.device.top(of: id) { slot.runtime.pushViewController(vc, on: slot) } else { lua_pushnil(L) }
    },
    appField("stack", "The navigation stack of its focus window.") { _, slot, id, _ in
      slot.runtime.pushViewControllers(slot.device.focusWindow(of: id)?.stack ?? [], on: slot)
    },
    appField("presented", "The view controllers presented in its focus window.") { _, slot, id, _ in
      slot.runtime.pushViewControllers(slot.device.focusWindow(of: id)?.presented ?? [], on: slot)
    },

    .meta(.app, "__tostring") { try $0.appToString() },
  ]

  private static func appField(_ name: String, _ summary: String,
                               _ get: @escaping (LuaState, DeviceSlot, AppID, App) throws -> Void) -> APIRow {
    .field(.app, name, summary) { rt in
      let (slot, id) = try rt.selfApp()
      try get(rt.L, slot, id, slot.device[id])
    }
  }
}

extension LuaRuntime {
  func selfApp() throws -> (DeviceSlot, AppID) {
    let h = try checkHandle(1, .app)
    return (try slot(h.device), AppID(Int(h.index)))
  }

  /// `app:on(selector, fn)`: the app's delegate method for `selector`; "*" for
  /// every callback. Registering a selector again replaces its handler.
  func appOn() throws -> Int32 {
    let (slot, id) = try selfApp()
    let selector = try args.string(2)
    try args.function(3)
    let app = Int(id.index)
    if selector == "*" {
      if slot.functions[app].wildcard != 0 { slot.free(slot.functions[app].wildcard) }
      slot.functions[app].wildcard = slot.store(3)
      slot.device.setHandlesAll(for: id)
      return 0
    }
    guard let callback = Callback(selector: selector) else {
      if AppNotification(name: selector) != nil {
        throw ArgumentError(position: 2, message: "'\(selector)' is a notification; use app:observe for it")
      }
      let names = Callback.allCases.map(\.selector)
      throw ArgumentError(position: 2, message: "unknown callback \(shownName(selector))\(suggestion(for: selector, in: names))")
    }
    let c = Int(callback.rawValue)
    let old = slot.functions[app].handler(for: c)
    if old != 0 { slot.free(old) }
    slot.functions[app].setHandler(slot.store(3), for: c)
    slot.device.setHandled(callback, for: id)
    return 0
  }

  /// `app:observe(notification, fn)`: observers run after the delegate method,
  /// in the order they were added.
  func appObserve() throws -> Int32 {
    let (slot, id) = try selfApp()
    let name = try args.string(2)
    try args.function(3)
    guard let n = AppNotification(name: name) else {
      if Callback(selector: name) != nil {
        throw ArgumentError(position: 2, message: "'\(name)' is a callback; use app:on for it")
      }
      let names = AppNotification.allCases.map(\.name)
      throw ArgumentError(position: 2, message: "unknown notification '\(name)'\(suggestion(for: name, in: names))")
    }
    slot.functions[Int(id.index)].observers[Int(n.rawValue)].append(slot.store(3))
    slot.device.setObserved(n, for: id)
    return 0
  }

  func appToString() throws -> Int32 {
    let (slot, id) = try selfApp()
    let app = slot.device[id]
    let mb = app.state.isRunning ? app.footprintMB : app.config.footprintMB
    var s = "<app \(app.config.bundle): \(app.state), \(formatNumber(mb)) MB"
    if app.pid != 0 { s += ", pid \(app.pid)" }
    push(L, s + ">")
    return 1
  }
}

