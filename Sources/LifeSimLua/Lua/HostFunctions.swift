import CLua
import CLuaShim
import LifeSimEngine

/// Every Swift function Lua can call, numbered for the C trampolines.
enum HostFunction: Int32, CaseIterable {
  // lifesim.*
  case device = 1, expectCallbacks, test, experiment
  // lifesim.workload.*
  case workloadUser, workloadReplay, workloadReadCSV, workloadDrive
  // the prelude's private host table
  case write, readModule
  // device methods and metamethods
  case devInstall, devLaunch, devOpenURL, devHome, devLock, devUnlock, devInterrupt
  case devEndInterrupt, devSwitcher, devSwitchTo, devKill, devMemoryWarning
  case devAdvance, devAt, devAfter, devRun, devMark, devApp, devLog
  case devBackgroundFetch, devSilentPush, devPolicy, devRotate
  case devIndex, devToString, devGC
  // app
  case appOn, appObserve, appOpenScene, appIndex, appToString
  case appPush, appPop, appPopGesture, appPresent, appDismiss, appDismissGesture
  // vc and view
  case vcAddView, vcLoadView, vcIndex, vcToString
  case viewAddView, viewRemove, viewIndex, viewToString
  // scene
  case sceneClose, sceneDisconnect, sceneIndex, sceneToString
  // trace
  case traceCallbacks, traceRecords, traceText, traceIndex, traceToString
  // ctx
  case ctxWork, ctxAfter, ctxIndex, ctxToString
  case ctxBeginBackgroundTask, ctxPlayAudio, ctxAllocate, ctxRelease, ctxDirty, ctxSave, ctxComplete
  // task
  case taskFinish, taskIndex, taskToString
  // shared
  case readOnly
}

/// The methods of each kind of object: one registration table per type (STYLE §9).
let methodTables: [ObjectKind: [(String, HostFunction)]] = [
  .device: [
    ("install", .devInstall), ("launch", .devLaunch), ("open_url", .devOpenURL), ("home", .devHome),
    ("lock", .devLock), ("unlock", .devUnlock), ("interrupt", .devInterrupt),
    ("end_interrupt", .devEndInterrupt), ("switcher", .devSwitcher), ("switch_to", .devSwitchTo),
    ("kill", .devKill), ("memory_warning", .devMemoryWarning), ("advance", .devAdvance),
    ("at", .devAt), ("after", .devAfter), ("run", .devRun), ("mark", .devMark), ("app", .devApp),
    ("log", .devLog), ("background_fetch", .devBackgroundFetch), ("silent_push", .devSilentPush),
    ("policy", .devPolicy), ("rotate", .devRotate),
  ],
  .app: [("on", .appOn), ("observe", .appObserve), ("open_scene", .appOpenScene), ("push", .appPush),
         ("pop", .appPop), ("pop_gesture", .appPopGesture), ("present", .appPresent),
         ("dismiss", .appDismiss), ("dismiss_gesture", .appDismissGesture)],
  .vc: [("add_view", .vcAddView), ("load_view", .vcLoadView)],
  .view: [("add_view", .viewAddView), ("remove", .viewRemove)],
  .scene: [("close", .sceneClose), ("disconnect", .sceneDisconnect)],
  .trace: [("callbacks", .traceCallbacks), ("records", .traceRecords), ("text", .traceText)],
  .context: [("work", .ctxWork), ("after", .ctxAfter), ("begin_background_task", .ctxBeginBackgroundTask),
             ("play_audio", .ctxPlayAudio), ("allocate", .ctxAllocate), ("release", .ctxRelease),
             ("dirty", .ctxDirty), ("save", .ctxSave), ("complete", .ctxComplete)],
  .task: [("finish", .taskFinish)],
]

