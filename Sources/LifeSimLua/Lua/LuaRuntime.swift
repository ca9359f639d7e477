import CLua
import CLuaShim
import LifeSimEngine

/// How a Lua runtime is configured: the run's seed and defaults, the sandbox
/// and the limits.
public struct RuntimeOptions: Sendable {
  /// The run's seed: `math.random` and devices without their own `seed` use it.
  public var seed: UInt64 = 1
  /// The iOS version of devices that do not name one.
  public var ios: Int = 17
  /// Every device runs `ios`, whatever the script's `lifesim.device{ ios = … }`
  /// says (`lifesim compare`, whose columns are versions); `pinnedVersions`
  /// tells what was overridden.
  public var overrideIOS = false
  /// Give scripts the whole standard library (`lifesim run --unsafe`).
  public var unsafe = false
  /// The memory cap of the Lua state, in bytes (`--max-memory`).
  public var memoryLimit: Int = 256 << 20
  /// Keep the whole Lua state in one mapping that `saveState` can copy
  /// (`lifesim explore`). It reserves twice the memory cap of address space.
  public var snapshots = false
  /// The size of that mapping instead, for tests: one small enough to fill
  /// shows what happens when it does (the memory cap trips).
  var arenaBytes: Int?
  /// Instructions per run (`--max-instructions`); negative means unlimited.
  public var maxInstructions: Int64 = 300_000_000
  /// Instructions per handler, observer or timer call.
  public var maxHandlerInstructions: Int64 = 50_000_000
  /// How far `dev:run()` may take a device's clock, in seconds (`--max-time`).
  public var maxTime: Double = 30 * 86_400
  /// Events that may run at one virtual instant (`--max-events-per-instant`).
  public var maxEventsPerInstant = 100_000
  /// What the devices' traces may keep together, in bytes: their records,
  /// the records' text and the names they hold (`--max-trace-memory`).
  public var maxTraceMemory = 1 << 30
  /// The files the command writes, each with its option (`--output`): the
  /// script may not read one (`require`, `read_csv`), and the command then
  /// writes nothing (`LuaRuntime.readOutput`).
  public var outputs: [(option: String, path: String)] = []
  /// The digest of a file's bytes, for the files a script reads besides
  /// itself (`LoadedFile`): `lifesim batch` gives SHA-256 and records them
  /// in a result file's header. Without it, the files are noted without one.
  public var fileDigest: (@Sendable ([UInt8]) -> String)?
  /// Keep every device made, so their traces can be written after the script.
  public var retainDevices = true
  /// Keep every device's Lua object too, so the script's functions stay
  /// callable on it after the script ends (`lifesim explore` steps it).
  public var pinDevices = false
  /// `lifesim test`: a `lifesim.test` case called while the file loads is
  /// kept, and runs later (`runCollectedTests`) from the state the whole
  /// file left; without it, each case runs where it is called.
  public var collectsTests = false
  /// Where `print` writes (when it does not make a trace record).
  public var output: @Sendable (String) -> Void = { print($0, terminator: "") }
  /// `print` makes a `log` record at the virtual time it runs, in the trace of
  /// the device whose app's code runs, or else of the newest device, so that
  /// it interleaves with the callbacks (`lifesim run`). Before any device
  /// exists, or on a device that keeps no trace, it writes to `output`.
  public var printsToTrace = false
  /// Where a `print` that became a record is also written, if anywhere
  /// (`lifesim run -o FILE` shows it on the terminal too).
  public var printEcho: (@Sendable (String) -> Void)?
  /// When set, each device the script makes (numbered from 1) streams its
  /// records through the stream this returns, as they are made, and keeps none:
  /// `dev.trace` queries are then refused (`lifesim run --stream`).
  public var traceStream: (@Sendable (Device, Int) -> TraceStream?)?

  public init() {}
}

