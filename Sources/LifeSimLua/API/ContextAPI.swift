import CLua
import CLuaShim
import LifeSimEngine

// `ctx`: what a handler, observer or app timer receives. Each app has one,
// made at its first call and handed to every later one (no allocation per
// call); it reads what the innermost running function of its app was called
// for, and used when none runs it raises (a scoped borrow).
extension API {
  static let contextRows: [APIRow] = [
    .method(.context, "work", "ctx:work(seconds)", "The handler takes that long while the device goes on: kills and watchdogs act meanwhile, and what the app is told waits (docs/reference.md §3.8).") { try $0.ctxWork() },
    .method(.context, "after", "ctx:after(seconds, function(ctx) … end)",
            "An app timer; it does not fire while the app is suspended.") { try $0.ctxAfter() },
    .method(.context, "begin_background_task", "local task = ctx:begin_background_task(name [, on_expire])",
            "Asks for background time.") { try $0.ctxBeginBackgroundTask() },
    .method(.context, "play_audio", "ctx:play_audio(true | false)",
            "Starts or stops audio (needs the audio background mode).") { try $0.ctxPlayAudio() },
    .method(.context, "allocate", "ctx:allocate(mb)", "The app's footprint grows by mb.") { try $0.ctxMemory(allocate: true) },
    .method(.context, "release", "ctx:release(mb)", "The app's footprint shrinks by mb.") { try $0.ctxMemory(allocate: false) },
    .method(.context, "dirty", "ctx:dirty([n])", "The user made n unsaved changes (lost if the process dies).") { try $0.ctxDirty() },
    .method(.context, "save", "ctx:save([{ seconds = s }])", "Saves the unsaved changes, taking s seconds.") { try $0.ctxSave() },
    .method(.context, "lock_file", "ctx:lock_file(name)",
            "Takes a lock on a shared file (an SQLite database in an App Group): suspended while holding it, the app is killed with 0xdead10cc.") {
      try $0.ctxLockFile(unlock: false)
    },
    .method(.context, "unlock_file", "ctx:unlock_file(name)", "Lets go of a lock ctx:lock_file took.") {
      try $0.ctxLockFile(unlock: true)
    },
    .method(.context, "complete", "ctx:complete()",
            "A background launch's work is done (its completion handler).") { try $0.ctxComplete() },
    contextField("app", "The app whose code runs, or nil in a dev:at function.") { L, slot, info in
      slot.runtime.pushApp(info.app, on: slot)
    },
    contextField("callback", "The selector, notification name, or \"timer\".") { L, _, info in push(L, info.source.name) },
    contextField("now", "The virtual time, in seconds.") { L, slot, _ in push(L, slot.device.now.seconds) },
    contextField("options", "The launch options: { url = … }.") { L, slot, info in
      lua_createtable(L, 0, 1)
      if let url = slot.runtime.contexts.url(device: info.device, app: info.app.index) {
        push(L, url); setField(L, -2, "url")
      }
    },
    contextField("scene", "The scene, for scene callbacks.") { L, slot, info in
      if let n = info.scene { slot.runtime.pushScene(n, of: info.app, on: slot) } else { lua_pushnil(L) }
    },
    contextField("vc", "The view controller, for its callbacks.") { L, slot, info in
      if let vc = info.vc { slot.runtime.pushViewController(vc, on: slot) } else { lua_pushnil(L) }
    },
    contextField("view", "The view, for its callbacks.") { L, slot, info in
      if let v = info.view { slot.runtime.pushView(v, on: slot) } else { lua_pushnil(L) }
    },
    .meta(.context, "__tostring") { try $0.ctxToString() },
  ]

  private static func contextField(_ name: String, _ summary: String,
                                   _ get: @escaping (LuaState, DeviceSlot, ContextInfo) throws -> Void) -> APIRow {
    .field(.context, name, summary) { rt in
      let (slot, info) = try rt.selfContext()
      try get(rt.L, slot, info)
    }
  }
}

extension LuaRuntime {
  func selfContext() throws -> (DeviceSlot, ContextInfo) {
    let h = try checkHandle(1, .context)
    guard let info = contexts.top(device: h.device, app: h.index) else { throw Self.expiredContext }
    return (try slot(h.device), info)
  }

