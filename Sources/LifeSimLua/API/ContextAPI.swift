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

  /// The app of the running ctx, for methods that act on the process.
  func contextApp(_ method: String) throws -> (DeviceSlot, AppID) {
    let (slot, info) = try selfContext()
    guard let app = info.app else { throw ScriptError(message: "ctx:\(method) needs an app") }
    return (slot, app)
  }

  /// `ctx:play_audio(true|false)`
  func ctxPlayAudio() throws -> Int32 {
    let (slot, app) = try contextApp("play_audio")
    guard lua_type(L, 2) == LUA_TBOOLEAN else {
      throw ArgumentError(position: 2, message: "boolean expected, got \(typeName(L, 2))")
    }
    try slot.device.setPlayingAudio(app, lua_toboolean(L, 2) != 0)
    return 0
  }

  /// `ctx:allocate(mb)` and `ctx:release(mb)`
  func ctxMemory(allocate: Bool) throws -> Int32 {
    let (slot, app) = try contextApp(allocate ? "allocate" : "release")
    let mb = try checkNumber(L, 2)
    guard mb >= 0, mb.isFinite else { throw ArgumentError(position: 2, message: "MB must be a number ≥ 0, got \(formatNumber(mb))") }
    if allocate { try slot.device.allocate(mb, app: app) } else { try slot.device.release(mb, app: app) }
    return 0
  }

  /// `ctx:dirty([n])`: n more unsaved changes (default 1).
  func ctxDirty() throws -> Int32 {
    let (slot, app) = try contextApp("dirty")
    var n = 1.0
    if !isNoneOrNil(L, 2) { n = try checkNumber(L, 2) }
    guard n >= 0, n == n.rounded(), n < 1e9 else {
      throw ArgumentError(position: 2, message: "the count must be a whole number ≥ 0, got \(formatNumber(n))")
    }
    try slot.device.markDirty(app: app, count: Int(n))
    return 0
  }

  /// `ctx:save([{ seconds = s }])`: persists the unsaved changes, taking `s`.
  func ctxSave() throws -> Int32 {
    let (slot, app) = try contextApp("save")
    var seconds = SimTime.zero
    if !isNoneOrNil(L, 2) {
      try checkTable(L, 2)
      try checkKeys(L, 2, allowed: ["seconds"], arg: 2)
      if let s = try fieldNumber(L, 2, "seconds", arg: 2) {
        guard s >= 0, let t = SimTime(seconds: s) else {
          throw ArgumentError(position: 2, message: "field 'seconds' must be ≥ 0, got \(formatNumber(s))")
        }
        seconds = t
      }
    }
    try slot.device.save(app: app, taking: seconds)
    return 0
  }

  /// `ctx:complete()`: the background launch's work is done (its completion handler).
  func ctxComplete() throws -> Int32 {
    let (slot, app) = try contextApp("complete")
    try slot.device.finishWindow(app)
    return 0
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
    case "vc":
      if let vc = info.vc { pushViewController(vc, on: slot) } else { lua_pushnil(L) }
    case "view":
      if let v = info.view { pushView(v, on: slot) } else { lua_pushnil(L) }
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
