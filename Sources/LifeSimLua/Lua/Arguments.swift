import CLua
import CLuaShim
import LifeSimEngine

// Typed reading of what a script passes: arguments by position, and option
// tables by key. Every read is raw, so no metamethod of the script's runs, and
// every failure is an `ArgumentError`, which the trampoline reports in Lua's
// own words: "bad argument #2 to 'launch' (field 'url' must be a string, got
// number)". The messages are made here and nowhere else.

/// A plain value that can be read from a Lua slot.
protocol LuaReadable {
  /// The Lua type name for messages: "number", "string", "boolean".
  static var luaTypeName: String { get }
  /// The value at `i`, or nil when it has another type (no conversion).
  static func read(_ L: LuaState, _ i: Int32) -> Self?
}

extension Double: LuaReadable {
  static var luaTypeName: String { "number" }
  static func read(_ L: LuaState, _ i: Int32) -> Double? {
    lua_type(L, i) == LUA_TNUMBER ? lua_tonumberx(L, i, nil) : nil
  }
}

extension String: LuaReadable {
  static var luaTypeName: String { "string" }
  static func read(_ L: LuaState, _ i: Int32) -> String? { stringValue(L, i) }
}

extension Bool: LuaReadable {
  static var luaTypeName: String { "boolean" }
  static func read(_ L: LuaState, _ i: Int32) -> Bool? {
    lua_type(L, i) == LUA_TBOOLEAN ? lua_toboolean(L, i) != 0 : nil
  }
}

/// The arguments of the running host function.
struct Arguments {
  let L: LuaState

  /// Whether argument `i` is absent or nil.
  func isAbsent(_ i: Int32) -> Bool { ls_isnoneornil(L, i) != 0 }

  /// Argument `i` as a `T`: "number expected, got nil".
  func value<T: LuaReadable>(_ i: Int32, as type: T.Type = T.self) throws -> T {
    guard let v = T.read(L, i) else { throw mismatch(i, T.luaTypeName) }
    return v
  }

  /// Argument `i` as a `T`, or nil when absent or nil.
  func optional<T: LuaReadable>(_ i: Int32, as type: T.Type = T.self) throws -> T? {
    isAbsent(i) ? nil : try value(i, as: T.self)
  }

  func string(_ i: Int32) throws -> String { try value(i) }

  /// A number; with `finite`, infinities and NaN are refused, naming `what`.
  func number(_ i: Int32, _ what: String = "number", finite: Bool = true) throws -> Double {
    let x: Double = try value(i)
    if finite && !x.isFinite { throw ArgumentError(position: i, message: "\(what) must be finite, got \(formatNumber(x))") }
    return x
  }

  /// An integer, as Lua's `luaL_checkinteger` takes it: a number with an
  /// exact integer value that fits in 64 bits, else Lua's own words.
  func integer(_ i: Int32) throws -> Int {
    guard lua_type(L, i) == LUA_TNUMBER else { throw mismatch(i, "number") }
    var isInteger: Int32 = 0
    let n = lua_tointegerx(L, i, &isInteger)
    guard isInteger != 0 else { throw ArgumentError(position: i, message: "number has no integer representation") }
    return Int(n)
  }

  /// A number of seconds as virtual time.
  func seconds(_ i: Int32, allowNegative: Bool = false) throws -> SimTime {
    let s: Double = try value(i)
    guard let t = SimTime(seconds: s) else {
      let got = s.isNaN ? "nan (not a number)" : formatNumber(s)
      let wanted = s.isNaN ? "a number of seconds"
        : s.isFinite ? "at most \(SimTime.maxSpanSeconds) s (100 years) of virtual time" : "a finite number of seconds"
      throw ArgumentError(position: i, message: "\(wanted) expected, got \(got)")
    }
    if !allowNegative && t.microseconds < 0 {
      throw ArgumentError(position: i, message: "a time that is not negative expected, got \(s)")
    }
    return t
  }

  /// Checks that argument `i` is a function (it stays where it is).
  func function(_ i: Int32) throws {
    guard lua_type(L, i) == LUA_TFUNCTION else { throw mismatch(i, "function") }
  }

  /// Argument `i` as an option table whose keys must be among `keys`.
  func table(_ i: Int32, keys: [String]) throws -> Options {
    guard lua_type(L, i) == LUA_TTABLE else { throw mismatch(i, "table") }
    let options = Options(L: L, index: lua_absindex(L, i), argument: i)
    try options.checkKeys(keys)
    return options
  }

  /// Like `table`, or nil when the argument is absent or nil: `dev:launch(app [, { url = … }])`.
  func options(_ i: Int32, keys: [String]) throws -> Options? {
    isAbsent(i) ? nil : try table(i, keys: keys)
  }

  /// A table argument read as an array of strings: `what[3] must be a string, got nil`.
  func strings(_ i: Int32, what: String) throws -> [String] {
    guard lua_type(L, i) == LUA_TTABLE else { throw mismatch(i, "table") }
    return try Options(L: L, index: lua_absindex(L, i), argument: i).array(what: what)
  }

  private func mismatch(_ i: Int32, _ expected: String) -> ArgumentError {
    ArgumentError(position: i, message: "\(expected) expected, got \(typeName(L, i))")
  }
}