/// The result of one `lifesim.test` case.
public struct TestCaseResult: Sendable {
  /// What became of a case, as pytest counts them.
  public enum Status: Sendable, Equatable {
    case passed, failed
    /// Not run: `lifesim.skip`, or `skip =`.
    case skipped(String)
    /// Failed as `xfail =` or `lifesim.xfail` said it would.
    case xfailed(String)
    /// Passed though `xfail =` said it would fail: a failure (pytest's strict xfail).
    case xpassed(String)
    /// Not selected (`lifesim test -k`).
    case deselected
    /// Not run because an earlier case failed (`lifesim test -x`).
    case notRun

    /// Whether the case passed though it was marked to fail.
    public var isXpassed: Bool {
      if case .xpassed = self { return true }
      return false
    }
  }
  public var name: String
  public var status: Status = .passed
  public var failure: LuaFailure?
  /// Wall-clock seconds the case took (for reports only: scripts never see it).
  public var seconds = 0.0
  /// For a failure: the virtual time and the last trace records before it
  /// (`failureContext`).
  public var context: String?
  /// The line the case's function starts on, in the file that called `lifesim.test`.
  public var line: Int?
  /// Whether the case counts against the run (a failure, an error or an unexpected pass).
  public var fails: Bool { status == .failed || status.isXpassed }
}

/// One Lua state with lifesim loaded: the owner of the state, the devices made
/// in it, and the registry of script functions they call.
///
/// Swift calls into Lua only through `ls_pcall`, and Lua calls Swift only
/// through the C trampolines, so no Lua error ever unwinds a Swift frame
/// (the rule at the top of Bridge.swift).
///
///     let rt = try LuaRuntime(options: RuntimeOptions())
///     try rt.run(source: "local dev = lifesim.device{ ios = 12 }", chunkName: "=demo")
public final class LuaRuntime {
  // Stored properties are @exclusivity(unchecked), as `Device`'s are: every
  // handler call reads several, and a dynamic check per access was measurable.
  /// The thread whose stack host functions work on: the main state, or the
  /// coroutine that called into lifesim (set by `dispatch` for each call).
  @exclusivity(unchecked) var L: LuaState
  /// The main state, which the runtime owns.
  let mainState: LuaState
  public let options: RuntimeOptions
  /// The script's path, for `require` (modules beside it and in Scripts/lib).
  @exclusivity(unchecked) public var scriptPath: String?

  @exclusivity(unchecked) var devices = DeviceSlots()
  /// `API.calls` and `API.maxArguments`, held: a `static let` is reached
  /// through `swift_once` on every read on Linux, and every host call reads both.
  let hostCalls = API.calls
  let hostMaxArguments = API.maxArguments
  /// What the traces of the script's devices keep, together (`maxTraceMemory`).
  let traceBudget: MemoryBudget
  /// Devices made since the run began (`maxDevices`).
  @exclusivity(unchecked) var devicesThisRun = 0
  /// The most devices one run makes: each is a few kilobytes the Lua
  /// allocator never sees.
  static let maxDevices = 10_000
  /// The device a script function was last called on: the one a test's
  /// failure context describes.
  @exclusivity(unchecked) var lastUsedDeviceID: Int32?
  @exclusivity(unchecked) var nextDeviceID: Int32 = 1
  /// Devices made by the script, in order, when `retainDevices` is set.
  @exclusivity(unchecked) public private(set) var createdDevices: [Device] = []
  /// The versions scripts asked for in `lifesim.device{ ios = … }` that
  /// `overrideIOS` replaced, in order of first use.
  @exclusivity(unchecked) public internal(set) var pinnedVersions: [Int] = []
  /// The versions devices named in `lifesim.device{ ios = … }` that differ
  /// from `options.ios`, in order of first use: with `devicesOnOptionVersion`,
  /// what tells a command that its `--ios` went unused.
  @exclusivity(unchecked) public internal(set) var ownVersions: [Int] = []
  /// How many devices run `options.ios`.
  @exclusivity(unchecked) public internal(set) var devicesOnOptionVersion = 0

