import Foundation
import CLua
import CLuaShim
import LifeSimEngine

// lifesim.device, lifesim.expect_callbacks, lifesim.test, the values in the
// lifesim table, and the prelude's host table.
extension API {
  static let lifesimRows: [APIRow] = [
    .function(.lifesim, "device",
              "lifesim.device{ ios = 17, model = \"iPhone 11\", memory_mb = 4096, seed = 1, debugger = false, quirks = {…}, passcode = true, trace = true, background_gpu = false }",
              "Makes a virtual device running an OS profile. Every key is optional; seed defaults to --seed.") { try $0.lifesimDevice() },
    .function(.lifesim, "expect_callbacks", "lifesim.expect_callbacks(actual, expected [, { order = \"exact\" | \"subsequence\" | \"contains\" }])",
              "Fails with a diff unless the actual selectors are the expected ones: equal (exact), the expected in order with others between (subsequence), or each expected one present, in any order (contains).") { try $0.expectCallbacks() },
    .function(.lifesim, "test", "lifesim.test(name, [{ skip = \"why\", xfail = \"why\" },] function() … end)",
              "A named test case. Under lifesim test it runs after its file has loaded, from the state the file left (each case on its own); skip does not run it, xfail expects it to fail.") { try $0.runTestCase() },
    .function(.lifesim, "skip", "lifesim.skip(reason)",
              "Inside a lifesim.test case: stops it, counted as skipped with the reason; at a file's top level, skips the file.") { try $0.skipTest() },
    .function(.lifesim, "xfail", "lifesim.xfail(reason)",
              "Inside a lifesim.test case: stops it, counted as an expected failure with the reason.") { try $0.xfailTest() },
    .function(.lifesim, "experiment",
              "return lifesim.experiment{ name, params = { k = {…} }, seeds = N, run = function(p, seed) … return { metric = n } end }",
              "Declares a parameter grid for lifesim batch.") { try $0.lifesimExperiment() },
    .value("callbacks", "Every selector lifesim models, for app:on.") { $0.strings(Callback.allCases.map(\.selector)) },
    .value("ios_versions", "The iOS versions with a profile.") { p in
      p.array(OSProfile.supportedVersions) { $0.integer($1) }
    },
    .value("quirks", "The documented variants a device can select, each with what it changes.") { p in
      // name -> what it changes, and where the reference discusses it.
      p.table(0, Quirk.allCases.count)
      for q in Quirk.allCases {
        p.string("\(q.summary) (reference \(q.reference))")
        p.setField(q.description)
      }
    },
    .value("version", "lifesim's version.") { $0.string(lifesimVersion) },
  ]

  /// The prelude's private host table.
  static let preludeRows: [APIRow] = [
    .function(.prelude, "write", "", "") { try $0.write() },
    .function(.prelude, "read_module", "", "") { try $0.readModule() },
    .function(.prelude, "source_line", "", "") { try $0.sourceLine() },
  ]
}

extension LuaRuntime {
  static let deviceKeys = ["ios", "seed", "memory_mb", "model", "debugger", "quirks", "passcode", "trace", "background_gpu"]
  /// The most RAM a device may be given (`memory_mb`): ten terabytes, far
  /// past any iPhone, and small enough for every sum of footprints.
  static let maxDeviceMemoryMB = 9_999_999

