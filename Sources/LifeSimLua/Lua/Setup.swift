import CLua
import CLuaShim
import LifeSimEngine

// Set-up: the `lifesim` table and the metatables, built from the rows in
// Bridge.swift; and the objects scripts hold.
extension LuaRuntime {
  // MARK: - Set-up

  /// Opens the libraries, builds the metatables and the `lifesim` table, and
  /// runs the prelude, which installs the sandbox and determinism.
  /// Every step runs protected (a plan run in C, see ls_run_setup): a refused
  /// allocation ends it with an error, never a longjmp through these frames.
  func setUp() throws {
    try setUpStep(ls_openlibs(L))
    var refs = [Int32](repeating: LUA_NOREF, count: SetupPlan.Slot.count)
    // Leaves the lifesim table and the prelude's host table on the stack.
    try setUpStep(Self.setupPlan.run(L, &refs))
    devicesTableRef = refs[SetupPlan.Slot.devices]
    storesTableRef = refs[SetupPlan.Slot.stores]
    statsKeysRef = refs[SetupPlan.Slot.statsKeys]
    workloadMetatableRef = refs[SetupPlan.Slot.workloadMetatable]
    experimentMetatableRef = refs[SetupPlan.Slot.experimentMetatable]
    try setUpStep(ls_loadbuffer(L, Self.preludeBytes, Self.preludeBytes.count, "=lifesim"))
    lua_rotate(L, -3, 1)  // prelude, lifesim, host
    if lua_checkstack(L, 2) == 0 { try setUpStep(LUA_ERRMEM) }
    push(L, options.unsafe)
    lua_pushinteger(L, lua_Integer(Int64(bitPattern: options.seed)))
    try protectedCall(nargs: 4, nresults: 3)
    // The prelude returns the error metatable, its tostring and reset_run.
    var last = SetupPlan()
    last.ref(SetupPlan.Slot.resetRun)
    last.ref(SetupPlan.Slot.tostring)
    last.ref(SetupPlan.Slot.errorMetatable)
    // The collector no longer sees a script's __mode (see hardening.c);
    // lifesim's own weak tables carry their mode under the private name too.
    if !options.unsafe { last.step(LS_SETUP_HIDE_WEAK_MODE) }
    try setUpStep(last.run(L, nargs: 3, &refs))
    resetRunRef = refs[SetupPlan.Slot.resetRun]
    tostringRef = refs[SetupPlan.Slot.tostring]
    errorMetatableRef = refs[SetupPlan.Slot.errorMetatable]
  }

  /// A set-up step's status: a refused allocation is out of memory, told
  /// without building anything in Lua; other failures are lifesim's bugs.
  private func setUpStep(_ status: Int32) throws {
    if status == LUA_OK { return }
    if status == LUA_ERRMEM {
      lua_settop(L, 0)
      throw LuaFailure(kind: .memory, message: Self.setUpMemoryMessage)
    }
    throw popFailure(status: status)
  }

  static let setUpMemoryMessage =
    "cannot set up a Lua state: out of memory (is the address space limited, ulimit -v?)"

  /// The prelude's bytes, made once: building them is no allocation at set-up.
  static let preludeBytes: [CChar] = Array(preludeSource.utf8CString.dropLast())

  /// The tables every state starts with, described once per process.
  static let setupPlan: SetupPlan = {
    var p = SetupPlan()
    // A weak-valued table: device id -> device userdata.
    p.table(0, 0)
    p.weak("v")
    p.ref(SetupPlan.Slot.devices)
    // And one more, device id -> its value store: a handler call finds the store
    // in two reads instead of three (the device's user value holds it strongly).
    p.table(0, 0)
    p.weak("v")
    p.ref(SetupPlan.Slot.stores)
    p.strings(StatsTable.keys)
    p.ref(SetupPlan.Slot.statsKeys)

    for kind in ObjectKind.allCases { p.metatable(kind) }
    precondition(API.index(of: .method(.device), "stats") == nil, "dev.stats is read in C as a field")
    p.step(LS_SETUP_STATS_FIELD, API.index(of: .field(.device), "stats")!, ObjectKind.device.rawValue, "stats")

    // lifesim = { device = …, workload = { … }, callbacks = …, … }, from the rows.
    p.table(0, 12)
    p.functions(of: .lifesim)
    p.table(0, 3)
    p.functions(of: .workload)
    p.setField("workload")
    for row in API.rows where row.owner == .lifesim {
      guard case .value(let pushValue) = row.body else { continue }
      pushValue(&p)
      p.setField(row.name)
    }
    p.tableMetatable(name: "lifesim.workload", methods: .workloadObject)
    p.ref(SetupPlan.Slot.workloadMetatable)
    p.tableMetatable(name: "lifesim.experiment", methods: nil)
    p.ref(SetupPlan.Slot.experimentMetatable)
    // The host table the prelude uses privately.
    p.table(0, 3)
    p.functions(of: .prelude)
    p.step(LS_SETUP_FORMAT_MAKER)
    p.setField("format")
    p.step(LS_SETUP_WEAK_MODE_NAME)
    p.setField("weak_mode")
    p.step(LS_SETUP_STATS_VIEWS)
    p.setField("stats_views")
    return p
  }()