  /// The app of the running ctx, for methods that act on the process.
  func contextApp(_ method: String) throws -> (DeviceSlot, AppID) {
    // The ctx's handle names its app; only whether it is live needs the stack
    // (no copy of the entry).
    let h = try checkHandle(1, .context)
    guard contexts.isLive(device: h.device, app: h.index) else { throw Self.expiredContext }
    let slot = try slot(h.device), app = AppID(Int(h.index))
    // Its handler is live but waits for its work (reference §3.8): what runs
    // now is other code, which may not act as the app.
    guard slot.device.runningApp == app else { throw Self.waitingContext }
    return (slot, app)
  }

  static let waitingContext = ScriptError(
    message: "this ctx belongs to a handler that is working (ctx:work) while other code runs; only the code that runs now may use its own ctx")

  static let expiredContext = ScriptError(
    message: "this ctx belongs to a handler that has returned; use the ctx passed to the function that is running")

  /// `ctx:play_audio(true|false)`
  func ctxPlayAudio() throws -> Int32 {
    let (slot, app) = try contextApp("play_audio")
    try slot.device.setPlayingAudio(app, try args.value(2, as: Bool.self))
    return 0
  }

  /// `ctx:allocate(mb)` and `ctx:release(mb)`
  func ctxMemory(allocate: Bool) throws -> Int32 {
    let (slot, app) = try contextApp(allocate ? "allocate" : "release")
    let mb = try args.number(2, "MB", finite: false)
    guard mb >= 0, mb.isFinite else { throw ArgumentError(position: 2, message: "MB must be a number ≥ 0, got \(formatNumber(mb))") }
    if allocate { try slot.device.allocate(mb, app: app) } else { try slot.device.release(mb, app: app) }
    return 0
  }

  /// `ctx:lock_file(name)` and `ctx:unlock_file(name)`.
  func ctxLockFile(unlock: Bool) throws -> Int32 {
    let (slot, app) = try contextApp(unlock ? "unlock_file" : "lock_file")
    let name = try args.name(2, "the file's name")
    guard !name.isEmpty else { throw ArgumentError(position: 2, message: "the file's name is empty") }
    if unlock { try slot.device.unlockFile(app: app, name) } else { try slot.device.lockFile(app: app, name) }
    return 0
  }

  /// `ctx:dirty([n])`: n more unsaved changes (default 1).
  func ctxDirty() throws -> Int32 {
    let (slot, app) = try contextApp("dirty")
    let n = try args.optional(2, as: Double.self) ?? 1
    guard n >= 0, n == n.rounded(), n < 1e9 else {
      throw ArgumentError(position: 2, message: "the count must be a whole number ≥ 0, got \(formatNumber(n))")
    }
    try slot.device.markDirty(app: app, count: Int(n))
    return 0
  }

  /// `ctx:save([{ seconds = s }])`: persists the unsaved changes, taking `s`.
  func ctxSave() throws -> Int32 {
    let (slot, app) = try contextApp("save")
    let seconds = try args.options(2, keys: ["seconds"])?.seconds("seconds") ?? .zero
    try slot.device.save(app: app, taking: seconds)
    return 0
  }

  /// `ctx:complete()`: the background launch's work is done (its completion handler).
  func ctxComplete() throws -> Int32 {
    let (slot, app) = try contextApp("complete")
    try slot.device.finishBackgroundLaunch(app)
    return 0
  }

  /// `ctx:work(seconds)`: the handler takes that much virtual time.
  func ctxWork() throws -> Int32 {
    let (slot, _) = try contextApp("work")
    try slot.device.work(try args.seconds(2))
    return 0
  }

  /// `ctx:after(seconds, fn)`: an app timer; `fn(ctx)` runs when it comes due,
  /// unless the app is suspended then (it runs once the app runs again).
  func ctxAfter() throws -> Int32 {
    let (slot, app) = try contextApp("after")
    let delay = try args.seconds(2)
    try args.function(3)
    let token = HostToken(Int(slot.store(3)))
    do {
      try slot.device.scheduleAppTimer(token, app: app, after: delay)
    } catch {
      slot.free(Int32(token.rawValue))
      throw error
    }
    return 0
  }


  func ctxToString() throws -> Int32 {
    let h = try checkHandle(1, .context)
    guard let info = contexts.top(device: h.device, app: h.index), let slot = devices[h.device] else {
      push(L, "<ctx (expired)>")
      return 1
    }
    push(L, "<ctx \(slot.device[info.app].config.bundle) \(info.source.name)>")
    return 1
  }
}
