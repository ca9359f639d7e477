import CLua
import CLuaShim
import LifeSimEngine

/// A `lua_State *`: Swift imports the opaque struct as a pointer.
typealias LuaState = OpaquePointer

/// An argument error, reported in Lua's own format by the trampoline:
/// "bad argument #2 to 'advance' (number expected, got nil)".
struct ArgumentError: Error {
  var position: Int32
  var message: String
}

/// A runtime error raised with the caller's `file:line:` in front.
struct ScriptError: Error {
  var message: String
}

// MARK: - Reading values (stack effect: none)

/// The Lua type name of a value, using a lifesim object's own name.
func typeName(_ L: LuaState, _ i: Int32) -> String {
  if let kind = ObjectKind(rawValue: ls_userdata_kind(L, i)) { return kind.luaName }
  return String(cString: lua_typename(L, lua_type(L, i)))
}

/// Reads a string without converting numbers in place.
func stringValue(_ L: LuaState, _ i: Int32) -> String? {
  guard lua_type(L, i) == LUA_TSTRING else { return nil }
  var len = 0
  guard let p = lua_tolstring(L, i, &len) else { return nil }
  return p.withMemoryRebound(to: UInt8.self, capacity: len) {
    String(decoding: UnsafeBufferPointer(start: $0, count: len), as: UTF8.self)
  }
}

func checkString(_ L: LuaState, _ i: Int32, _ what: String = "string") throws -> String {
  guard let s = stringValue(L, i) else {
    throw ArgumentError(position: i, message: "\(what) expected, got \(typeName(L, i))")
  }
  return s
}

func checkNumber(_ L: LuaState, _ i: Int32) throws -> Double {
  guard lua_type(L, i) == LUA_TNUMBER else {
    throw ArgumentError(position: i, message: "number expected, got \(typeName(L, i))")
  }
  return lua_tonumberx(L, i, nil)
}

/// Reads a number of seconds as virtual time.
func checkSeconds(_ L: LuaState, _ i: Int32, allowNegative: Bool = false) throws -> SimTime {
  let s = try checkNumber(L, i)
  guard let t = SimTime(seconds: s) else {
    throw ArgumentError(position: i, message: "a finite number of seconds expected, got \(s)")
  }
  if !allowNegative && t.microseconds < 0 {
    throw ArgumentError(position: i, message: "a time that is not negative expected, got \(s)")
  }
  return t
}

func checkFunction(_ L: LuaState, _ i: Int32) throws {
  guard lua_type(L, i) == LUA_TFUNCTION else {
    throw ArgumentError(position: i, message: "function expected, got \(typeName(L, i))")
  }
}

func checkTable(_ L: LuaState, _ i: Int32) throws {
  guard lua_type(L, i) == LUA_TTABLE else {
    throw ArgumentError(position: i, message: "table expected, got \(typeName(L, i))")
  }
}

// MARK: - Raw table fields (no metamethods run; stack effect: none)

/// Pushes `t[key]` without metamethods and returns its type; the caller pops.
@discardableResult
func rawField(_ L: LuaState, _ t: Int32, _ key: String) -> Int32 {
  let abs = lua_absindex(L, t)
  push(L, key)
  return lua_rawget(L, abs)
}

func fieldString(_ L: LuaState, _ t: Int32, _ key: String, arg: Int32) throws -> String? {
  defer { ls_pop(L, 1) }
  if rawField(L, t, key) == LUA_TNIL { return nil }
  guard let s = stringValue(L, -1) else {
    throw ArgumentError(position: arg, message: "field '\(key)' must be a string, got \(typeName(L, -1))")
  }
  return s
}

func fieldNumber(_ L: LuaState, _ t: Int32, _ key: String, arg: Int32) throws -> Double? {
  defer { ls_pop(L, 1) }
  if rawField(L, t, key) == LUA_TNIL { return nil }
  guard lua_type(L, -1) == LUA_TNUMBER else {
    throw ArgumentError(position: arg, message: "field '\(key)' must be a number, got \(typeName(L, -1))")
  }
  return lua_tonumberx(L, -1, nil)
}

func fieldBool(_ L: LuaState, _ t: Int32, _ key: String, arg: Int32) throws -> Bool? {
  defer { ls_pop(L, 1) }
  if rawField(L, t, key) == LUA_TNIL { return nil }
  guard lua_type(L, -1) == LUA_TBOOLEAN else {
    throw ArgumentError(position: arg, message: "field '\(key)' must be a boolean, got \(typeName(L, -1))")
  }
  return lua_toboolean(L, -1) != 0
}

