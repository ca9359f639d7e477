import CLua
import CLuaShim
import LifeSimEngine

/// The kinds of lifesim object a script holds, each a small userdata with one
/// locked metatable.
enum ObjectKind: Int32, CaseIterable {
  case device = 0, app, trace, context, scene, task, vc, view, bgTask

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
    case .bgTask: return "bgtask"
    }
  }
}

/// What a lifesim userdata holds: a handle resolved through the runtime on each
/// use, never a pointer to a Swift object.
struct Handle {
  var kind: Int32
  var device: Int32
  var index: Int32
  var extra: Int32
}

/// What a `ctx` stands for while a function of its app runs. Plain values
/// only (the URL, the one string, is kept beside the stack), so pushing and
/// popping an entry copies bytes and retains nothing.
struct ContextInfo {
  var device: Int32
  var app: AppID
  /// What runs: a callback, an observer, or an app timer.
  var source: ContextSource
  var scene: Int32?
  /// For view-controller and view callbacks.
  var vc: ObjectID?
  var view: ObjectID?
  /// Whether the stack holds a URL for this entry (`ContextStack.url(of:)`).
  fileprivate(set) var hasURL = false

  init(device: Int32, app: AppID, source: ContextSource, scene: Int32? = nil, vc: ObjectID? = nil,
       view: ObjectID? = nil) {
    self.device = device
    self.app = app
    self.source = source
    self.scene = scene
    self.vc = vc
    self.view = view
  }
}

/// What a `ctx`'s function was called for; `ctx.callback` names it.
enum ContextSource {
  case callback(Callback)
  case notification(AppNotification)
  case timer
  /// A BGTaskScheduler task's launch handler.
  case backgroundTask

  var name: String {
    switch self {
    case .backgroundTask: return "task launch handler"
    case .callback(let c): return c.selector
    case .notification(let n): return n.name
    case .timer: return "timer"
    }
  }
}

/// What each `ctx` stands for while its app's code runs. Handlers nest (a view
/// callback inside a handler that added the view), so the live entries form a
/// stack, searched from the top: a `ctx` reads the innermost entry of its app,
/// and one used when no function of its app runs finds none.
struct ContextStack {
  // A handle to storage the runtime owns (and frees with `deallocate()`), and
  // a buffer of plain values rather than an array: a push and a pop on every
  // handler call, with no reference counting and no uniqueness checks.
  private struct Storage {
    var entries: UnsafeMutablePointer<ContextInfo>
    var capacity: Int
    var count = 0
    /// The URLs of the entries that have one, in stack order.
    var urls: [String] = []
  }
  private let s: UnsafeMutablePointer<Storage>

  init() {
    s = .allocate(capacity: 1)
    s.initialize(to: Storage(entries: .allocate(capacity: 16), capacity: 16))
  }

  func deallocate() {
    s.pointee.entries.deallocate()  // ContextInfo holds no references
    s.deinitialize(count: 1)
    s.deallocate()
  }

  var count: Int { s.pointee.count }
  private var entries: UnsafeMutablePointer<ContextInfo> { s.pointee.entries }

  @inline(__always)
  func push(_ info: ContextInfo, url: String? = nil) {
    if s.pointee.count == s.pointee.capacity { grow() }
    let n = s.pointee.count
    (s.pointee.entries + n).initialize(to: info)
    if let url {
      s.pointee.entries[n].hasURL = true
      s.pointee.urls.append(url)
    }
    s.pointee.count = n + 1
  }

  private func grow() {
    let bigger = UnsafeMutablePointer<ContextInfo>.allocate(capacity: s.pointee.capacity * 2)
    bigger.moveInitialize(from: s.pointee.entries, count: s.pointee.count)
    s.pointee.entries.deallocate()
    s.pointee.entries = bigger
    s.pointee.capacity *= 2
  }

