import CLua
import CLuaShim
import LifeSimEngine

/// The kinds of lifesim object a script holds, each a small userdata with one
/// locked metatable (lua-embedding.md §7.2.3).
enum ObjectKind: Int32, CaseIterable {
  case device = 0, app, trace, context, scene

  var luaName: String {
    switch self {
    case .device: return "device"
    case .app: return "app"
    case .trace: return "trace"
    case .context: return "ctx"
    case .scene: return "scene"
    }
  }
}

/// What a lifesim userdata holds: a handle resolved through the runtime on each
/// use, never a pointer to a Swift object (§7.2.2).
struct Handle {
  var kind: Int32
  var device: Int32
  var index: Int32
  var extra: Int32
}

/// What a `ctx` stands for while its handler runs.
struct ContextInfo {
  var device: Int32
  var app: AppID?
  /// The selector, notification name, or "timer".
  var name: String
  var scene: Int32?
  var url: String?
}

/// One device as the bridge sees it: the engine's `Device`, and the script
/// functions its apps registered. It is the device's `DeviceHost`.
///
/// Lua values live in a table stored as the device userdata's user value, so
/// a handler that captures `dev` forms a cycle Lua's collector can see and
/// break; Swift holds only slot numbers into that table.
final class DeviceSlot: DeviceHost {
  let id: Int32
  let device: Device
  unowned let runtime: LuaRuntime

  /// Per app: the handler slot of each callback, and the "*" handler.
  var handlers: [[UInt8: Int32]] = []
  var wildcard: [Int32?] = []
  /// Per app: the observer slots of each notification, in registration order.
  var observers: [[UInt8: [Int32]]] = []
  /// Per app: the slot of the app's userdata.
  var appObjects: [Int32] = []
  /// Per app: the slot of each scene object, by session number.
  var sceneObjects: [[Int32: Int32]] = []
  var traceObject: Int32 = 0
  private var nextSlot: Int32 = 1
  private var freeSlots: [Int32] = []

  init(id: Int32, device: Device, runtime: LuaRuntime) {
    self.id = id
    self.device = device
    self.runtime = runtime
  }

  var L: LuaState { runtime.L }

  // MARK: - The value store (user value 1 of the device userdata)

  /// Pushes the store table, or returns false when the device is gone.
  @discardableResult
  func pushStore() -> Bool {
    lua_rawgeti(L, ls_registryindex(), lua_Integer(runtime.devicesTableRef))
    lua_rawgeti(L, -1, lua_Integer(id))
    ls_remove(L, -2)
    guard lua_type(L, -1) == LUA_TUSERDATA else { return false }
    lua_getiuservalue(L, -1, 1)
    ls_remove(L, -2)
    return true
  }

  /// Stores the value at `index` and returns its slot (stack effect: none).
  func store(_ index: Int32) -> Int32 {
    let abs = lua_absindex(L, index)
    let slot = freeSlots.popLast() ?? { defer { nextSlot += 1 }; return nextSlot }()
    pushStore()
    lua_pushvalue(L, abs)
    lua_rawseti(L, -2, lua_Integer(slot))
    ls_pop(L, 1)
    return slot
  }

  /// Pushes the value in a slot (stack effect: +1).
  func pushSlot(_ slot: Int32) {
    if pushStore() {
      lua_rawgeti(L, -1, lua_Integer(slot))
      ls_remove(L, -2)
    } else {
      ls_pop(L, 1)
      lua_pushnil(L)
    }
  }

  func free(_ slot: Int32) {
    if pushStore() {
      lua_pushnil(L)
      lua_rawseti(L, -2, lua_Integer(slot))
    }
    ls_pop(L, 1)
    freeSlots.append(slot)
  }

  // MARK: - DeviceHost

  func handle(_ delivery: Delivery, on device: Device) throws -> HandlerResult {
    let app = Int(delivery.app.index)
    let name = delivery.callback.selector
    var result = HandlerResult.none
    if let slot = handlers[app][delivery.callback.rawValue] {
      result = try call(slot, context: ContextInfo(device: id, app: delivery.app, name: name,
                                                   scene: delivery.scene, url: delivery.url),
                        what: describe(delivery))
    }
    if let slot = wildcard[app] {
      let r = try call(slot, context: ContextInfo(device: id, app: delivery.app, name: name,
                                                  scene: delivery.scene, url: delivery.url),
                       what: describe(delivery))
      if handlers[app][delivery.callback.rawValue] == nil { result = r }
    }
    return result
  }

  func observe(_ notification: AppNotification, app: AppID, on device: Device) throws {
    for slot in observers[Int(app.index)][notification.rawValue] ?? [] {
      _ = try call(slot, context: ContextInfo(device: id, app: app, name: notification.name),
                   what: notification.name)
    }
  }

  func fire(_ token: HostToken, on device: Device, app: AppID?) throws {
    let slot = Int32(token.rawValue)
    if let app {
      _ = try call(slot, context: ContextInfo(device: id, app: app, name: "timer"), what: "timer (ctx:after)")
    } else {
      _ = try call(slot, context: nil, what: "dev:at/dev:after function")
    }
  }

  func release(_ token: HostToken, on device: Device) {
    free(Int32(token.rawValue))
  }

  private func describe(_ d: Delivery) -> String {
    "-[\(d.callback.receiver.className) \(d.callback.selector)]"
  }

  /// Calls a stored function with a fresh `ctx` (or nothing), protected, under
  /// the per-handler instruction budget. `what` is built only if it fails.
  /// - Throws: `SimulationError.handlerFailed`, naming the app, callback and time.
  private func call(_ slot: Int32, context: ContextInfo?, what: @autoclosure () -> String) throws -> HandlerResult {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    pushSlot(slot)
    var nargs: Int32 = 0
    var ctxID: Int32 = 0
    if let context {
      ctxID = runtime.pushContext(context)
      nargs = 1
    }
    defer { if ctxID != 0 { runtime.contexts[ctxID] = nil } }
    let status = ls_pcall(L, nargs, 1, 1)
    if status != LUA_OK {
      let f = runtime.popFailure(status: status)
      if let inner = f.handler { throw SimulationError.handlerFailed(inner) }
      let app = context?.app.map { device[$0].config.bundle }
      throw SimulationError.handlerFailed(HandlerFailure(
        app: app, callback: what(), time: device.now, message: f.message,
        traceback: f.traceback, isExpectationFailure: f.isExpectation))
    }
    if lua_type(L, -1) == LUA_TBOOLEAN { return .bool(lua_toboolean(L, -1) != 0) }
    return .none
  }
}
