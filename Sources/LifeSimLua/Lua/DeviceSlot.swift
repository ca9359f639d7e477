import CLua
import CLuaShim
import LifeSimEngine

/// The kinds of lifesim object a script holds, each a small userdata with one
/// locked metatable (lua-embedding.md §7.2.3).
enum ObjectKind: Int32, CaseIterable {
  case device = 0, app, trace, context, scene, task, vc, view

  var luaName: String {
    switch self {
    case .device: return "device"
    case .app: return "app"
    case .trace: return "trace"
    case .context: return "ctx"
    case .scene: return "scene"
    case .task: return "task"
    case .vc: return "vc"
    case .view: return "view"
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
  /// For view-controller and view callbacks.
  var vc: ObjectID?
  var view: ObjectID?
}

/// The `ctx`s whose functions are running, by id. Handlers nest (a view
/// callback inside a handler that added the view), so the live ones form a
/// stack: a few entries, searched from the top, with no hashing per call.
struct ContextStack {
  private var entries: [(id: Int32, info: ContextInfo)] = []

  subscript(id: Int32) -> ContextInfo? {
    get { entries.last(where: { $0.id == id })?.info }
    set {
      if let i = entries.lastIndex(where: { $0.id == id }) {
        if let newValue { entries[i].info = newValue } else { entries.remove(at: i) }
      } else if let newValue {
        entries.append((id, newValue))
      }
    }
  }
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
  // unowned(unsafe): the runtime owns every slot (`devices`) and outlives it, and
  // a checked unowned reference costs a retain and release on every handler call.
  unowned(unsafe) let runtime: LuaRuntime

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
  /// `dev:policy` functions by policy name.
  var policyFunctions: [String: Int32] = [:]
  /// Open tasks' objects, and every task's name, by task id.
  var taskObjects: [Int32: Int32] = [:]
  var taskNames: [Int32: String] = [:]
  /// View-controller and view objects by `ObjectID` index.
  var vcObjects: [Int32: Int32] = [:]
  var viewObjects: [Int32: Int32] = [:]
  /// The handler sets of specs (`on = {…}`): token -> callback -> slot.
  var specHandlers: [Int32: [UInt8: Int32]] = [:]
  var nextHandlerSet: Int32 = 1
  private var nextSlot: Int32 = 1
  private var freeSlots: [Int32] = []

  init(id: Int32, device: Device, runtime: LuaRuntime) {
    self.id = id
    self.device = device
    self.runtime = runtime
  }

  var L: LuaState { runtime.L }

  // MARK: - The value store (user value 1 of the device userdata)

  /// Pushes the device's userdata (held weakly by the registry; stack effect: +1).
  func pushDevice() {
    withBalancedStack(L, pushing: 1) {
      lua_rawgeti(L, ls_registryindex(), lua_Integer(runtime.devicesTableRef))
      lua_rawgeti(L, -1, lua_Integer(id))
      ls_remove(L, -2)
    }
  }

  /// Pushes the store table, or returns false when the device is gone.
  @discardableResult
  func pushStore() -> Bool {
    pushDevice()
    guard lua_type(L, -1) == LUA_TUSERDATA else { return false }
    lua_getiuservalue(L, -1, 1)
    ls_remove(L, -2)
    return true
  }

  /// Stores the value at `index` and returns its slot (stack effect: none).
  func store(_ index: Int32) -> Int32 {
    return withBalancedStack(L, pushing: 0) {
      let abs = lua_absindex(L, index)
      let slot = freeSlots.popLast() ?? { defer { nextSlot += 1 }; return nextSlot }()
      pushStore()
      lua_pushvalue(L, abs)
      lua_rawseti(L, -2, lua_Integer(slot))
      ls_pop(L, 1)
      return slot
    }
  }

  /// Pushes the value in a slot (stack effect: +1).
  func pushSlot(_ slot: Int32) {
    withBalancedStack(L, pushing: 1) {
      if pushStore() {
        lua_rawgeti(L, -1, lua_Integer(slot))
        ls_remove(L, -2)
      } else {
        ls_pop(L, 1)
        lua_pushnil(L)
      }
    }
  }

  func free(_ slot: Int32) {
    withBalancedStack(L, pushing: 0) {
      if pushStore() {
        lua_pushnil(L)
        lua_rawseti(L, -2, lua_Integer(slot))
      }
      ls_pop(L, 1)
      freeSlots.append(slot)
    }
  }

  // MARK: - DeviceHost

  func handle(_ delivery: Delivery, on device: Device) throws -> HandlerResult {
    let app = Int(delivery.app.index)
    let context = ContextInfo(device: id, app: delivery.app, name: delivery.callback.selector,
                              scene: delivery.scene, url: delivery.url, vc: delivery.vc, view: delivery.view)
    var result = HandlerResult.none
    // The object's own handler (its spec's `on`), then the app's, then "*".
    if let token = specToken(delivery), let slot = specHandlers[token]?[delivery.callback.rawValue] {
      _ = try call(slot, context: context, what: describe(delivery))
    }
    if let slot = handlers[app][delivery.callback.rawValue] {
      result = try call(slot, context: context, what: describe(delivery))
    }
    if let slot = wildcard[app] {
      let r = try call(slot, context: context, what: describe(delivery))
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

  /// The handler set of the object a callback goes to, if its spec has one.
  private func specToken(_ d: Delivery) -> Int32? {
    let spec = d.view.map { device.view($0).spec } ?? d.vc.map { device.viewController($0).spec }
    return spec?.handlers.map { Int32($0.rawValue) }
  }

  private func describe(_ d: Delivery) -> String {
    // A view's or view controller's callback names its class (and instance, from 2).
    let object = d.view.map { (device.view($0).spec.className, device.view($0).instance) }
      ?? d.vc.map { (device.viewController($0).spec.className, device.viewController($0).instance) }
    guard let (cls, instance) = object else { return "-[\(d.callback.receiver.className) \(d.callback.selector)]" }
    return "-[\(cls) \(d.callback.selector)]" + (instance > 1 ? " #\(instance)" : "")
  }


  func expire(_ token: HostToken, task: Int32, app: AppID, on device: Device) throws {
    _ = try invoke(Int32(token.rawValue), app: app, what: "expiration handler (task \(task))") {
      runtime.pushTask(task, of: app, on: self)
      return 1
    }
  }

  /// The `background_time` policy function, called with the app.
  func backgroundTime(for app: AppID, on device: Device) throws -> SimTime {
    guard let fn = policyFunctions["background_time"] else { return device.policy.backgroundTime }
    return try invoke(fn, app: nil, what: "policy 'background_time'", push: {
      runtime.pushApp(app, on: self)
      return 1
    }, read: {
      guard lua_type(L, -1) == LUA_TNUMBER, let t = SimTime(seconds: lua_tonumberx(L, -1, nil)), t >= .zero else {
        throw SimulationError.policyFailed(
          policy: "background_time",
          message: "must return a number of seconds ≥ 0 for \(device[app].config.bundle), got \(describeValue(L, -1))")
      }
      return t
    })
  }

  /// The `choose_victim` policy function, called with the device and the
  /// candidates in default order; it returns one candidate (or its app).
  func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID {
    guard let fn = policyFunctions["choose_victim"] else { return candidates[0].app }
    return try invoke(fn, app: nil, what: "policy 'choose_victim'", push: {
      pushDevice()
      lua_createtable(L, Int32(candidates.count), 0)
      for (i, c) in candidates.enumerated() {
        lua_createtable(L, 0, 7)
        runtime.pushApp(c.app, on: self); setField(L, -2, "app")
        push(L, device[c.app].config.bundle); setField(L, -2, "bundle")
        push(L, c.band.rawValue); setField(L, -2, "band")
        push(L, c.footprintMB); setField(L, -2, "footprint_mb")
        push(L, c.lastUsed.seconds); setField(L, -2, "last_used")
        push(L, c.state.description); setField(L, -2, "state")
        push(L, c.unsaved); setField(L, -2, "unsaved")
        lua_rawseti(L, -2, lua_Integer(i + 1))
      }
      return 2
    }, read: {
      // A candidate table, or an app object.
      var chosen: AppID?
      if lua_type(L, -1) == LUA_TTABLE {
        // Read raw: a table the script made may carry an __index that raises.
        rawField(L, -1, "app")
        if let h = runtime.handle(-1, .app), h.device == id { chosen = AppID(Int(h.index)) }
        ls_pop(L, 1)
      } else if let h = runtime.handle(-1, .app), h.device == id {
        chosen = AppID(Int(h.index))
      }
      guard let chosen, candidates.contains(where: { $0.app == chosen }) else {
        throw SimulationError.policyFailed(
          policy: "choose_victim",
          message: "must return one of the candidates it was given (or its app), got \(describeValue(L, -1))")
      }
      return chosen
    })
  }

  /// Calls a stored function with a fresh `ctx` (or nothing).
  private func call(_ slot: Int32, context: ContextInfo?, what: @autoclosure () -> String) throws -> HandlerResult {
    var ctxID: Int32 = 0
    defer { if ctxID != 0 { runtime.contexts[ctxID] = nil } }
    return try invoke(slot, app: context?.app, what: what(), push: {
      guard let context else { return 0 }
      ctxID = runtime.pushContext(context)
      return 1
    }, read: {
      lua_type(L, -1) == LUA_TBOOLEAN ? .bool(lua_toboolean(L, -1) != 0) : .none
    })
  }

  private func invoke(_ slot: Int32, app: AppID?, what: @autoclosure () -> String,
                      push pushArgs: () -> Int32) throws {
    _ = try invoke(slot, app: app, what: what(), push: pushArgs, read: { () })
  }

  /// Calls a stored function protected, under the per-handler instruction
  /// budget, and reads its one result with `read` before the stack is reset.
  /// `what` is built only if it fails.
  /// - Throws: `SimulationError.handlerFailed`, naming the app, the function and
  ///   the time; `processKilled` when the app died while its code ran.
  private func invoke<T>(_ slot: Int32, app: AppID?, what: @autoclosure () -> String,
                         push pushArgs: () -> Int32, read: () throws -> T) throws -> T {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    pushSlot(slot)
    let nargs = pushArgs()
    let status = ls_pcall(L, nargs, 1, 1)
    // A SIGKILL runs nothing more, even if the script caught the error.
    if let app, device.killedWhileRunning == app {
      if status != LUA_OK { ls_pop(L, 1) }
      throw SimulationError.processKilled(app)
    }
    if status != LUA_OK {
      let f = runtime.popFailure(status: status)
      if let inner = f.handler { throw SimulationError.handlerFailed(inner) }
      throw SimulationError.handlerFailed(HandlerFailure(
        app: app.map { device[$0].config.bundle }, callback: what(), time: device.now, message: f.message,
        traceback: f.traceback, isExpectationFailure: f.isExpectation))
    }
    return try read()
  }
}

/// A short description of a Lua value for policy errors: "nil", "a string", "42".
func describeValue(_ L: LuaState, _ i: Int32) -> String {
  switch lua_type(L, i) {
  case LUA_TNUMBER: return formatNumber(lua_tonumberx(L, i, nil))
  case LUA_TNIL, LUA_TNONE: return "nil"
  default:
    let name = typeName(L, i)
    return ("aeiou".contains(name.first ?? "x") ? "an " : "a ") + name
  }
}