  @inline(__always)
  func pop() {
    s.pointee.count -= 1
    if s.pointee.entries[s.pointee.count].hasURL { s.pointee.urls.removeLast() }
  }

  /// The URL of the innermost live entry of (device, app), if it has one.
  func url(device: Int32, app: Int32) -> String? {
    var i = count - 1, u = s.pointee.urls.count
    while i >= 0 {
      if entries[i].hasURL { u -= 1 }
      if entries[i].device == device && entries[i].app.index == app { return entries[i].hasURL ? s.pointee.urls[u] : nil }
      i -= 1
    }
    return nil
  }

  /// The innermost live entry of any device, if a function of an app runs.
  var innermost: ContextInfo? { count > 0 ? entries[count - 1] : nil }

  /// Whether a function of (device, app) runs now.
  func isLive(device: Int32, app: Int32) -> Bool {
    var i = count - 1
    while i >= 0 {
      if entries[i].device == device && entries[i].app.index == app { return true }
      i -= 1
    }
    return false
  }

  /// The innermost live entry of (device, app).
  func top(device: Int32, app: Int32) -> ContextInfo? {
    var i = count - 1
    while i >= 0 {
      if entries[i].device == device && entries[i].app.index == app { return entries[i] }
      i -= 1
    }
    return nil
  }
}

/// The script functions one app registered, as slots of the device's value
/// store (0 for none: slots start at 1).
struct AppFunctions {
  /// By `Callback.rawValue`; set with `setHandler`, read with `handler(for:)`.
  private(set) var handlers = [Int32](repeating: 0, count: Callback.allCases.count)
  /// Bit `c` is set when `handlers[c]` is: a handler call reads this word,
  /// beside `wildcard` and `context`, and reaches the array (another cache
  /// line or two, cold by the time the next callback comes) only for a set bit.
  private var handled: UInt64 = 0
  /// The `on("*")` handler.
  var wildcard: Int32 = 0
  /// By `AppNotification.rawValue`, in registration order.
  var observers = [[Int32]](repeating: [], count: AppNotification.allCases.count)
  /// The app's one `ctx` userdata, made at its first use and reused after.
  var context: Int32 = 0
  /// Its bundle id as a Lua string, made at the first `choose_victim` call.
  var bundle: Int32 = 0

  init() {
    precondition(Callback.allCases.count <= UInt64.bitWidth, "AppFunctions.handled has a bit per callback")
  }

  /// The store slot of the app's own handler of callback `c`, or 0.
  @inline(__always)
  func handler(for c: Int) -> Int32 { handled & (1 << UInt64(c)) == 0 ? 0 : handlers[c] }

  /// Sets (or, with 0, clears) the handler of callback `c`.
  mutating func setHandler(_ slot: Int32, for c: Int) {
    handlers[c] = slot
    if slot != 0 { handled |= 1 << UInt64(c) } else { handled &= ~(1 << UInt64(c)) }
  }
}

/// The live devices of a runtime by id: ids are small and made in order, so a
/// lookup (one per call of a device, app or ctx method) is an array read.
struct DeviceSlots {
  private var slots: [DeviceSlot?] = []
  /// How many devices are live.
  private(set) var count = 0

  subscript(id: Int32) -> DeviceSlot? {
    get { id >= 0 && Int(id) < slots.count ? slots[Int(id)] : nil }
    set {
      let i = Int(id)
      while slots.count <= i { slots.append(nil) }
      count += (newValue == nil ? 0 : 1) - (slots[i] == nil ? 0 : 1)
      if let old = slots[i], old !== newValue { old.detach() }
      slots[i] = newValue
    }
  }

  /// The live devices' ids, in order of creation.
  var ids: [Int32] { slots.indices.filter { slots[$0] != nil }.map(Int32.init) }

  /// Each live device with its id, in order of creation (no array made).
  func forEach(_ body: (Int32, DeviceSlot) throws -> Void) rethrows {
    for i in slots.indices { if let s = slots[i] { try body(Int32(i), s) } }
  }

