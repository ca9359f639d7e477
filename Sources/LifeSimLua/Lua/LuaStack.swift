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

/// Where the string at `i` stops being UTF-8: the 1-based position and the
/// value of the first byte that is not part of a well-formed character, or
/// nil when it is all UTF-8 (or not a string). `stringValue` would turn such
/// bytes into U+FFFD, so that two different strings would read alike.
func invalidUTF8(_ L: LuaState, _ i: Int32) -> (position: Int, byte: UInt8)? {
  guard lua_type(L, i) == LUA_TSTRING else { return nil }
  var len = 0
  guard let p = lua_tolstring(L, i, &len) else { return nil }
  return p.withMemoryRebound(to: UInt8.self, capacity: len) { base in
    let bytes = UnsafeBufferPointer(start: base, count: len)
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var offset = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let u):
        offset += UTF8.width(u)
      case .emptyInput:
        return nil
      case .error:
        return (offset + 1, bytes[offset])
      }
    }
  }
}

/// "is not valid UTF-8 (byte 3 is 0xFF)", for refusals.
func invalidUTF8Text(_ at: (position: Int, byte: UInt8)) -> String {
  "is not valid UTF-8 (byte \(at.position) is 0x\(String(at.byte, radix: 16, uppercase: true)))"
}

// MARK: - Raw table fields (no metamethods run)

/// Pushes `t[key]` without metamethods and returns its type; the caller pops
/// (`Options.withValue` does it for you). Stack effect: +1.
@discardableResult
func rawField(_ L: LuaState, _ t: Int32, _ key: String) -> Int32 {
  let abs = lua_absindex(L, t)
  push(L, key)
  return lua_rawget(L, abs)
}

/// Reads `t[key]` raw as a string; nil when absent or not a string. For tables
/// lifesim made itself (error objects). Stack effect: none.
func rawString(_ L: LuaState, _ t: Int32, _ key: String) -> String? {
  defer { ls_pop(L, 1) }
  rawField(L, t, key)
  return stringValue(L, -1)
}

// MARK: - Stack discipline

/// Runs `body`, and in debug builds checks that it left the stack `pushing`
/// values higher than it found it, as mlua's `StackGuard` does. A throw skips
/// the check: the trampoline raises, and Lua discards the frame.
@inline(__always)
func withBalancedStack<T>(_ L: LuaState, pushing: Int32 = 0, _ what: @autoclosure () -> String = #function,
                          _ body: () throws -> T) rethrows -> T {
  #if DEBUG
  let top = lua_gettop(L)
  let result = try body()
  assert(lua_gettop(L) == top + pushing, "\(what()) moved the stack by \(lua_gettop(L) - top), expected \(pushing)")
  return result
  #else
  return try body()
  #endif
}

/// Runs `body` and puts the stack back as it was, whether `body` returns or
/// throws: for reads that push what they look at.
@inline(__always)
func withRestoredStack<T>(_ L: LuaState, _ body: () throws -> T) rethrows -> T {
  let top = lua_gettop(L)
  defer { lua_settop(L, top) }
  return try body()
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

/// Pushes a new array with one value per item, each pushed by `pushOne`
/// (which must push exactly one value). Stack effect: +1.
func pushArray<C: Collection>(_ L: LuaState, _ items: C, _ pushOne: (C.Element) -> Void) {
  lua_createtable(L, Int32(items.count), 0)
  var i: lua_Integer = 0
  for item in items {
    pushOne(item)
    i += 1
    lua_rawseti(L, -2, i)
  }
}

/// Pushes an array of strings as a new table.
func push(_ L: LuaState, _ strings: [String]) {
  pushArray(L, strings) { push(L, $0) }
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
///
/// The work is bounded whatever a script passes: a word or a candidate
/// longer than `suggestionMaxLength` bytes is no typo of a name, and is not
/// compared; at most `suggestionMaxCandidates` names are tried; and a
/// candidate whose length differs by more than the distance allowed is
/// skipped before any distance is computed.
func suggestion(for word: String, in candidates: [String]) -> String {
  guard word.utf8.count <= suggestionMaxLength else { return "" }
  let lowered = word.lowercased()
  let length = lowered.utf8.count
  let allowed = max(2, word.count / 3)
  var best: (String, Int)?
  for c in candidates.prefix(suggestionMaxCandidates) where c.utf8.count <= suggestionMaxLength {
    let other = c.lowercased()
    guard abs(other.utf8.count - length) <= allowed else { continue }
    let d = editDistance(lowered, other)
    if d <= allowed, best == nil || d < best!.1 { best = (c, d) }
  }
  return best.map { " (did you mean '\($0.0)'?)" } ?? ""
}

/// The longest name, in bytes, that a suggestion compares (longer than any
/// name of the API, a bundle id or a selector).
let suggestionMaxLength = 256

/// The most names a suggestion tries: with names of at most 256 bytes, a
/// failed lookup costs at most about 65 million steps of the distance.
let suggestionMaxCandidates = 1_000

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