  /// What to say when the command line named a version (`--ios`) that no
  /// device ran, because each device names its own: nil when it was used,
  /// or when no device was made.
  public func unusedVersionWarning(file: String) -> String? {
    guard devicesOnOptionVersion == 0, !ownVersions.isEmpty else { return nil }
    let what = ownVersions.map { "ios = \($0)" }.joined(separator: ", ")
    return "lifesim: warning: --ios \(options.ios) was not used: \(file) sets \(what) in lifesim.device, "
      + "which wins over --ios; the run used what the script sets"
  }
  /// The `lifesim.test` cases run so far, in order.
  @exclusivity(unchecked) public internal(set) var testResults: [TestCaseResult] = []
  /// The cases kept while the file loads (`RuntimeOptions.collectsTests`).
  @exclusivity(unchecked) var collectedTests: [CollectedTest] = []
  /// Whether the collected cases are running (a `lifesim.test` inside one runs where it is).
  @exclusivity(unchecked) var runningCollectedTests = false
  /// Which cases `lifesim test -k` runs, by name: a case that runs at once
  /// (declared inside another, or in a timer) is deselected as a kept one is.
  public var testSelection: ((String) -> Bool)?
  /// The end-of-run warnings and notes of each collected case (its devices
  /// are gone when the next case starts from the file's state): the case's
  /// name and the line, in the order they came, each line once.
  public internal(set) var caseNotes: [(testCase: String, line: String)] = []
  /// What the script declared for `lifesim explore`.
  @exclusivity(unchecked) public internal(set) var explore = ExploreDeclarations()

  let contexts = ContextStack()
  /// The message of the last call the device refused (a refusal raised into
  /// the script): `lifesim explore` tells a refused action of the script's own
  /// from a failing one by it.
  @exclusivity(unchecked) var lastRefusal: String?
  /// Where `saveState(against:)` writes a delta before keeping its exact size.
  @exclusivity(unchecked) var snapshotScratch: [UInt8] = []
  /// Whether the Lua state's writes are tracked since a base was saved (`trackWrites`).
  @exclusivity(unchecked) var tracksWrites = false
  /// How many times the tracked base changed (`rebase`): a state saved
  /// against an earlier one no longer restores.
  @exclusivity(unchecked) var trackGeneration = 0
  /// Tracked restores so far, and every how many one is checked byte for byte
  /// against the state saved (`restoreState`): a write the tracking missed
  /// would make the search's answer wrong in silence. Every one in debug
  /// builds (and so in the tests); a sample in release builds, where a check
  /// costs about what a step does.
  @exclusivity(unchecked) var trackedRestores = 0
  var trackedRestoreCheckEvery: Int = {
    #if DEBUG
    return 1
    #else
    return 1024
    #endif
  }()

  // Registry references made at start-up.
  @exclusivity(unchecked) var devicesTableRef: Int32 = 0
  /// The registry's weak-valued table of device id -> value store.
  @exclusivity(unchecked) var storesTableRef: Int32 = 0
  /// The keys of `dev.stats` as Lua strings (`StatsTable`).
  @exclusivity(unchecked) var statsKeysRef: Int32 = 0
  @exclusivity(unchecked) var errorMetatableRef: Int32 = 0
  @exclusivity(unchecked) var tostringRef: Int32 = 0
  @exclusivity(unchecked) var resetRunRef: Int32 = 0
  /// The REPL's protected field reader (`o[k]`), made on first use.
  @exclusivity(unchecked) var fieldReaderRef: Int32 = 0
  @exclusivity(unchecked) var workloadMetatableRef: Int32 = 0
  /// Set when the script tried to read one of the command's outputs
  /// (`RuntimeOptions.outputs`): the message. The command then writes nothing.
  public internal(set) var readOutput: String?
  /// The modules and data files the script read (`LoadedFile`), since
  /// `takeLoadedFiles` was last called.
  @exclusivity(unchecked) var loadedFiles: [LoadedFile] = []
  @exclusivity(unchecked) var loadedFileSet: Set<LoadedFile> = []
  /// How deep `describeErrorValue` is nested (an error's `__tostring` may raise).
  @exclusivity(unchecked) var describingErrors = 0
  @exclusivity(unchecked) var experimentMetatableRef: Int32 = 0

