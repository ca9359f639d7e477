import CLua
import CLuaShim
import LifeSimEngine

// `ctx`: what a handler, observer or app timer receives. It is valid only while
// that function runs (a scoped borrow, lua-embedding.md §7.2.4).
extension LuaRuntime {
  /// Pushes a new ctx for `info` and returns its id (stack effect: +1).
  func pushContext(_ info: ContextInfo) -> Int32 {
    let id = nextContextID
    nextContextID &+= 1
    contexts[id] = info
    lua_rawgeti(L, ls_registryindex(), lua_Integer(devicesTableRef))
    lua_rawgeti(L, -1, lua_Integer(info.device))
    ls_remove(L, -2)  // the device userdata: the ctx keeps it alive
    let app = info.app.map { $0.index } ?? -1
    pushObject(Handle(kind: ObjectKind.context.rawValue, device: info.device, index: app, extra: id), userValue: true)
    return id
  }

  private func selfContext() throws -> (DeviceSlot, ContextInfo) {
    let h = try checkHandle(1, .context)
    guard let info = contexts[h.extra] else {
      throw ScriptError(message: "this ctx belongs to a handler that has returned; use the ctx passed to the function that is running")
    }
    return (try slot(h.device), info)
  }

  /// `ctx:work(seconds)`: the handler takes that much virtual time.
  func ctxWork() throws -> Int32 {
    let (slot, _) = try selfContext()
    try slot.device.work(try checkSeconds(L, 2))
    return 0
  }

  /// `ctx:after(seconds, fn)`: an app timer; `fn(ctx)` runs when it comes due,
  /// unless the app is suspended then (it runs once the app runs again).
  func ctxAfter() throws -> Int32 {
    let (slot, info) = try selfContext()
    let delay = try checkSeconds(L, 2)
    try checkFunction(L, 3)
    guard let app = info.app else { throw ScriptError(message: "ctx:after needs an app") }
    let token = HostToken(Int(slot.store(3)))
    do {
      try slot.device.scheduleAppTimer(token, app: app, after: delay)
    } catch {
      slot.free(Int32(token.rawValue))
      throw error
    }
    return 0
  }

  func ctxIndex() throws -> Int32 {
    let (slot, info) = try selfContext()
    switch stringValue(L, 2) {
    case "app":
      if let a = info.app { pushApp(a, on: slot) } else { lua_pushnil(L) }
    case "callback": push(L, info.name)
    case "now": push(L, slot.device.now.seconds)
    case "options":
      lua_createtable(L, 0, 1)
      if let url = info.url { push(L, url); setField(L, -2, "url") }
    case "scene":
      if let n = info.scene, let a = info.app { pushScene(n, of: a, on: slot) } else { lua_pushnil(L) }
    default: throw unknownField(.context)
    }
    return 1
  }

  func ctxToString() throws -> Int32 {
    let h = try checkHandle(1, .context)
    guard let info = contexts[h.extra], let slot = devices[h.device] else {
      push(L, "<ctx (expired)>")
      return 1
    }
    let app = info.app.map { slot.device[$0].config.bundle + " " } ?? ""
    push(L, "<ctx \(app)\(info.name)>")
    return 1
  }
}