  // MARK: - Objects

  /// Pushes a new userdata for a handle, with its metatable and one user value
  /// taken from the stack top (which it pops). Stack effect: 0 (replaces the top).
  /// `userValues` makes room for more, which the caller sets.
  func pushObject(_ handle: Handle, userValue: Bool, userValues: Int32 = 1) {
    let p = lua_newuserdatauv(L, MemoryLayout<Handle>.size, userValues)!
    p.storeBytes(of: handle, as: Handle.self)
    ls_push_metatable(L, handle.kind)
    lua_setmetatable(L, -2)
    if userValue {
      lua_rotate(L, -2, 1)  // ud below its user value
      lua_setiuservalue(L, -2, 1)
    }
  }

  /// The handle at `i` if it is an object of `kind`.
  func handle(_ i: Int32, _ kind: ObjectKind) -> Handle? {
    guard let p = ls_touserdata_kind(L, i, kind.rawValue) else { return nil }
    return p.load(as: Handle.self)
  }

  func checkHandle(_ i: Int32, _ kind: ObjectKind) throws -> Handle {
    guard let h = handle(i, kind) else {
      throw ArgumentError(position: i, message: "\(kind.luaName) expected, got \(typeName(L, i))")
    }
    return h
  }

  /// Raises "cannot set field" for every lifesim object.
  func readOnly() throws -> Int32 {
    let key = stringValue(L, 2) ?? typeName(L, 2)
    let type = typeName(L, 1)
    let article = "aeiou".contains(type.first ?? "x") ? "an" : "a"
    throw ScriptError(message: "cannot set field '\(key)' of \(article) \(type): lifesim objects are read-only")
  }

  /// An error for an unknown field, with a suggestion: a name spelt nearly
  /// the same, or the method other tools and iOS's own words call otherwise.
  func unknownField(_ kind: ObjectKind) -> ScriptError {
    let key = stringValue(L, 2) ?? "?"
    let names = API.fieldNames(kind) + API.methodNames(kind)
    var hint = suggestion(for: key, in: names)
    if hint.isEmpty, let method = API.otherNames[kind]?[key.lowercased()] { hint = " (did you mean '\(method)'?)" }
    return ScriptError(message: "\(kind.luaName) has no field '\(key)'\(hint)")
  }
}


extension API {
  /// What a script may write for a device's method when it thinks in other
  /// words: the user's gesture, Simulator's menu, XCUITest's or Android's
  /// name. Only consulted when no name is spelt nearly the same; a test
  /// checks that each target is a method of its kind.
  static let otherNames: [ObjectKind: [String: String]] = [
    .device: [
      "swipe_away": "kill", "swipe_up": "kill", "force_quit": "kill", "force_stop": "kill", "terminate": "kill",
      "quit": "kill", "close_app": "kill",
      "press_home": "home", "go_home": "home", "background": "home", "send_to_background": "home",
      "open": "launch", "tap": "launch", "open_app": "launch", "activate": "launch", "foreground": "launch", "start": "launch",
      "app_switcher": "switcher", "multitasking": "switcher",
      "sleep": "lock", "screen_off": "lock", "wake": "unlock", "screen_on": "unlock",
      "incoming_call": "interrupt", "call": "interrupt", "alert": "interrupt",
      "wait": "advance", "sleep_for": "advance", "advance_time": "advance", "tick": "advance",
    ],
  ]
}