  /// The seed of devices that name none: the run's (`--seed`, or a batch run's seed).
  @exclusivity(unchecked) var defaultSeed: UInt64
  /// The experiment the runtime loaded (`loadExperiment`), in the registry.
  @exclusivity(unchecked) var experimentRef: Int32 = LUA_NOREF
  /// Where each experiment table was made (`path:line` of its
  /// `lifesim.experiment{` call), by the table's address while the file
  /// runs; and that of the one the file returned.
  var experimentPlaces: [UnsafeRawPointer: String] = [:]
  var experimentPlace: String?

  /// Creates a state, opens the sandboxed libraries and loads lifesim.
  /// - Throws: `LuaFailure` if the prelude fails (a bug) or memory runs out.
  public init(options: RuntimeOptions) throws {
    self.options = options
    self.defaultSeed = options.seed
    self.traceBudget = MemoryBudget(limit: options.maxTraceMemory)
    _ = dispatchInstalled
    // Room held while the state is made and set up, and given back before any
    // failure is told: where the address space is limited (ulimit -v), Lua is
    // refused first, within its protected set-up, and Swift still has room
    // to report it (Swift's own allocations cannot fail gracefully).
    let reserve = mmap(nil, Self.setUpReserve, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
    guard let reserve, reserve != MAP_FAILED else {
      throw LuaFailure(kind: .memory, message: Self.setUpMemoryMessage)
    }
    var reserved = true
    func release() {
      if reserved { munmap(reserve, Self.setUpReserve) }
      reserved = false
    }
    defer { release() }
    let made = options.snapshots
      ? ls_newstate_arena(options.arenaBytes ?? max(options.memoryLimit, 64 << 20) * 2 + (64 << 20), nil)
      : ls_newstate(0, nil)
    guard let L = made else {
      release()
      throw LuaFailure(kind: .memory, message: "cannot create a Lua state: out of memory")
    }
    self.L = L
    self.mainState = L
    ls_getstate(L).pointee.host = Unmanaged.passUnretained(self).toOpaque()
    do {
      try setUp()
    } catch {
      release()
      throw error
    }
    // The cap applies to scripts, not to lifesim's own start-up.
    ls_getstate(L).pointee.limit = options.memoryLimit
    ls_set_budgets(L, options.maxInstructions, options.maxHandlerInstructions)
  }

  /// The address space held back while a state is set up (see init).
  static let setUpReserve = 4 << 20

  deinit {
    // A device kept after the runtime (`createdDevices`) must not call back into it.
    for id in devices.ids { devices[id]?.detach() }
    ls_close(mainState)
    contexts.deallocate()
  }

  /// Bytes in use by the Lua state.
  public var memoryUsed: Int { ls_getstate(L).pointee.used }

  // MARK: - Running chunks

  /// Compiles and runs a chunk at the top level.
  /// - Parameter chunkName: `@path` for files, so messages read `path:line:`.
  /// - Throws: `LuaFailure`.
  public func run(source: String, chunkName: String) throws {
    try run(bytes: Array(source.utf8), chunkName: chunkName)
  }

  /// Compiles and runs a chunk given as raw bytes: Lua strings in it keep
  /// bytes that are not UTF-8.
  public func run(bytes: [UInt8], chunkName: String) throws {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    try load(bytes: bytes, chunkName: chunkName)
    try protectedCall(nargs: 0, nresults: 1)
    keepExperiment(returnedAt: -1)
  }

  /// Runs a file as a script.
  public func runFile(_ path: String) throws {
    let bytes: [UInt8]
    do {
      bytes = try readFileBytes(path)
    } catch {
      throw LuaFailure(kind: .runtime, message: "cannot open \(path): \(error)")
    }
    scriptPath = path
    try run(bytes: withoutByteOrderMark(bytes), chunkName: "@" + path)
  }

  /// Loads a chunk and leaves the function on the stack.
  func load(source: String, chunkName: String) throws {
    try load(bytes: Array(source.utf8), chunkName: chunkName)
  }

  func load(bytes: [UInt8], chunkName: String) throws {
    let status = bytes.withUnsafeBufferPointer { buf in
      buf.withMemoryRebound(to: CChar.self) { ls_loadbuffer(L, $0.baseAddress, $0.count, chunkName) }
    }
    if status != LUA_OK {
      var message = stringValue(L, -1) ?? "syntax error"
      ls_pop(L, 1)
      // Lua's refusal of bytecode names no chunk: name the file.
      if message.hasPrefix("attempt to load a binary chunk") && chunkName.hasPrefix("@") {
        message = "\(chunkName.dropFirst()): \(message); lifesim runs Lua source only"
      }
      throw LuaFailure(kind: status == LUA_ERRMEM ? .memory : .syntax, message: message)
    }
  }

  /// Calls the function below `nargs` arguments, protected, at the top level.
  /// - Throws: `LuaFailure`, with the error popped.
  func protectedCall(nargs: Int32, nresults: Int32, nested: Bool = false) throws {
    let status = ls_pcall(L, nargs, nresults, nested ? 1 : 0)
    if status != LUA_OK { throw popFailure(status: status) }
  }

  /// Turns the error value on top of the stack into a `LuaFailure`, and pops it.
  func popFailure(status: Int32) -> LuaFailure {
    defer { ls_pop(L, 1) }
    ls_push_traceback(L)
    let traceback = stringValue(L, -1)
    ls_pop(L, 1)
    if status == LUA_ERRMEM {
      // Lua raises refused allocations without the message handler, so there is no
      // location; the growth that merely crosses the cap is reported by the hook, with one.
      let cap = "its memory cap of \(options.memoryLimit >> 20) MB (--max-memory)"
      let state = ls_getstate(L).pointee
      let message = state.system_refused > 0
        ? "not enough memory: the system refused memory (ulimit -v?): an allocation of \(formatMegabytes(state.system_refused)) "
          + "failed while the script held \(formatTenthsOfMegabytes(state.used)) of \(cap)"
        : state.refused > 0
        ? "not enough memory: an allocation of \(formatMegabytes(state.refused)) would take the script past \(cap)"
        : "not enough memory: the script exceeded \(cap)"
      return LuaFailure(kind: .memory, message: message, traceback: traceback)
    }
    if let f = errorObject(at: -1) { return f }
    if let s = errorText(L, -1) {
      // The hook's located report of the memory cap (see the allocator in alloc.c).
      let memory = ls_getstate(L).pointee.tripped == LS_TRIP_MEMORY
      return LuaFailure(kind: memory ? .memory : .runtime, message: s, traceback: traceback)
    }
    return LuaFailure(kind: .runtime, message: describeErrorValue(at: -1), traceback: traceback)
  }

  /// An error message that is a string, its first 64 kB at most: the host
  /// keeps it, prints it and writes it into result files, and no cap counts
  /// what a script hands it that way (`error(string.rep("x", 1e8))`).
  private func errorText(_ L: LuaState, _ i: Int32) -> String? {
    guard lua_type(L, i) == LUA_TSTRING else { return nil }
    var len = 0
    guard let p = lua_tolstring(L, i, &len) else { return nil }
    let cap = 64 << 10
    return p.withMemoryRebound(to: UInt8.self, capacity: len) {
      let text = String(decoding: UnsafeBufferPointer(start: $0, count: min(len, cap)), as: UTF8.self)
      return len <= cap ? text : text + "… (the message goes on: \(len) bytes in all)"
    }
  }

  /// A readable text for an error value that is not a string (§8 pitfall 4):
  /// "error object is a table: { code = 1 }". A value's own `__tostring` speaks
  /// for it, called protected; when that fails, the failure is named and the
  /// table is laid out raw. No script code runs otherwise.
  private func describeErrorValue(at i: Int32) -> String {
    let abs = lua_absindex(L, i)
    if lua_type(L, abs) == LUA_TNIL { return "error object is nil" }
    let name = typeName(L, abs)
    let what = "error object is \("aeiou".contains(name.first ?? "x") ? "an" : "a") \(name)"
    // A __tostring can raise another object with a __tostring that raises, and
    // so on: only the outermost two get to speak.
    describingErrors += 1
    defer { describingErrors -= 1 }
    let speaks = describingErrors <= 2
    var printer = PrettyPrinter(runtime: self, maxDepth: 2)
    printer.lineWidth = Int.max
    printer.callsToString = speaks
    if speaks && hasToString(abs) {
      switch protectedToStringResult(at: abs) {
      case .success(let text): return "\(what): \(text)"
      case .failure(let failure):
        printer.callsToString = false
        let layout = lua_type(L, abs) == LUA_TTABLE ? ": " + printer.render(abs, depth: 0, indent: "") : ""
        return "\(what) whose __tostring failed (\(failure.message))\(layout)"
      }
    }
    return "\(what): \(printer.render(abs, depth: 0, indent: ""))"
  }

  /// Whether the value at `i` has a `__tostring` metamethod (read raw).
  func hasToString(_ i: Int32) -> Bool {
    guard lua_getmetatable(L, i) != 0 else { return false }
    defer { ls_pop(L, 2) }
    return rawField(L, -1, "__tostring") != LUA_TNIL
  }

  /// The prelude's `tostring` of the value at `i`, called protected.
  func protectedToStringResult(at i: Int32) -> Result<String, LuaFailure> {
    let abs = lua_absindex(L, i)
    return withRestoredStack(L) {
      lua_rawgeti(L, ls_registryindex(), lua_Integer(tostringRef))
      lua_pushvalue(L, abs)
      let status = ls_pcall(L, 1, 1, 1)
      guard status == LUA_OK else { return .failure(popFailure(status: status)) }
      return stringValue(L, -1).map { .success($0) } ?? .failure(LuaFailure(kind: .runtime, message: "not a string"))
    }
  }

  // MARK: - lifesim error objects

  /// Reads a lifesim error table (an expectation failure or a handler failure).
  func errorObject(at i: Int32) -> LuaFailure? {
    let abs = lua_absindex(L, i)
    guard lua_type(L, abs) == LUA_TTABLE, lua_getmetatable(L, abs) != 0 else { return nil }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(errorMetatableRef))
    let ours = lua_rawequal(L, -1, -2) != 0
    ls_pop(L, 2)
    guard ours else { return nil }
    // lifesim made this table, but a script may have changed its fields: read
    // each raw and by type.
    let o = Options(L: L, index: abs, argument: 0)
    let message = rawString(L, abs, "message")
    let traceback = rawString(L, abs, "traceback")
    let expectation = ((try? o.optional("expectation", as: Bool.self)) ?? nil) ?? false
    var failure = LuaFailure(kind: expectation ? .expectation : .runtime,
                             message: message ?? "error", traceback: traceback)
    if let reason = rawString(L, abs, "skip") { failure.mark = .skip(reason) }
    if let reason = rawString(L, abs, "xfail") { failure.mark = .xfail(reason) }
    if let callback = rawString(L, abs, "callback") {
      let app = rawString(L, abs, "app")
      let t = ((try? o.optional("t_us", as: Double.self)) ?? nil) ?? 0
      failure.handler = HandlerFailure(app: app, callback: callback, time: SimTime(microseconds: Int64(t)),
                                       message: failure.message, traceback: traceback,
                                       isExpectationFailure: expectation)
    }
    return failure
  }