/// The fields each kind of object answers, for errors with suggestions (and the REPL).
let propertyNames: [ObjectKind: [String]] = [
  .device: ["now", "ios", "seed", "trace", "apps", "frontmost", "locked", "interruption",
            "switcher_open", "memory_mb", "per_process_limit_mb", "model", "debugger", "quirks",
            "profile", "passcode", "memory_used_mb", "memory_level", "stats", "records_trace"],
  .app: ["bundle", "state", "pid", "launches", "running", "model", "scenes", "footprint_mb",
         "exits_on_suspend", "background_modes", "background_time_remaining", "unsaved",
         "playing_audio", "band", "tasks", "top", "stack", "presented"],
  .vc: ["class", "instance", "from", "app", "state", "view_loaded", "in_window", "empty_view",
        "presentation", "views"],
  .view: ["class", "instance", "from", "app", "vc", "superview", "views", "in_window", "removed"],
  .task: ["id", "name", "app", "open", "expired"],
  .scene: ["id", "app", "state", "connected", "closed"],
  .trace: ["count"],
  .context: ["app", "callback", "now", "options", "scene", "vc", "view"],
]

extension LuaRuntime {
  /// Runs host function `id`, turning thrown errors into trampoline requests.
  func dispatch(_ L: LuaState, _ id: Int32) -> Int32 {
    // A coroutine may call in: work on its stack, not the main thread's.
    let caller = self.L
    self.L = L
    defer { self.L = caller }
    guard let f = HostFunction(rawValue: id) else {
      push(L, "internal error: unknown host function \(id)")
      return LS_RAISE
    }
    do {
      return try call(f)
    } catch let e as ArgumentError {
      lua_pushinteger(L, lua_Integer(e.position))
      push(L, e.message)
      return LS_ARGERROR
    } catch let e as ScriptError {
      push(L, e.message)
      return LS_RAISE_WHERE
    } catch SimulationError.handlerFailed(let failure) {
      pushErrorObject(failure)
      return LS_RAISE
    } catch let e as SimulationError {
      push(L, e.description)
      return LS_RAISE_WHERE
    } catch is RaiseTop {
      return LS_RAISE
    } catch {
      push(L, "\(error)")
      return LS_RAISE_WHERE
    }
  }

  private func call(_ f: HostFunction) throws -> Int32 {
    switch f {
    case .device: return try lifesimDevice()
    case .expectCallbacks: return try expectCallbacks()
    case .test: return try runTestCase()
    case .experiment: return try lifesimExperiment()
    case .workloadUser: return try workloadUser()
    case .workloadReplay: return try workloadReplay()
    case .workloadReadCSV: return try workloadReadCSV()
    case .workloadDrive: return try workloadDrive()
    case .write: return try write()
    case .readModule: return try readModule()
    case .devInstall: return try devInstall()
    case .devLaunch: return try devLaunch()
    case .devOpenURL: return try devOpenURL()
    case .devHome: return try devSimple { try $0.home() }
    case .devLock: return try devSimple { try $0.lock() }
    case .devUnlock: return try devSimple { try $0.unlock() }
    case .devInterrupt: return try devInterrupt()
    case .devEndInterrupt: return try devEndInterrupt()
    case .devSwitcher: return try devSimple { try $0.openSwitcher() }
    case .devSwitchTo: return try devWithApp { try $0.switchTo($1) }
    case .devKill: return try devWithApp { try $0.forceQuit($1) }
    case .devMemoryWarning: return try devSimple { try $0.memoryWarning() }
    case .devAdvance: return try devAdvance()
    case .devAt: return try devSchedule(relative: false)
    case .devAfter: return try devSchedule(relative: true)
    case .devRun: return try devSimple { try $0.run() }
    case .devMark: return try devMark()
    case .devApp: return try devApp()
    case .devLog: return try devLog()
    case .devBackgroundFetch: return try devWithApp { try $0.backgroundFetch($1) }
    case .devSilentPush: return try devWithApp { try $0.silentPush($1) }
    case .devPolicy: return try devPolicy()
    case .devRotate: return try devSimple { try $0.rotate() }
    case .devIndex: return try devIndex()
    case .devToString: return try devToString()
    case .devGC: return devGC()
    case .appOn: return try appOn()
    case .appObserve: return try appObserve()
    case .appIndex: return try appIndex()
    case .appOpenScene: return try appOpenScene()
    case .appToString: return try appToString()
    case .appPush: return try appPush()
    case .appPop: return try appSimple { try $0.pop(app: $1) }
    case .appPopGesture: return try appGesture { try $0.popGesture(app: $1, cancel: $2) }
    case .appPresent: return try appPresent()
    case .appDismiss: return try appSimple { try $0.dismiss(app: $1) }
    case .appDismissGesture: return try appGesture { try $0.dismissGesture(app: $1, cancel: $2) }
    case .vcAddView: return try vcAddView()
    case .vcLoadView: return try vcLoadView()
    case .vcIndex: return try vcIndex()
    case .vcToString: return try vcToString()
    case .viewAddView: return try viewAddView()
    case .viewRemove: return try viewRemove()
    case .viewIndex: return try viewIndex()
    case .viewToString: return try viewToString()
    case .sceneClose: return try sceneClose()
    case .sceneDisconnect: return try sceneDisconnect()
    case .sceneIndex: return try sceneIndex()
    case .sceneToString: return try sceneToString()
    case .traceCallbacks: return try traceCallbacks()
    case .traceRecords: return try traceRecords()
    case .traceText: return try traceText()
    case .traceIndex: return try traceIndex()
    case .traceToString: return try traceToString()
    case .ctxWork: return try ctxWork()
    case .ctxAfter: return try ctxAfter()
    case .ctxIndex: return try ctxIndex()
    case .ctxToString: return try ctxToString()
    case .ctxBeginBackgroundTask: return try ctxBeginBackgroundTask()
    case .ctxPlayAudio: return try ctxPlayAudio()
    case .ctxAllocate: return try ctxMemory(allocate: true)
    case .ctxRelease: return try ctxMemory(allocate: false)
    case .ctxDirty: return try ctxDirty()
    case .ctxSave: return try ctxSave()
    case .ctxComplete: return try ctxComplete()
    case .taskFinish: return try taskFinish()
    case .taskIndex: return try taskIndex()
    case .taskToString: return try taskToString()
    case .readOnly: return try readOnly()
    }
  }

