import CLua
import CLuaShim
import LifeSimEngine

// The app object: app:on, app:observe, and its fields.
extension LuaRuntime {
  func selfApp() throws -> (DeviceSlot, AppID) {
    let h = try checkHandle(1, .app)
    return (try slot(h.device), AppID(Int(h.index)))
  }

  /// `app:on(selector, fn)`: the app's delegate method for `selector`; "*" for
  /// every callback. Registering a selector again replaces its handler.
  func appOn() throws -> Int32 {
    let (slot, id) = try selfApp()
    let selector = try checkString(L, 2)
    try checkFunction(L, 3)
    let app = Int(id.index)
    if selector == "*" {
      if let old = slot.wildcard[app] { slot.free(old) }
      slot.wildcard[app] = slot.store(3)
      slot.device.setHandlesAll(for: id)
      return 0
    }
    guard let callback = Callback(selector: selector) else {
      if AppNotification(name: selector) != nil {
        throw ArgumentError(position: 2, message: "'\(selector)' is a notification; use app:observe for it")
      }
      let names = Callback.allCases.map(\.selector)
      throw ArgumentError(position: 2, message: "unknown callback '\(selector)'\(suggestion(for: selector, in: names))")
    }
    if let old = slot.handlers[app][callback.rawValue] { slot.free(old) }
    slot.handlers[app][callback.rawValue] = slot.store(3)
    slot.device.setHandled(callback, for: id)
    return 0
  }

  /// `app:observe(notification, fn)`: observers run after the delegate method,
  /// in the order they were added.
  func appObserve() throws -> Int32 {
    let (slot, id) = try selfApp()
    let name = try checkString(L, 2)
    try checkFunction(L, 3)
    guard let n = AppNotification(name: name) else {
      if Callback(selector: name) != nil {
        throw ArgumentError(position: 2, message: "'\(name)' is a callback; use app:on for it")
      }
      let names = AppNotification.allCases.map(\.name)
      throw ArgumentError(position: 2, message: "unknown notification '\(name)'\(suggestion(for: name, in: names))")
    }
    slot.observers[Int(id.index)][n.rawValue, default: []].append(slot.store(3))
    slot.device.setObserved(n, for: id)
    return 0
  }

  func appIndex() throws -> Int32 {
    let (slot, id) = try selfApp()
    let app = slot.device[id]
    switch stringValue(L, 2) {
    case "bundle": push(L, app.config.bundle)
    case "state": push(L, app.state.description)
    case "pid":
      if app.pid != 0 { push(L, Int(app.pid)) } else { lua_pushnil(L) }
    case "launches": push(L, app.launches)
    case "running": push(L, app.state.isRunning)
    case "model": push(L, app.model == .scene ? "scene" : "app_delegate")
    case "scenes":
      // The open sessions, connected or not, in order of creation.
      lua_createtable(L, Int32(app.scenes.count), 0)
      for (i, scene) in app.scenes.enumerated() {
        pushScene(scene.number, of: id, on: slot)
        lua_rawseti(L, -2, lua_Integer(i + 1))
      }
    case "footprint_mb": push(L, app.state.isRunning ? app.footprintMB : app.config.footprintMB)
    case "background_time_remaining": push(L, slot.device.backgroundTimeRemaining(id))
    case "unsaved": push(L, app.unsaved)
    case "playing_audio": push(L, app.playingAudio)
    case "band": push(L, app.band.rawValue)
    case "tasks":
      lua_createtable(L, Int32(app.tasks.count), 0)
      for (i, t) in app.tasks.enumerated() {
        pushTask(t.id, of: id, on: slot)
        lua_rawseti(L, -2, lua_Integer(i + 1))
      }
    case "top":
      if let vc = slot.device.top(of: id) { pushViewController(vc, on: slot) } else { lua_pushnil(L) }
    case "stack": pushViewControllers(slot.device.focusWindow(of: id)?.stack ?? [], on: slot)
    case "presented": pushViewControllers(slot.device.focusWindow(of: id)?.presented ?? [], on: slot)
    case "exits_on_suspend": push(L, app.config.exitsOnSuspend)
    case "background_modes": push(L, app.config.backgroundModes)
    default: throw unknownField(.app)
    }
    return 1
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