  /// Pushes a lifesim error table for a handler failure (stack effect: +1).
  func pushErrorObject(_ f: HandlerFailure) {
    withBalancedStack(L, pushing: 1) {
      lua_createtable(L, 0, 6)
      push(L, f.message); setField(L, -2, "message")
      if let tb = f.traceback { push(L, tb); setField(L, -2, "traceback") }
      if let app = f.app { push(L, app); setField(L, -2, "app") }
      push(L, f.callback); setField(L, -2, "callback")
      push(L, f.time.seconds); setField(L, -2, "t")
      lua_pushinteger(L, lua_Integer(f.time.microseconds)); setField(L, -2, "t_us")
      if f.isExpectationFailure { push(L, true); setField(L, -2, "expectation") }
      lua_rawgeti(L, ls_registryindex(), lua_Integer(errorMetatableRef))
      lua_setmetatable(L, -2)
    }
  }

  /// Pushes an expectation-failure table whose message starts with the caller's
  /// `file:line:` (stack effect: +1).
  func pushExpectationFailure(_ message: String) {
    withBalancedStack(L, pushing: 1) {
      luaL_where(L, 1)
      let whereText = stringValue(L, -1) ?? ""
      ls_pop(L, 1)
      lua_createtable(L, 0, 2)
      push(L, whereText + message); setField(L, -2, "message")
      push(L, true); setField(L, -2, "expectation")
      lua_rawgeti(L, ls_registryindex(), lua_Integer(errorMetatableRef))
      lua_setmetatable(L, -2)
    }
  }