/// An option table on the stack, read raw by key. A nested table (`watchdog =
/// { launch = 20 }`) is an `Options` too, its keys named with a prefix.
struct Options {
  let L: LuaState
  /// The table's absolute stack index.
  let index: Int32
  /// The argument it came from, for "bad argument #n".
  let argument: Int32
  /// "watchdog." for a nested table's keys.
  var prefix = ""

  /// Runs `body` with `t[key]` (read raw) on top of the stack and its type;
  /// pops it afterwards, whether `body` returns or throws.
  func withValue<R>(_ key: String, _ body: (Int32) throws -> R) rethrows -> R {
    let type = rawField(L, index, key)
    defer { ls_pop(L, 1) }
    return try body(type)
  }

  /// The Lua type of `t[key]` (`LUA_TNIL` when absent).
  func type(of key: String) -> Int32 { withValue(key) { $0 } }

  func has(_ key: String) -> Bool { type(of: key) != LUA_TNIL }

  /// `t[key]` as a `T`, or nil when absent: "field 'url' must be a string, got number".
  func optional<T: LuaReadable>(_ key: String, as type: T.Type = T.self) throws -> T? {
    try withValue(key) { t in
      if t == LUA_TNIL { return nil }
      guard let v = T.read(L, -1) else { throw mismatch(key, T.luaTypeName) }
      return v
    }
  }

  /// `t[key]` as a `T`; absent, it is an error that says what to give.
  func required<T: LuaReadable>(_ key: String, as type: T.Type = T.self, hint: String) throws -> T {
    guard let v = try optional(key, as: T.self) else {
      throw fail("field '\(prefix)\(key)' (\(hint)) is required")
    }
    return v
  }

  /// A number of seconds ≥ 0, as virtual time.
  func seconds(_ key: String, what: String = "field") throws -> SimTime? {
    guard let s = try optional(key, as: Double.self) else { return nil }
    guard s >= 0, let t = SimTime(seconds: s) else {
      throw fail("\(what) '\(prefix)\(key)' must be a number of seconds ≥ 0, got \(formatNumber(s))")
    }
    return t
  }

  /// An array of strings in `t[key]`, or nil when absent.
  func strings(_ key: String) throws -> [String]? {
    try withValue(key) { t in
      if t == LUA_TNIL { return nil }
      guard t == LUA_TTABLE else { throw mismatch(key, "an array of strings", article: false) }
      return try Options(L: L, index: lua_gettop(L), argument: argument).array(what: "field '\(prefix)\(key)'")
    }
  }

  /// Runs `body` with the nested table in `t[key]`, if there is one; its keys
  /// must be among `keys` (nil: the body checks them). `hint` shows what such a
  /// table looks like.
  func withTable<R>(_ key: String, keys: [String]?, hint: String, what: String = "field",
                    _ body: (Options) throws -> R) throws -> R? {
    try withValue(key) { t in
      if t == LUA_TNIL { return nil }
      guard t == LUA_TTABLE else { throw fail("\(what) '\(prefix)\(key)' must be a table such as \(hint), got \(typeName(L, -1))") }
      let nested = Options(L: L, index: lua_gettop(L), argument: argument, prefix: prefix + key + ".")
      if let keys { try nested.checkKeys(keys) }
      return try body(nested)
    }
  }

  /// t[1..n] as strings.
  func array(what: String) throws -> [String] {
    let n = lua_rawlen(L, index)
    var out: [String] = []
    out.reserveCapacity(Int(n))
    var i: lua_Integer = 1
    while i <= lua_Integer(n) {
      lua_rawgeti(L, index, i)
      defer { ls_pop(L, 1) }
      guard let s = stringValue(L, -1) else {
        throw fail("\(what)[\(i)] must be a string, got \(typeName(L, -1))")
      }
      out.append(s)
      i += 1
    }
    return out
  }

  /// The table's keys, sorted: strings as they are, numbers as "[n]", others as
  /// their type, so that every unexpected key is reported.
  func keys() -> [String] {
    var keys: [String] = []
    lua_pushnil(L)
    while lua_next(L, index) != 0 {
      if let k = stringValue(L, -2) {
        keys.append(k)
      } else if lua_type(L, -2) == LUA_TNUMBER {
        keys.append("[\(formatNumber(lua_tonumberx(L, -2, nil)))]")
      } else {
        keys.append("[\(typeName(L, -2))]")
      }
      ls_pop(L, 1)
    }
    return keys.sorted()
  }

  /// Rejects keys that are not in `allowed`, suggesting the nearest one.
  func checkKeys(_ allowed: [String]) throws {
    for key in keys() where !allowed.contains(key) {
      throw fail("unknown option '\(prefix)\(key)'\(suggestion(for: key, in: allowed))")
    }
  }

  /// An `ArgumentError` for this table's argument.
  func fail(_ message: String) -> ArgumentError { ArgumentError(position: argument, message: message) }

  private func mismatch(_ key: String, _ expected: String, article: Bool = true) -> ArgumentError {
    let a = article ? (expected.first.map { "aeiou".contains($0) } == true ? "an " : "a ") : ""
    return fail("field '\(prefix)\(key)' must be \(a)\(expected), got \(typeName(L, -1))")
  }
}

extension LuaRuntime {
  /// The arguments of the running host function.
  var args: Arguments { Arguments(L: L) }
}