  /// `lifesim.device{ ios = 17, seed = 1, memory_mb = 4096, debugger = false }`
  func lifesimDevice() throws -> Int32 {
    var ios = options.ios
    var seed = defaultSeed
    var debugger = false
    var recordsTrace = true
    var memoryMB: Int?
    var model: DeviceModel?
    var quirks = QuirkSet()
    var passcode = false
    var backgroundGPU: Bool?
    if let o = try args.options(1, keys: Self.deviceKeys) {
      if let v = try o.optional("ios", as: Double.self) {
        guard v == v.rounded(), abs(v) < 1e6 else {
          throw o.fail("field 'ios' must be a major version such as 17, got \(v)")
        }
        if options.overrideIOS {
          if Int(v) != options.ios && !pinnedVersions.contains(Int(v)) { pinnedVersions.append(Int(v)) }
        } else {
          ios = Int(v)
          if ios != options.ios && !ownVersions.contains(ios) { ownVersions.append(ios) }
        }
      }
      if let s = try o.optional("seed", as: Double.self) {
        guard s == s.rounded(), s >= 0, s < 9.2e18 else {
          throw o.fail("field 'seed' must be a whole number ≥ 0, got \(s)")
        }
        seed = UInt64(s)
      }
      debugger = try o.optional("debugger") ?? false
      passcode = try o.optional("passcode") ?? false
      backgroundGPU = try o.optional("background_gpu")
      recordsTrace = try o.optional("trace") ?? true
      if let m = try o.optional("memory_mb", as: Double.self) {
        guard m == m.rounded(), m > 0, m <= Double(Self.maxDeviceMemoryMB) else {
          throw o.fail("field 'memory_mb' must be a whole number of MB from 1 to \(Self.maxDeviceMemoryMB), got \(formatNumber(m))")
        }
        memoryMB = Int(m)
      }
      if let name = try o.optional("model", as: String.self) {
        guard let found = DeviceModel.named(name) else {
          let names = DeviceModel.all.map(\.name)
          throw o.fail("unknown device model '\(name)'\(suggestion(for: name, in: names)); known models: \(names.joined(separator: ", "))")
        }
        model = found
      }
      quirks = try readQuirks(o)
    }
    if let model, !model.runs(ios: ios) {
      // A model that never ran the version asked for (Apple's compatibility lists).
      throw ScriptError(message: "lifesim.device: the \(model.name) runs \(model.iosRange), not iOS \(ios); pick another ios or model")
    }
    let profile = try OSProfile(version: ios)
    guard devicesThisRun < Self.maxDevices else {
      throw ScriptError(message: "lifesim.device: a run makes at most \(Self.maxDevices) devices")
    }
    if ios == options.ios { devicesOnOptionVersion += 1 }
    let device = Device(profile: profile, seed: seed, debugger: debugger, model: model,
                        memoryMB: memoryMB, quirks: quirks, backgroundGPU: backgroundGPU)
    device.horizon = SimTime(seconds: options.maxTime) ?? device.horizon
    device.maxEventsPerInstant = options.maxEventsPerInstant
    device.passcode = passcode
    device.recordsTrace = recordsTrace
    if backgroundGPU == true && !profile.hasContinuedProcessing {
      device.warn("lifesim.device: background_gpu is BGTaskScheduler.supportedResources, from iOS 26; this device runs iOS \(ios), "
                  + "where it changes nothing")
    }
    let slot = registerDevice(device)
    if recordsTrace, let stream = options.traceStream?(device, Int(slot.id)) {
      device.stream(to: stream, keepingRecords: false)
    }
    lua_createtable(L, 0, 0)  // the value store
    lua_rawgeti(L, ls_registryindex(), lua_Integer(storesTableRef))
    lua_pushvalue(L, -2)
    lua_rawseti(L, -2, lua_Integer(slot.id))
    ls_pop(L, 1)
    // User value 1 is the value store; 2 is the cache `dev.stats` keeps its
    // last table in (`ls_new_stats_cache`), which the index trampoline reads.
    pushObject(Handle(kind: ObjectKind.device.rawValue, device: slot.id, index: 0, extra: 0), userValue: true, userValues: 2)
    ls_new_stats_cache(L, lua_Integer(statsKeysRef), Int32(StatsTable.counters), Int32(StatsTable.taskKeys.count))
    lua_setiuservalue(L, -2, 2)
    if options.pinDevices {
      lua_pushvalue(L, -1)
      _ = luaL_ref(L, ls_registryindex())  // the device object, held until the state closes
    }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(devicesTableRef))
    lua_pushvalue(L, -2)
    lua_rawseti(L, -2, lua_Integer(slot.id))
    ls_pop(L, 1)
    lua_pushvalue(L, -1)
    pushObject(Handle(kind: ObjectKind.trace.rawValue, device: slot.id, index: 0, extra: 0), userValue: true)
    slot.traceObject = slot.store(-1)
    ls_pop(L, 1)
    return 1
  }

  /// The `quirks` field of `lifesim.device{}`: `{ name = true, … }` or `{ "name", … }`.
  private func readQuirks(_ o: Options) throws -> QuirkSet {
    var set = QuirkSet()
    let names = Quirk.allCases.map(\.description)
    try o.withValue("quirks") { type in
      if type == LUA_TNIL { return }
      guard type == LUA_TTABLE else {
        throw o.fail("field 'quirks' must be a table such as { disconnect_on_background = true }, got \(typeName(L, -1))")
      }
      let table = lua_gettop(L)
      lua_pushnil(L)
      while lua_next(L, table) != 0 {
        defer { ls_pop(L, 1) }
        let name: String?
        let on: Bool
        if lua_type(L, -2) == LUA_TSTRING {
          guard lua_type(L, -1) == LUA_TBOOLEAN else {
            throw o.fail("quirk '\(stringValue(L, -2) ?? "?")' must be true or false, got \(typeName(L, -1))")
          }
          name = stringValue(L, -2)
          on = lua_toboolean(L, -1) != 0
        } else {
          name = stringValue(L, -1)
          on = true
        }
        guard let name else {
          throw o.fail("field 'quirks' must map quirk names to true/false, or list names")
        }
        guard let quirk = Quirk(name: name) else {
          throw o.fail("unknown quirk '\(name)'\(suggestion(for: name, in: names)); known quirks: \(names.joined(separator: ", "))")
        }
        if on { set.insert(quirk) }
      }
    }
    return set
  }

  /// The prelude's `print` writes here: a `log` record, or `options.output`.
  func write() throws -> Int32 {
    let text = try args.string(1)
    guard options.printsToTrace, let (device, app) = printTarget() else {
      options.output(text)
      return 0
    }
    let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
    if let problem = textProblem(line) { throw printError("print: the text \(problem)") }
    device.log(line, app: app)
    do {
      try device.checkTrace()
    } catch let e as SimulationError {
      throw printError("print: " + luaMessage(for: e))
    }
    options.printEcho?(text)
    return 0
  }

  /// An error of `print` at the script's line that called it (level 2: the
  /// prelude's `print` is level 1), pushed to be raised.
  private func printError(_ message: String) -> RaiseTop {
    luaL_where(L, 2)
    let location = stringValue(L, -1) ?? ""
    ls_pop(L, 1)
    push(L, location + message)
    return RaiseTop()
  }

  /// The device (and app) a `print` belongs to: the app whose code runs, or
  /// the newest device; nil when there is none, or its trace is off.
  private func printTarget() -> (Device, AppID?)? {
    if let info = contexts.innermost, let slot = devices[info.device], slot.device.recordsTrace {
      // A script function that runs while a handler works (reference §3.8)
      // is not that app's code.
      return (slot.device, slot.device.runningApp == info.app ? info.app : nil)
    }
    guard let slot = devices.newest, slot.device.recordsTrace else { return nil }
    return (slot.device, nil)
  }

  /// `host.source_line(source, line)`: the trimmed text of a line of a script
  /// file (a chunk named "@path"), when it holds an `assert`; nil otherwise.
  /// Only the prelude's `assert` calls it, to show the line that failed.
  func sourceLine() throws -> Int32 {
    let source = try args.string(1)
    let line = try args.integer(2)
    guard source.hasPrefix("@"), line > 0, let bytes = try? readFileBytes(String(source.dropFirst())) else {
      lua_pushnil(L)
      return 1
    }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    guard line <= lines.count else { lua_pushnil(L); return 1 }
    let text = lines[line - 1].trimmingCharacters(in: .whitespaces)
    guard text.contains("assert") else { lua_pushnil(L); return 1 }
    // An assert that goes on over more lines: say so.
    let open = text.filter { $0 == "(" }.count, close = text.filter { $0 == ")" }.count
    push(L, open > close ? text + " …" : text)
    return 1
  }

  /// Finds a module for `require`: beside the script, then in `Scripts/lib`.
  /// Returns source and chunk name, or nil and the
  /// places tried.
  func readModule() throws -> Int32 {
    let name = try args.string(1)
    switch findModule(name) {
    case .invalid:
      // The prelude raises it at the script's require line.
      lua_pushnil(L)
      push(L, "require: invalid module name '\(name)' (modules are found beside the script and in Scripts/lib, by names such as \"helpers\" or \"lib.util\")")
      return 2
    case .notFound(let tried):
      lua_pushnil(L)
      push(L, "module '\(name)' not found; tried:\n\t" + tried.joined(separator: "\n\t"))
      return 2
    case .found(let path):
      if let refusal = refuseReadingAnOutput(path) {
        lua_pushnil(L)
        push(L, "require: " + refusal)
        return 2
      }
      guard let source = try? readFileBytes(path) else {
        lua_pushnil(L)
        push(L, "module '\(name)' not found; tried:\n\t\(path) (it cannot be read)")
        return 2
      }
      noteLoaded(.module, name: name, path: path, bytes: source)
      source.withUnsafeBufferPointer { buf in
        buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
      }
      push(L, "@" + path)
      return 2
    }
  }

  enum ModuleSearch {
    case invalid
    case notFound(tried: [String])
    case found(String)
  }

  /// Where `require(name)` finds its module: the first regular file of that
  /// name in `moduleDirectories()` (without `--unsafe`, not through a link
  /// out of its folder).
  func findModule(_ name: String) -> ModuleSearch {
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }),
          !name.hasPrefix("."), !name.contains("..")
    else { return .invalid }
    let relative = name.split(separator: ".").joined(separator: "/") + ".lua"
    var tried: [String] = []
    for dir in moduleDirectories() {
      let path = dir.isEmpty ? relative : dir + "/" + relative
      tried.append(path)
      // A link that leads out of the folder is not a module there: it could
      // load any file on the machine, and its syntax error would quote it.
      if !options.unsafe, let real = realPath(path) {
        guard let base = realPath(dir.isEmpty ? "." : dir), real.hasPrefix(base == "/" ? "/" : base + "/") else {
          tried[tried.count - 1] += " (a link out of its folder: refused)"
          continue
        }
      }
      // Only a regular file: reading a FIFO would block for ever.
      var st = stat()
      guard stat(path, &st) == 0 else { continue }
      if (st.st_mode & S_IFMT) != S_IFREG {
        tried[tried.count - 1] += " (not a regular file: refused)"
        continue
      }
      if access(path, R_OK) == 0 { return .found(path) }
    }
    return .notFound(tried: tried)
  }

  /// The script's folder, its `lib`, then every `Scripts/lib` above it.
  private func moduleDirectories() -> [String] {
    guard let script = scriptPath else { return ["", "Scripts/lib"] }
    var dir = script.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    if script.hasPrefix("/") && dir.isEmpty { dir = "/" }
    var dirs = [dir, dir.isEmpty ? "lib" : dir + "/lib"]
    var parts = dir.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
    while !parts.isEmpty {
      let here = parts.joined(separator: "/")
      if parts.last == "Scripts" { dirs.append(here + "/lib") }
      dirs.append(here.isEmpty ? "Scripts/lib" : here + "/Scripts/lib")
      parts.removeLast()
    }
    dirs.append("Scripts/lib")
    var seen = Set<String>()
    return dirs.filter { seen.insert($0).inserted }
  }
}