  // MARK: - Devices

  /// Every device made so far that is still alive, by id.
  func slot(_ id: Int32) throws -> DeviceSlot {
    guard let s = devices[id] else { throw ScriptError(message: "this device no longer exists") }
    lastUsedDeviceID = id
    return s
  }

  func registerDevice(_ device: Device) -> DeviceSlot {
    let id = nextDeviceID
    nextDeviceID += 1
    let slot = DeviceSlot(id: id, device: device, runtime: self)
    devices[id] = slot
    devicesThisRun += 1
    device.traceBudget = traceBudget
    // unowned(unsafe): the slot clears the closure when it lets go of the device.
    device.checkpoint = { [unowned(unsafe) self] steps in try self.checkpoint(steps: steps) }
    if options.retainDevices { createdDevices.append(device) }
    return slot
  }
}

/// The single C → Swift entry point. `_withUnsafeGuaranteedRef` avoids retaining
/// the runtime, which matters while `deinit` closes the state and runs `__gc`.
private let lifesimDispatch: ls_dispatch_fn = { L, id in
  guard let L, let host = ls_host(L) else { return LS_RAISE }
  return Unmanaged<LuaRuntime>.fromOpaque(host)._withUnsafeGuaranteedRef { $0.dispatch(L, id) }
}

/// Installs the dispatch and counters pointers once, whatever thread makes the first runtime
/// (Swift runs a global's initializer exactly once): batch workers make
/// runtimes in parallel.
private let dispatchInstalled: Void = {
  ls_set_dispatch(lifesimDispatch)
  ls_set_counters(lifesimCounters)
}()