  /// The live device made last.
  var newest: DeviceSlot? { slots.last { $0 != nil } ?? nil }
}

/// One device as the bridge sees it: the engine's `Device`, and the script
/// functions its apps registered. It is the device's `DeviceHost`: the device
/// holds it strongly (a weakly referenced object keeps its reference count in
/// a side table, slow on every call), and the slot holds the device, so the
/// cycle is broken by hand: `detach()` when the device's userdata is
/// collected (`DeviceSlots`).
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
  /// The runtime's, read on every handler call.
  let contexts: ContextStack
  /// The runtime's `stores` table's registry slot, kept here so that a
  /// handler call does not read it from the runtime object.
  let storesRef: lua_Integer

  /// What the slot holds that scripts change as they run. It is kept in a
  /// box that a saved state shares until either side writes to it, and the
  /// writer copies the box first: going back to a state (before every step
  /// of a search) puts one reference back, where it put back fourteen, each
  /// retained and released.
  struct Parts {
    /// Per app: its handlers, observers and `ctx`.
    var functions: [AppFunctions] = []
    /// Per app: the slot of the app's userdata.
    var appObjects: [Int32] = []
    /// Per app: the slot of each scene object, by session number.
    var sceneObjects: [[Int32: Int32]] = []
    var traceObject: Int32 = 0
    /// The names of the app states as Lua strings, by raw value (0: not made yet).
    var stateNames: [Int32] = []
    /// `dev:policy` functions by policy name.
    var policyFunctions: [String: Int32] = [:]
    /// Open tasks' objects, and every task's name, by task id.
    var taskObjects: [Int32: Int32] = [:]
    var taskNames: [Int32: String] = [:]
    /// BGTaskScheduler (reference §3.5): launch handlers by app index and
    /// identifier; running tasks' objects, identifiers and expiration
    /// handlers by task number.
    var bgTaskHandlers: [Int32: [String: Int32]] = [:]
    var bgTaskObjects: [Int32: Int32] = [:]
    var bgTaskNames: [Int32: String] = [:]
    var bgTaskExpiry: [Int32: Int32] = [:]
    /// Tasks that expired and then ended, for `task.expired` on an object the script kept.
    var bgTaskExpiredEnded: Set<Int32> = []
    /// Each task's kind, by task number, for `task.kind` after it ended.
    var bgTaskKinds: [Int32: UInt8] = [:]
    /// View-controller and view objects by `ObjectID` index.
    var vcObjects: [Int32: Int32] = [:]
    var viewObjects: [Int32: Int32] = [:]
    /// The handler sets of specs (`on = {…}`): token -> callback -> slot.
    var specHandlers: [Int32: [UInt8: Int32]] = [:]
    var nextHandlerSet: Int32 = 1
    /// The store's next slot, and the slots freed for reuse.
    var nextSlot: Int32 = 1
    var freeSlots: [Int32] = []
  }

  fileprivate final class Box {
    @exclusivity(unchecked) var parts: Parts
    init(_ parts: Parts) { self.parts = parts }
  }

  @exclusivity(unchecked) private var box = Box(Parts())

  /// The box, copied first if a saved state shares it.
  private var writableBox: Box {
    if !isKnownUniquelyReferenced(&box) { box = Box(box.parts) }
    return box
  }

  // Each of `Parts`, read in the box and written through `writableBox`.
  var functions: [AppFunctions] {
    _read { yield box.parts.functions }
    _modify { yield &writableBox.parts.functions }
  }
  var appObjects: [Int32] {
    _read { yield box.parts.appObjects }
    _modify { yield &writableBox.parts.appObjects }
  }
  var sceneObjects: [[Int32: Int32]] {
    _read { yield box.parts.sceneObjects }
    _modify { yield &writableBox.parts.sceneObjects }
  }
  var traceObject: Int32 {
    _read { yield box.parts.traceObject }
    _modify { yield &writableBox.parts.traceObject }
  }
  private var stateNames: [Int32] {
    _read { yield box.parts.stateNames }
    _modify { yield &writableBox.parts.stateNames }
  }
  var policyFunctions: [String: Int32] {
    _read { yield box.parts.policyFunctions }
    _modify { yield &writableBox.parts.policyFunctions }
  }
  var taskObjects: [Int32: Int32] {
    _read { yield box.parts.taskObjects }
    _modify { yield &writableBox.parts.taskObjects }
  }
  var taskNames: [Int32: String] {
    _read { yield box.parts.taskNames }
    _modify { yield &writableBox.parts.taskNames }
  }
  var bgTaskHandlers: [Int32: [String: Int32]] {
    _read { yield box.parts.bgTaskHandlers }
    _modify { yield &writableBox.parts.bgTaskHandlers }
  }
  var bgTaskObjects: [Int32: Int32] {
    _read { yield box.parts.bgTaskObjects }
    _modify { yield &writableBox.parts.bgTaskObjects }
  }
  var bgTaskNames: [Int32: String] {
    _read { yield box.parts.bgTaskNames }
    _modify { yield &writableBox.parts.bgTaskNames }
  }
  var bgTaskExpiry: [Int32: Int32] {
    _read { yield box.parts.bgTaskExpiry }
    _modify { yield &writableBox.parts.bgTaskExpiry }
  }
  var bgTaskExpiredEnded: Set<Int32> {
    _read { yield box.parts.bgTaskExpiredEnded }
    _modify { yield &writableBox.parts.bgTaskExpiredEnded }
  }
  var bgTaskKinds: [Int32: UInt8] {
    _read { yield box.parts.bgTaskKinds }
    _modify { yield &writableBox.parts.bgTaskKinds }
  }
  var vcObjects: [Int32: Int32] {
    _read { yield box.parts.vcObjects }
    _modify { yield &writableBox.parts.vcObjects }
  }
  var viewObjects: [Int32: Int32] {
    _read { yield box.parts.viewObjects }
    _modify { yield &writableBox.parts.viewObjects }
  }
  var specHandlers: [Int32: [UInt8: Int32]] {
    _read { yield box.parts.specHandlers }
    _modify { yield &writableBox.parts.specHandlers }
  }
  var nextHandlerSet: Int32 {
    _read { yield box.parts.nextHandlerSet }
    _modify { yield &writableBox.parts.nextHandlerSet }
  }
  private var nextSlot: Int32 {
    _read { yield box.parts.nextSlot }
    _modify { yield &writableBox.parts.nextSlot }
  }
  private var freeSlots: [Int32] {
    _read { yield box.parts.freeSlots }
    _modify { yield &writableBox.parts.freeSlots }
  }

  init(id: Int32, device: Device, runtime: LuaRuntime) {
    self.id = id
    self.device = device
    self.runtime = runtime
    self.contexts = runtime.contexts
    self.storesRef = lua_Integer(runtime.storesTableRef)
    device.host = self
  }

  /// What the slot and its device hold between actions (`lifesim explore`
  /// goes back to a state with it, together with the Lua state's bytes): the
  /// device's state and the slot's box of `Parts`. A class: going back to a
  /// state reads it in place.
  final class SavedState {
    let device: DeviceState
    fileprivate let box: Box

    init(_ slot: DeviceSlot) {
      device = slot.device.saveState()
      box = slot.box
    }

    /// The stored properties of `DeviceSlot` it holds, and those fixed for the
    /// slot's life (for the test that keeps the list complete).
    static let savedProperties: Set<String> = ["box"]
    static let fixedProperties: Set<String> = ["id", "device", "runtime", "contexts", "storesRef"]
  }

  func saveState() -> SavedState { SavedState(self) }

  func restoreState(_ s: SavedState) {
    device.restoreState(s.device)
    box = s.box
  }

  /// Lets go of the device: it may outlive the slot (kept by
  /// `retainDevices`, or by Swift code) and must not call into it.
  func detach() {
    if device.host === self {
      device.host = nil
      device.checkpoint = nil
    }
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

  /// Pushes the store table (nil when the device is gone, and returns false). Stack effect: +1.
  @discardableResult
  func pushStore() -> Bool {
    ls_push_store(L, storesRef, lua_Integer(id)) != 0
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

  // MARK: - The host's work (through `HostForwarder`)

  // The hot path: the handler slots are plain array reads,
  // the app's `ctx` is made once, and each call is one C function
  // (`ls_call_handler`) that finds the store and makes the protected call.
  // Nothing here allocates.
  func handle(_ delivery: Delivery, on device: Device) throws -> HandlerResult {
    let app = Int(delivery.app.index), c = Int(delivery.callback.rawValue)
    let ctx = contextObject(app)
    let info = ContextInfo(device: id, app: delivery.app, source: .callback(delivery.callback),
                           scene: delivery.scene, vc: delivery.vc, view: delivery.view)
    if delivery.hasURL { contexts.push(info, url: device.deliveryURLNow) } else { contexts.push(info) }
    defer { contexts.pop() }
    var result = HandlerResult.none
    // The object's own handler (its spec's `on`), then the app's, then "*".
    // Each slot is read just before its call: a handler may register another.
    if delivery.vc != nil || delivery.view != nil, let token = specToken(delivery),
       let slot = specHandlers[token]?[delivery.callback.rawValue] {
      _ = try call(slot, ctx: ctx, app: delivery.app, what: .delivery(delivery.callback, vc: delivery.vc, view: delivery.view))
    }
    if delivery.callback == .stateRestorationActivity { return try activityResult(delivery, ctx: ctx) }
    // Only a method whose answer the OS reads has its result read.
    let reads = delivery.readsAnswer
    let own = functions[app].handler(for: c)
    if own != 0 {
      result = try call(own, ctx: ctx, app: delivery.app, what: .delivery(delivery.callback, vc: delivery.vc, view: delivery.view),
                        readsResult: reads)
    }
    let any = functions[app].wildcard
    if any != 0 {
      let r = try call(any, ctx: ctx, app: delivery.app, what: .delivery(delivery.callback, vc: delivery.vc, view: delivery.view),
                       readsResult: reads)
      if own == 0 { result = r }
    }
    return result
  }

  /// `stateRestorationActivityForScene:` returns a table that stands for its
  /// `NSUserActivity`: kept in the store for the engine, which releases it.
  /// Nil or false is no activity; anything else (a function, a coroutine, a
  /// lifesim object, a string) is refused: it stands for no activity, and
  /// leaving none in silence would hide the slip.
  private func activityResult(_ delivery: Delivery, ctx: Int32) throws -> HandlerResult {
    let app = Int(delivery.app.index)
    let own = functions[app].handler(for: Int(delivery.callback.rawValue))
    let function = own != 0 ? own : functions[app].wildcard
    guard function != 0 else { return .none }
    let what = describe(.delivery(delivery.callback, vc: nil, view: nil))
    return try invoke(function, app: delivery.app, what: what, push: { pushSlot(ctx); return 1 }, read: {
      switch lua_type(L, -1) {
      case LUA_TTABLE: return HandlerResult.token(HostToken(Int(store(-1))))
      case LUA_TNIL, LUA_TNONE: return .none
      case LUA_TBOOLEAN where lua_toboolean(L, -1) == 0: return .none
      default:
        let got = describeValue(L, -1)
        pushSlot(function)
        let place = runtime.functionPlace().map { $0 + ": " } ?? ""
        throw SimulationError.handlerFailed(HandlerFailure(
          app: device[delivery.app].config.bundle, callback: what, time: device.now,
          message: "\(place)the handler of \(delivery.callback.selector) returned \(got); it returns a table "
            + "(which stands for the NSUserActivity), or nil or false for no activity",
          traceback: nil, isExpectationFailure: false))
      }
    })
  }

  func observe(_ notification: AppNotification, app: AppID, on device: Device) throws {
    let n = Int(notification.rawValue)
    guard !functions[Int(app.index)].observers[n].isEmpty else { return }
    // The observers registered when the notification is posted; one added
    // meanwhile waits for the next post.
    let observers = functions[Int(app.index)].observers[n]
    try withContext(app, .notification(notification)) { ctx in
      for slot in observers { _ = try call(slot, ctx: ctx, app: app, what: .notification(notification)) }
    }
  }

  func fire(_ token: HostToken, on device: Device, app: AppID?) throws {
    let slot = Int32(token.rawValue)
    if let app {
      try withContext(app, .timer) { ctx in
        _ = try call(slot, ctx: ctx, app: app, what: .timer)
      }
    } else {
      try invoke(slot, app: nil, what: "dev:at/dev:after function") { 0 }
    }
  }

  /// Runs `body` with the app's `ctx` live for `source`.
  private func withContext(_ app: AppID, _ source: ContextSource, _ body: (_ ctx: Int32) throws -> Void) throws {
    let ctx = contextObject(Int(app.index))
    contexts.push(ContextInfo(device: id, app: app, source: source))
    defer { contexts.pop() }
    try body(ctx)
  }

  /// The slot of an app's `ctx` userdata, made at its first use. The store
  /// holds it, so it lives as long as the device.
  @inline(__always)
  private func contextObject(_ app: Int) -> Int32 {
    let slot = functions[app].context
    return slot != 0 ? slot : makeContextObject(app)
  }

  @inline(never)
  private func makeContextObject(_ app: Int) -> Int32 {
    let slot = withBalancedStack(L, pushing: 0) { () -> Int32 in
      pushDevice()  // the ctx keeps its device alive
      runtime.pushObject(Handle(kind: ObjectKind.context.rawValue, device: id, index: Int32(app), extra: 0),
                         userValue: true)
      defer { ls_pop(L, 1) }
      return self.store(-1)
    }
    functions[app].context = slot
    return slot
  }

  func release(_ token: HostToken, on device: Device) {
    free(Int32(token.rawValue))
  }

  /// The handler set of the object a callback goes to, if its spec has one.
  private func specToken(_ d: Delivery) -> Int32? {
    let spec = d.view.map { device.view($0).spec } ?? d.vc.map { device.viewController($0).spec }
    return spec?.handlers.map { Int32($0.rawValue) }
  }

  /// What a handler call ran for, to name it when it fails. Plain values
  /// only: it is made on every call, and described only on a failure.
  enum Running {
    case delivery(Callback, vc: ObjectID?, view: ObjectID?)
    case notification(AppNotification)
    case timer
  }

  private func describe(_ what: Running) -> String {
    switch what {
    case .notification(let n): return n.name
    case .timer: return "timer (ctx:after)"
    case .delivery(let callback, let vc, let view):
      // A view's or view controller's callback names its class (and instance, from 2).
      let object = view.map { (device.view($0).spec.className, device.view($0).instance) }
        ?? vc.map { (device.viewController($0).spec.className, device.viewController($0).instance) }
      guard let (cls, instance) = object else { return "-[\(callback.receiver.className) \(callback.selector)]" }
      return "-[\(cls) \(callback.selector)]" + (instance > 1 ? " #\(instance)" : "")
    }
  }

  func expire(_ token: HostToken, task: Int32, app: AppID, on device: Device) throws {
    _ = try invoke(Int32(token.rawValue), app: app, what: "expiration handler (task \(task))") {
      runtime.pushTask(task, of: app, on: self)
      return 1
    }
  }

  /// A BGTaskScheduler task's launch handler, `fn(ctx, task)` (reference §3.5).
  func launchTask(_ run: BGTaskRun, app: AppID, on device: Device) throws {
    guard let fn = bgTaskHandlers[Int32(app.index)]?[run.identifier] else { return }
    try withContext(app, .backgroundTask) { ctx in
      try invoke(fn, app: app, what: "launch handler of task \(run.identifier)") {
        pushSlot(ctx)
        runtime.pushBGTask(run, of: app, on: self)
        return 2
      }
    }
  }

  /// A BGTaskScheduler task's `on_expire`, called with a context and the
  /// task; false when it has none.
  func expireTask(_ run: BGTaskRun, app: AppID, on device: Device) throws -> Bool {
    guard let fn = bgTaskExpiry[run.number] else { return false }
    try withContext(app, .backgroundTask) { ctx in
      try invoke(fn, app: app, what: "expiration handler of task \(run.identifier)") {
        pushSlot(ctx)
        runtime.pushBGTask(run, of: app, on: self)
        return 2
      }
    }
    return true
  }

  /// A BGTaskScheduler task ended (completed, or its process died): the
  /// device lets go of its object and its expiration handler; a script
  /// that keeps the object still reads it.
  func taskEnded(_ run: BGTaskRun, app: AppID, on device: Device) {
    if let stored = bgTaskObjects.removeValue(forKey: run.number) { free(stored) }
    if let fn = bgTaskExpiry.removeValue(forKey: run.number) { free(fn) }
    if run.expired { bgTaskExpiredEnded.insert(run.number) }
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

  /// The `task_scheduler` policy function, called with the device and the
  /// request: a delay in seconds after its earliest time, or nil (never).
  func taskDelay(_ request: BGTaskRequest, app: AppID, on device: Device) throws -> SimTime? {
    guard let fn = policyFunctions["task_scheduler"] else { return .zero }
    return try invoke(fn, app: nil, what: "policy 'task_scheduler'", push: {
      pushDevice()
      let now = device.now
      lua_createtable(L, 0, 12)
      runtime.pushApp(app, on: self); setField(L, -2, "app")
      push(L, request.identifier); setField(L, -2, "id")
      push(L, request.kind.description); setField(L, -2, "kind")
      push(L, request.earliest.seconds); setField(L, -2, "earliest")
      push(L, now.seconds); setField(L, -2, "submitted")
      push(L, request.requiresPower); setField(L, -2, "requires_power")
      push(L, request.requiresNetwork); setField(L, -2, "requires_network")
      push(L, device.taskConditions.charging); setField(L, -2, "charging")
      push(L, device.taskConditions.network); setField(L, -2, "network")
      push(L, device.isLocked); setField(L, -2, "locked")
      push(L, device[app].lastUsed.seconds); setField(L, -2, "last_used")
      push(L, Double(now.microseconds % 86_400_000_000) / 1e6); setField(L, -2, "time_of_day")
      return 2
    }, read: {
      switch lua_type(L, -1) {
      case LUA_TNIL: return nil
      case LUA_TBOOLEAN where lua_toboolean(L, -1) == 0: return nil
      case LUA_TNUMBER:
        if let t = SimTime(seconds: lua_tonumberx(L, -1, nil)), t >= .zero { return t }
      default: break
      }
      throw SimulationError.policyFailed(
        policy: "task_scheduler",
        message: "must return a delay in seconds after the request's earliest time, from 0 to 100 years, or nil for never; got \(describeValue(L, -1)) for \(request.identifier)")
    })
  }

  /// The `choose_victim` policy function, called with the device and the
  /// candidates in default order; it returns one candidate (or its app).
  func chooseVictim(_ candidates: [VictimCandidate], on device: Device) throws -> AppID {
    guard let fn = policyFunctions["choose_victim"] else { return candidates[0].app }
    return try invoke(fn, app: nil, what: "policy 'choose_victim'", push: {
      pushDevice()
      // Every string the tables hold is made once and kept in the store; the
      // tables themselves are built by one C call (the policy may run at
      // every kill of a long experiment).
      guard pushStore() else {
        lua_createtable(L, 0, 0)
        return 2
      }
      let store = lua_gettop(L)
      var rows: [ls_candidate] = []
      rows.reserveCapacity(candidates.count)
      for c in candidates {
        rows.append(ls_candidate(
          app: lua_Integer(appObjects[Int(c.app.index)]), bundle: lua_Integer(bundleString(c.app, store: store)),
          state: lua_Integer(stateName(c.state, store: store)), band: lua_Integer(c.band.rawValue),
          unsaved: lua_Integer(c.unsaved), footprint_mb: c.footprintMB, last_used: c.lastUsed.seconds))
      }
      rows.withUnsafeBufferPointer { ls_push_candidates(L, store, $0.baseAddress, Int32($0.count)) }
      ls_remove(L, store)
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

  /// The store slot of an app's bundle id as a Lua string, made once.
  private func bundleString(_ app: AppID, store: Int32) -> Int32 {
    let i = Int(app.index)
    if functions[i].bundle == 0 {
      push(L, device[app].config.bundle)
      functions[i].bundle = self.store(-1)
      ls_pop(L, 1)
    }
    return functions[i].bundle
  }

  /// The store slot of a state's name as a Lua string, made once.
  private func stateName(_ state: AppState, store: Int32) -> Int32 {
    let i = Int(state.rawValue)
    if stateNames.isEmpty { stateNames = [Int32](repeating: 0, count: AppState.allCases.count) }
    if stateNames[i] == 0 {
      push(L, state.description)
      stateNames[i] = self.store(-1)
      ls_pop(L, 1)
    }
    return stateNames[i]
  }

  /// Calls the function in `slot` with the `ctx` in slot `ctx`, both read raw
  /// from the store, and, with `readsResult`, reads a boolean result.
  @inline(__always)
  private func call(_ slot: Int32, ctx: Int32, app: AppID, what: Running, readsResult: Bool = false) throws -> HandlerResult {
    var result: Int32 = 0
    let status: Int32
    if readsResult {
      status = ls_call_handler(L, storesRef, lua_Integer(id), lua_Integer(slot), lua_Integer(ctx), &result)
    } else {
      status = ls_call_handler(L, storesRef, lua_Integer(id), lua_Integer(slot), lua_Integer(ctx), nil)
    }
    if status != LUA_OK || device.wasKilledWhileRunning(app) { try failed(status, app: app, what: what) }
    switch Int(result) {
    case LS_RESULT_TRUE: return .bool(true)
    case LS_RESULT_FALSE: return .bool(false)
    default: return .none
    }
  }

  /// The rare end of `call`: the error value is on top of the stack, or the
  /// process was killed while its code ran.
  @inline(never)
  private func failed(_ status: Int32, app: AppID, what: Running) throws {
    let top = lua_gettop(L) - (status == LUA_OK ? 0 : 1)
    defer { lua_settop(L, top) }
    try check(status, app: app, what: describe(what))
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
    try check(status, app: app, what: what())
    return try read()
  }

  /// After a protected call: the process was killed while its code ran, or
  /// the function failed (its error on top of the stack).
  private func check(_ status: Int32, app: AppID?, what: @autoclosure () -> String) throws {
    // A SIGKILL runs nothing more, even if the script caught the error.
    if let app, device.wasKilledWhileRunning(app) {
      throw SimulationError.processKilled(app)
    }
    if status != LUA_OK {
      let f = runtime.popFailure(status: status)
      if let inner = f.handler { throw SimulationError.handlerFailed(inner) }
      throw SimulationError.handlerFailed(HandlerFailure(
        app: app.map { device[$0].config.bundle }, callback: what(), time: device.now, message: f.message,
        traceback: f.traceback, isExpectationFailure: f.isExpectation))
    }
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
