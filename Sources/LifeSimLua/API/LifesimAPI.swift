import CLua
import CLuaShim
import LifeSimEngine

// lifesim.device, lifesim.expect_callbacks, lifesim.test, and the prelude's host table.
extension LuaRuntime {
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
    if !isNoneOrNil(L, 1) {
      try checkTable(L, 1)
      try checkKeys(L, 1, allowed: ["ios", "seed", "memory_mb", "model", "debugger", "quirks", "passcode", "trace"], arg: 1)
      if let v = try fieldNumber(L, 1, "ios", arg: 1) {
        guard v == v.rounded(), abs(v) < 1e6 else {
          throw ArgumentError(position: 1, message: "field 'ios' must be a major version such as 17, got \(v)")
        }
        ios = Int(v)
      }
      if let s = try fieldNumber(L, 1, "seed", arg: 1) {
        guard s == s.rounded(), s >= 0, s < 9.2e18 else {
          throw ArgumentError(position: 1, message: "field 'seed' must be a whole number ≥ 0, got \(s)")
        }
        seed = UInt64(s)
      }
      debugger = try fieldBool(L, 1, "debugger", arg: 1) ?? false
      passcode = try fieldBool(L, 1, "passcode", arg: 1) ?? false
      recordsTrace = try fieldBool(L, 1, "trace", arg: 1) ?? true
      if let m = try fieldNumber(L, 1, "memory_mb", arg: 1) {
        guard m == m.rounded(), m > 0, m < 1e7 else {
          throw ArgumentError(position: 1, message: "field 'memory_mb' must be a whole number of MB > 0, got \(m)")
        }
        memoryMB = Int(m)
      }
      if let name = try fieldString(L, 1, "model", arg: 1) {
        guard let found = DeviceModel.named(name) else {
          let names = DeviceModel.all.map(\.name)
          throw ArgumentError(position: 1, message: "unknown device model '\(name)'\(suggestion(for: name, in: names)); known models: \(names.joined(separator: ", "))")
        }
        model = found
      }
      quirks = try fieldQuirks()
    }
    let profile = try OSProfile(version: ios)
    let device = Device(profile: profile, seed: seed, debugger: debugger, model: model,
                        memoryMB: memoryMB, quirks: quirks)
    device.horizon = SimTime(seconds: options.maxTime) ?? device.horizon
    device.maxEventsPerInstant = options.maxEventsPerInstant
    device.passcode = passcode
    device.recordsTrace = recordsTrace
    let slot = registerDevice(device)
    lua_createtable(L, 0, 0)  // the value store
    pushObject(Handle(kind: ObjectKind.device.rawValue, device: slot.id, index: 0, extra: 0), userValue: true)
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
  private func fieldQuirks() throws -> QuirkSet {
    var set = QuirkSet()
    guard rawField(L, 1, "quirks") != LUA_TNIL else {
      ls_pop(L, 1)
      return set
    }
    defer { ls_pop(L, 1) }
    guard lua_type(L, -1) == LUA_TTABLE else {
      throw ArgumentError(position: 1, message: "field 'quirks' must be a table such as { disconnect_on_background = true }, got \(typeName(L, -1))")
    }
    let names = Quirk.allCases.map(\.description)
    lua_pushnil(L)
    while lua_next(L, -2) != 0 {
      defer { ls_pop(L, 1) }
      let name: String?
      let on: Bool
      if lua_type(L, -2) == LUA_TSTRING {
        guard lua_type(L, -1) == LUA_TBOOLEAN else {
          throw ArgumentError(position: 1, message: "quirk '\(stringValue(L, -2) ?? "?")' must be true or false, got \(typeName(L, -1))")
        }
        name = stringValue(L, -2)
        on = lua_toboolean(L, -1) != 0
      } else {
        name = lua_type(L, -1) == LUA_TSTRING ? stringValue(L, -1) : nil
        on = true
      }
      guard let name else {
        throw ArgumentError(position: 1, message: "field 'quirks' must map quirk names to true/false, or list names")
      }
      guard let quirk = Quirk(name: name) else {
        throw ArgumentError(position: 1, message: "unknown quirk '\(name)'\(suggestion(for: name, in: names)); known quirks: \(names.joined(separator: ", "))")
      }
      if on { set.insert(quirk) }
    }
    return set
  }

  /// `lifesim.expect_callbacks(actual, expected)`: on mismatch, a failed
  /// expectation whose message is a side-by-side diff.
  func expectCallbacks() throws -> Int32 {
    try checkTable(L, 1)
    try checkTable(L, 2)
    let actual = try stringArray(L, 1, arg: 1, what: "actual")
    let expected = try stringArray(L, 2, arg: 2, what: "expected")
    if actual == expected { return 0 }
    pushExpectationFailure("callbacks differ from the expectation\n" + sideBySideDiff(expected: expected, actual: actual))
    throw RaiseTop()
  }

  /// `lifesim.test(name, fn)`: runs one named case now; a failure is recorded,
  /// and the script goes on with the next case.
  func runTestCase() throws -> Int32 {
    let name = try checkString(L, 1)
    try checkFunction(L, 2)
    lua_pushvalue(L, 2)
    let status = ls_pcall(L, 0, 0, 0)
    if status == LUA_OK {
      testResults.append(TestCaseResult(name: name, failure: nil))
    } else {
      testResults.append(TestCaseResult(name: name, failure: popFailure(status: status)))
    }
    return 0
  }

  /// The prelude's `print` writes here.
  func write() throws -> Int32 {
    options.output(try checkString(L, 1))
    return 0
  }

  /// Finds a module for `require`: beside the script, then in `Scripts/lib`
  /// (lua-embedding.md §7.3). Returns source and chunk name, or nil and the
  /// places tried.
  func readModule() throws -> Int32 {
    let name = try checkString(L, 1)
    guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }),
          !name.hasPrefix("."), !name.contains("..")
    else {
      // The prelude raises it at the script's require line.
      lua_pushnil(L)
      push(L, "require: invalid module name '\(name)' (modules are found beside the script and in Scripts/lib, by names such as \"helpers\" or \"lib.util\")")
      return 2
    }
    let relative = name.split(separator: ".").joined(separator: "/") + ".lua"
    var tried: [String] = []
    for dir in moduleDirectories() {
      let path = dir.isEmpty ? relative : dir + "/" + relative
      tried.append(path)
      if let source = try? readFileBytes(path) {
        source.withUnsafeBufferPointer { buf in
          buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
        }
        push(L, "@" + path)
        return 2
      }
    }
    lua_pushnil(L)
    push(L, "module '\(name)' not found; tried:\n\t" + tried.joined(separator: "\n\t"))
    return 2
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