/// A file's bytes without the UTF-8 byte-order mark some editors put first,
/// which Lua's own file loader skips too. It holds no newline, so line
/// numbers stay as they were.
public func withoutByteOrderMark(_ bytes: [UInt8]) -> [UInt8] {
  bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
}

/// Reads a whole file.
public func readFileBytes(_ path: String, limit: Int? = nil) throws -> [UInt8] {
  guard let f = fopen(path, "rb") else { throw FileError(message: String(cString: strerror(errno))) }
  defer { fclose(f) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = fread(&buffer, 1, buffer.count, f)
    if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
    if let limit, bytes.count > limit {
      throw FileError(message: "larger than \(limit >> 20) MB")
    }
    if n < buffer.count { break }
  }
  if ferror(f) != 0 { throw FileError(message: String(cString: strerror(errno))) }
  return bytes
}

public struct FileError: Error, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}

import LifeSimPlatform

/// "1024 MB", or "0.5 MB" for sizes under a megabyte.
/// "0.1 MB", "12.3 MB": what a state holds, to a tenth of a megabyte.
private func formatTenthsOfMegabytes(_ bytes: Int) -> String {
  let tenths = (bytes * 10 + (1 << 19)) >> 20
  return "\(tenths / 10).\(tenths % 10) MB"
}

private func formatMegabytes(_ bytes: Int) -> String {
  bytes >= 1 << 20 ? "\(bytes >> 20) MB" : "\(formatNumber(Double(bytes) / 1_048_576)) MB"
}