  // MARK: - Set-up

  /// Opens the libraries, builds the metatables and the `lifesim` table, and
  /// runs the prelude, which installs the sandbox (§7.3) and determinism (§7.4).
  func setUp() throws {
    let status = ls_openlibs(L)
    if status != LUA_OK { throw popFailure(status: status) }

    // A weak-valued table: device id -> device userdata.
    lua_createtable(L, 0, 0)
    lua_createtable(L, 0, 1)
    push(L, "v"); setField(L, -2, "__mode")
    lua_setmetatable(L, -2)
    devicesTableRef = luaL_ref(L, ls_registryindex())

    for kind in ObjectKind.allCases { registerMetatable(kind) }

    // lifesim = { device = ..., expect_callbacks = ..., test = ... }
    lua_createtable(L, 0, 8)
    for (name, f) in [("device", HostFunction.device), ("expect_callbacks", .expectCallbacks), ("test", .test),
                      ("experiment", .experiment)] {
      ls_push_function(L, f.rawValue)
      setField(L, -2, name)
    }
    lua_createtable(L, 0, 3)
    for (name, f) in [("user", HostFunction.workloadUser), ("replay", .workloadReplay), ("read_csv", .workloadReadCSV)] {
      ls_push_function(L, f.rawValue)
      setField(L, -2, name)
    }
    setField(L, -2, "workload")
    workloadMetatableRef = makeTableMetatable(name: "lifesim.workload", methods: [("drive", .workloadDrive)])
    experimentMetatableRef = makeTableMetatable(name: "lifesim.experiment", methods: [])
    lua_createtable(L, Int32(OSProfile.supportedVersions.count), 0)
    for (i, v) in OSProfile.supportedVersions.enumerated() {
      push(L, v)
      lua_rawseti(L, -2, lua_Integer(i + 1))
    }
    setField(L, -2, "ios_versions")
    push(L, Callback.allCases.map(\.selector))
    setField(L, -2, "callbacks")
    // lifesim.quirks: name -> what it changes, and where the reference discusses it.
    lua_createtable(L, 0, Int32(Quirk.allCases.count))
    for q in Quirk.allCases {
      push(L, "\(q.summary) (reference \(q.reference))")
      setField(L, -2, q.description)
    }
    setField(L, -2, "quirks")
    push(L, lifesimVersion)
    setField(L, -2, "version")
    // The host table the prelude uses privately.
    lua_createtable(L, 0, 2)
    for (name, f) in [("write", HostFunction.write), ("read_module", .readModule)] {
      ls_push_function(L, f.rawValue)
      setField(L, -2, name)
    }
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

  /// A metatable for tables lifesim hands out (workloads, experiments): methods
  /// through `__index`, a fixed `__name`. Returns its registry reference.
  private func makeTableMetatable(name: String, methods: [(String, HostFunction)]) -> Int32 {
    lua_createtable(L, 0, 3)
    lua_createtable(L, 0, Int32(methods.count))
    for (method, f) in methods {
      ls_push_function(L, f.rawValue)
      setField(L, -2, method)
    }
    setField(L, -2, "__index")
    push(L, name)
    setField(L, -2, "__name")
    return luaL_ref(L, ls_registryindex())
  }

  private func registerMetatable(_ kind: ObjectKind) {
    lua_createtable(L, 0, 6)
    let (index, tostring): (HostFunction, HostFunction) = {
      switch kind {
      case .device: return (.devIndex, .devToString)
      case .app: return (.appIndex, .appToString)
      case .trace: return (.traceIndex, .traceToString)
      case .context: return (.ctxIndex, .ctxToString)
      case .scene: return (.sceneIndex, .sceneToString)
      case .task: return (.taskIndex, .taskToString)
      case .vc: return (.vcIndex, .vcToString)
      case .view: return (.viewIndex, .viewToString)
      }
    }()
    lua_createtable(L, 0, Int32(methodTables[kind]?.count ?? 0))
    for (name, f) in methodTables[kind] ?? [] {
      ls_push_function(L, f.rawValue)
      setField(L, -2, name)
    }
    ls_push_index(L, index.rawValue)
    setField(L, -2, "__index")
    ls_push_function(L, tostring.rawValue)
    setField(L, -2, "__tostring")
    ls_push_function(L, HostFunction.readOnly.rawValue)
    setField(L, -2, "__newindex")
    push(L, false)
    setField(L, -2, "__metatable")  // scripts cannot reach or replace it
    push(L, "lifesim." + kind.luaName)
    setField(L, -2, "__name")
    if kind == .device {
      ls_push_finalizer(L, HostFunction.devGC.rawValue)
      setField(L, -2, "__gc")
    }
    ls_register_metatable(L, kind.rawValue)
  }

  // MARK: - Objects

  /// Pushes a new userdata for a handle, with its metatable and one user value
  /// taken from the stack top (which it pops). Stack effect: 0 (replaces the top).
  func pushObject(_ handle: Handle, userValue: Bool) {
    let p = lua_newuserdatauv(L, MemoryLayout<Handle>.size, 1)!
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
  private func readOnly() throws -> Int32 {
    let key = stringValue(L, 2) ?? typeName(L, 2)
    let type = typeName(L, 1)
    let article = "aeiou".contains(type.first ?? "x") ? "an" : "a"
    throw ScriptError(message: "cannot set field '\(key)' of \(article) \(type): lifesim objects are read-only")
  }

  /// An error for an unknown field, with a suggestion.
  func unknownField(_ kind: ObjectKind) -> ScriptError {
    let key = stringValue(L, 2) ?? "?"
    let names = (propertyNames[kind] ?? []) + (methodTables[kind] ?? []).map(\.0)
    return ScriptError(message: "\(kind.luaName) has no field '\(key)'\(suggestion(for: key, in: names))")
  }
}

/// Thrown by host code that already pushed the error value to raise.
struct RaiseTop: Error {}

/// lifesim's version, as `lifesim.version` and `lifesim --version` print it.
public let lifesimVersion = "0.1.0"