/// An array of strings in field `key`, or nil.
func fieldStrings(_ L: LuaState, _ t: Int32, _ key: String, arg: Int32) throws -> [String]? {
  defer { ls_pop(L, 1) }
  if rawField(L, t, key) == LUA_TNIL { return nil }
  guard lua_type(L, -1) == LUA_TTABLE else {
    throw ArgumentError(position: arg, message: "field '\(key)' must be an array of strings, got \(typeName(L, -1))")
  }
  return try stringArray(L, -1, arg: arg, what: "field '\(key)'")
}

/// Reads t[1..n] as strings.
func stringArray(_ L: LuaState, _ t: Int32, arg: Int32, what: String) throws -> [String] {
  let abs = lua_absindex(L, t)
  let n = lua_rawlen(L, abs)
  var out: [String] = []
  out.reserveCapacity(Int(n))
  var i: lua_Integer = 1
  while i <= lua_Integer(n) {
    lua_rawgeti(L, abs, i)
    defer { ls_pop(L, 1) }
    guard let s = stringValue(L, -1) else {
      throw ArgumentError(position: arg, message: "\(what)[\(i)] must be a string, got \(typeName(L, -1))")
    }
    out.append(s)
    i += 1
  }
  return out
}

/// The string keys of a table, sorted; used to reject unknown options.
/// Non-string keys are reported as "?" so that they are rejected too.
func stringKeys(_ L: LuaState, _ t: Int32) -> [String] {
  let abs = lua_absindex(L, t)
  var keys: [String] = []
  lua_pushnil(L)
  while lua_next(L, abs) != 0 {
    if let k = stringValue(L, -2) {
      keys.append(k)
    } else if lua_type(L, -2) == LUA_TNUMBER {
      keys.append("[\(lua_tointegerx(L, -2, nil))]")
    }
    ls_pop(L, 1)
  }
  return keys.sorted()
}

/// Rejects keys that are not in `allowed`, suggesting the nearest one.
func checkKeys(_ L: LuaState, _ t: Int32, allowed: [String], arg: Int32) throws {
  for key in stringKeys(L, t) where !allowed.contains(key) {
    throw ArgumentError(position: arg, message: "unknown option '\(key)'\(suggestion(for: key, in: allowed))")
  }
}

// MARK: - Pushing values (stack effect: +1)

func push(_ L: LuaState, _ s: String) {
  var s = s
  s.withUTF8 { buf in
    buf.withMemoryRebound(to: CChar.self) { _ = lua_pushlstring(L, $0.baseAddress, $0.count) }
  }
}

func push(_ L: LuaState, _ n: Double) { lua_pushnumber(L, n) }
func push(_ L: LuaState, _ n: Int) { lua_pushinteger(L, lua_Integer(n)) }
func push(_ L: LuaState, _ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }

/// Pushes an array of strings as a new table.
func push(_ L: LuaState, _ strings: [String]) {
  lua_createtable(L, Int32(strings.count), 0)
  for (i, s) in strings.enumerated() {
    push(L, s)
    lua_rawseti(L, -2, lua_Integer(i + 1))
  }
}

/// Sets t[key] = value (raw) for the table at `t`, popping the value on top.
func setField(_ L: LuaState, _ t: Int32, _ key: String) {
  let abs = lua_absindex(L, t)
  push(L, key)
  lua_rotate(L, -2, 1)
  lua_rawset(L, abs)
}

// MARK: - Suggestions

/// " (did you mean 'x'?)" when a close name exists, else "".
func suggestion(for word: String, in candidates: [String]) -> String {
  var best: (String, Int)?
  for c in candidates {
    let d = editDistance(word.lowercased(), c.lowercased())
    if d <= max(2, word.count / 3), best == nil || d < best!.1 { best = (c, d) }
  }
  return best.map { " (did you mean '\($0.0)'?)" } ?? ""
}

func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a.utf8), b = Array(b.utf8)
  if a.isEmpty { return b.count }
  if b.isEmpty { return a.count }
  var row = Array(0...b.count)
  for i in 1...a.count {
    var prev = row[0]
    row[0] = i
    for j in 1...b.count {
      let cur = row[j]
      row[j] = min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] == b[j - 1] ? 0 : 1))
      prev = cur
    }
  }
  return row[b.count]
}

/// Whether argument `i` is absent or nil.
func isNoneOrNil(_ L: LuaState, _ i: Int32) -> Bool { ls_isnoneornil(L, i) != 0 }
