import CLua
import CLuaShim
import LifeSimEngine

// Set-up: the `lifesim` table and the metatables, built from the rows in
// Bridge.swift; and the objects scripts hold.
extension LuaRuntime {
  // MARK: - Set-up

  /// Opens the libraries, builds the metatables and the `lifesim` table, and
  /// runs the prelude, which installs the sandbox and determinism.
  func setUp() throws {
    let status = ls_openlibs(L)
    if status != LUA_OK { throw popFailure(status: status) }

    // A weak-valued table: device id -> device userdata.
    lua_createtable(L, 0, 0)
    ls_make_weak(L, -1, "v")
    devicesTableRef = luaL_ref(L, ls_registryindex())
    // And one more, device id -> its value store: a handler call finds the store
    // in two reads instead of three (the device's user value holds it strongly).
    lua_createtable(L, 0, 0)
    ls_make_weak(L, -1, "v")
    storesTableRef = luaL_ref(L, ls_registryindex())
    push(L, StatsTable.keys)
    statsKeysRef = luaL_ref(L, ls_registryindex())

    for kind in ObjectKind.allCases { registerMetatable(kind) }
    precondition(API.index(of: .method(.device), "stats") == nil, "dev.stats is read in C as a field")
    ls_set_stats_field(L, API.index(of: .field(.device), "stats")!, ObjectKind.device.rawValue, "stats")

    // lifesim = { device = …, workload = { … }, callbacks = …, … }, from the rows.
    lua_createtable(L, 0, 12)
    pushFunctions(of: .lifesim)
    lua_createtable(L, 0, 3)
    pushFunctions(of: .workload)
    setField(L, -2, "workload")
    for row in API.rows where row.owner == .lifesim {
      guard case .value(let pushValue) = row.body else { continue }
      pushValue(L)
      setField(L, -2, row.name)
    }
    workloadMetatableRef = makeTableMetatable(name: "lifesim.workload", methods: .workloadObject)
    experimentMetatableRef = makeTableMetatable(name: "lifesim.experiment", methods: nil)
    // The host table the prelude uses privately.
    lua_createtable(L, 0, 4)
    pushFunctions(of: .prelude)
    ls_push_format_maker(L)
    setField(L, -2, "format")
    ls_push_weak_mode_name(L)
    setField(L, -2, "weak_mode")
    ls_push_stats_views(L)
    setField(L, -2, "stats_views")
    try load(source: preludeSource, chunkName: "=lifesim")
    lua_rotate(L, -3, 1)  // prelude, lifesim, host
    push(L, options.unsafe)
    lua_pushinteger(L, lua_Integer(Int64(bitPattern: options.seed)))
    try protectedCall(nargs: 4, nresults: 3)
    // The prelude returns the error metatable, its tostring and reset_run.
    resetRunRef = luaL_ref(L, ls_registryindex())
    tostringRef = luaL_ref(L, ls_registryindex())
    errorMetatableRef = luaL_ref(L, ls_registryindex())
  }

  /// Sets the function rows of `owner` into the table on top of the stack.
  private func pushFunctions(of owner: APIOwner) {
    for (id, row) in API.rows(of: owner) {
      guard case .function = row.body else { continue }
      ls_push_function(L, id, row.qualifiedName)
      setField(L, -2, row.name)
    }
  }

  /// A metatable for tables lifesim hands out (workloads, experiments): methods
  /// through `__index`, a fixed `__name`. Returns its registry reference.
  private func makeTableMetatable(name: String, methods: APIOwner?) -> Int32 {
    lua_createtable(L, 0, 3)
    lua_createtable(L, 0, 4)
    if let methods { pushFunctions(of: methods) }
    setField(L, -2, "__index")
    push(L, name)
    setField(L, -2, "__name")
    return luaL_ref(L, ls_registryindex())
  }

  /// The metatable of a kind of object: `__index` finds a method, else a
  /// field's row, else the kind's `__index` row (an error naming the nearest
  /// field); `__tostring`, `__newindex` and `__gc` are the kind's meta rows.
  private func registerMetatable(_ kind: ObjectKind) {
    lua_createtable(L, 0, 6)
    lua_createtable(L, 0, 12)
    pushFunctions(of: .method(kind))
    let fields = API.rows(of: .field(kind))
    lua_createtable(L, 0, Int32(fields.count))
    for (id, row) in fields {
      lua_pushinteger(L, lua_Integer(id))
      setField(L, -2, row.name)
    }
    ls_push_index(L, API.index(of: .meta(kind), "__index")!)
    setField(L, -2, "__index")
    for (id, row) in API.rows(of: .meta(kind)) where row.name != "__index" {
      if row.name == "__gc" { ls_push_finalizer(L, id) } else { ls_push_function(L, id, row.qualifiedName) }
      setField(L, -2, row.name)
    }
    push(L, false)
    setField(L, -2, "__metatable")  // scripts cannot reach or replace it
    push(L, "lifesim." + kind.luaName)
    setField(L, -2, "__name")
    ls_register_metatable(L, kind.rawValue)
  }

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

  /// An error for an unknown field, with a suggestion.
  func unknownField(_ kind: ObjectKind) -> ScriptError {
    let key = stringValue(L, 2) ?? "?"
    let names = API.fieldNames(kind) + API.methodNames(kind)
    return ScriptError(message: "\(kind.luaName) has no field '\(key)'\(suggestion(for: key, in: names))")
  }
}

