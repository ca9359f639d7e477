import CLua
import CLuaShim
import LifeSimEngine

/// What became of one chunk typed into the REPL.
public enum Evaluation: Sendable {
  /// It ran. `values` are its results, pretty-printed; `expression` says it ran as
  /// `return <chunk>` (lua.c's first try), so it may not be a statement on its own.
  case ok(values: [String], expression: Bool)
  /// The chunk is an unfinished statement: the REPL reads another line (lua.c's `<eof>` rule).
  case incomplete
  /// It did not compile, or it raised an error.
  case failed(LuaFailure)
}

extension LuaRuntime {
  // MARK: - Evaluation

  /// Runs one chunk the way `lua.c` does: first as `return <chunk>`, so that an
  /// expression prints its value, then as a statement. Each chunk gets a fresh
  /// instruction budget; globals persist, `local`s end with the chunk.
  public func evaluate(_ chunk: String, chunkName: String = "=stdin") -> Evaluation {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    ls_reset_budget(L, options.maxInstructions)
    // After the memory cap stopped a chunk, what its globals still hold would trip
    // the cap again as the next chunk loads, and `big = nil` could never run. So
    // near the cap, collect, and give this chunk a quarter of the cap of headroom
    // above what is in use.
    let cap = options.memoryLimit
    if cap > 0 && memoryUsed > cap - cap / 8 {
      _ = ls_gc(L, LUA_GCCOLLECT, 0)
      ls_getstate(L).pointee.limit = max(cap, memoryUsed + cap / 4)
    }
    defer { ls_getstate(L).pointee.limit = cap }
    var expression = true
    do {
      try load(source: "return " + chunk, chunkName: chunkName)
    } catch let asExpression {
      expression = false
      do {
        try load(source: chunk, chunkName: chunkName)
      } catch let f as LuaFailure {
        // lua.c asks for more only when the statement ends early; an expression
        // that ends early (`1 +`) continues too.
        let early = { (e: Error) in (e as? LuaFailure).map { $0.kind == .syntax && $0.message.hasSuffix("<eof>") } ?? false }
        if early(f) || early(asExpression) { return .incomplete }
        return .failed(f)
      } catch {
        return .failed(LuaFailure(kind: .runtime, message: "\(error)"))
      }
    }
    do {
      try protectedCall(nargs: 0, nresults: LUA_MULTRET)
    } catch let f as LuaFailure {
      return .failed(f)
    } catch {
      return .failed(LuaFailure(kind: .runtime, message: "\(error)"))
    }
    var values: [String] = []
    let count = lua_gettop(L) - top
    if count > 0 {
      for i in (top + 1)...(top + count) { values.append(prettyPrinted(at: i)) }
    }
    return .ok(values: values, expression: expression)
  }

  /// True when `chunk` compiles as a statement (so `:save` can write it as it is).
  public func compilesAsStatement(_ chunk: String) -> Bool {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    return (try? load(source: chunk, chunkName: "=check")) != nil
  }

  /// The state a SIGINT handler passes to `ls_interrupt` (Ctrl-C): it stops the
  /// running chunk at its next instruction, as lua.c's `lstop` does.
  public var interruptTarget: OpaquePointer { mainState }

  // MARK: - Pretty-printing

  /// A readable rendering of the value at `index`: strings quoted, tables laid out
  /// with their keys in a stable order and cut off past `maxDepth`, lifesim objects
  /// by their own description (`<app com.example.notes: suspended, 150 MB, pid 3>`).
  /// It never calls a script's code except a `__tostring` metamethod, protected.
  public func prettyPrinted(at index: Int32, maxDepth: Int = 3) -> String {
    var printer = PrettyPrinter(runtime: self, maxDepth: maxDepth)
    return printer.render(lua_absindex(L, index), depth: 0, indent: "")
  }

  /// The value's own `__tostring`, called protected; nil when there is none or it fails.
  func protectedToString(at index: Int32) -> String? {
    try? protectedToStringResult(at: index).get()
  }

  // MARK: - Completion

  /// Completions for `word`, the text being typed, where `before` is the rest of
  /// the line in front of it. Each candidate replaces the whole word.
  ///
  /// - Inside a string that follows `on(`, the callback selectors; after
  ///   `observe(`, the notification names; in any other string, the bundle ids
  ///   of every device's apps.
  /// - `a.b.pre` completes the fields of `a.b`; `a.b:pre` its methods. lifesim
  ///   objects answer their own fields and methods; tables are read raw, so no
  ///   script code runs while you press Tab.
  /// - A bare word completes globals and Lua keywords.
  public func completions(for word: String, before: String) -> [String] {
    let trimmed = before.reversed().drop(while: { $0 == " " || $0 == "\t" })
    if let quote = trimmed.first, quote == "\"" || quote == "'" {
      // A completed string is closed, as a completed name is: one Tab gives `"com.example.notes"`.
      return stringCompletions(prefix: word, before: String(trimmed.dropFirst().reversed())).map { $0 + String(quote) }
    }
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    guard let split = word.lastIndex(where: { $0 == "." || $0 == ":" }) else {
      ls_pushglobaltable(L)
      let names = tableKeys(at: -1, methodsOnly: false) + luaKeywords
      return Set(names.filter { $0.hasPrefix(word) }).sorted()
    }
    let base = String(word[..<split])
    let method = word[split] == ":"
    let prefix = String(word[word.index(after: split)...])
    guard pushPath(base) else { return [] }
    var names: [String]
    if let kind = ObjectKind(rawValue: ls_userdata_kind(L, -1)) {
      names = method ? API.methodNames(kind) : API.fieldNames(kind)
    } else if lua_type(L, -1) == LUA_TTABLE {
      names = tableKeys(at: -1, methodsOnly: method)
    } else if lua_type(L, -1) == LUA_TSTRING && method {
      ls_pushglobaltable(L)
      rawField(L, -1, "string")  // raw: the globals' __index raises for unknown names
      names = lua_type(L, -1) == LUA_TTABLE ? tableKeys(at: -1, methodsOnly: true) : []
    } else {
      names = []
    }
    let sep = method ? ":" : "."
    return Set(names.filter { $0.hasPrefix(prefix) }).sorted().map { base + sep + $0 }
  }

  private func stringCompletions(prefix: String, before: String) -> [String] {
    let call = before.reversed().drop(while: { $0 == " " || $0 == "(" || $0 == "{" })
    let callee = String(call.prefix(while: { $0.isLetter || $0 == "_" }).reversed())
    let names: [String]
    switch callee {
    case "on": names = Callback.allCases.map(\.selector) + ["*"]
    case "observe": names = AppNotification.allCases.map(\.name)
    default: names = devices.ids.flatMap { id in devices[id]!.device.apps.map(\.config.bundle) }
    }
    return Set(names.filter { $0.hasPrefix(prefix) }).sorted()
  }

  /// Pushes the value a dotted path names (`dev.trace`, `lifesim.workload`),
  /// reading tables raw and lifesim objects through their own fields. Returns
  /// false, with nothing pushed, when the path does not name a value.
  private func pushPath(_ path: String) -> Bool {
    let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard let first = parts.first, isIdentifier(first) else { return false }
    ls_pushglobaltable(L)
    push(L, first)
    lua_rawget(L, -2)
    ls_remove(L, -2)
    for part in parts.dropFirst() {
      guard isIdentifier(part) else { ls_pop(L, 1); return false }
      if let kind = ObjectKind(rawValue: ls_userdata_kind(L, -1)) {
        guard API.fieldNames(kind).contains(part) else { ls_pop(L, 1); return false }
        // A lifesim object's field: read through its __index, protected.
        guard pushField(of: -1, part) else { ls_pop(L, 1); return false }
        ls_remove(L, -2)
      } else if lua_type(L, -1) == LUA_TTABLE {
        push(L, part)
        lua_rawget(L, -2)
        ls_remove(L, -2)
      } else {
        ls_pop(L, 1)
        return false
      }
    }
    if lua_type(L, -1) == LUA_TNIL { ls_pop(L, 1); return false }
    return true
  }

  /// Pushes `object[key]` for a lifesim object, through a protected call. Returns
  /// false, with nothing pushed, when that raises.
  private func pushField(of index: Int32, _ key: String) -> Bool {
    let abs = lua_absindex(L, index)
    if fieldReaderRef == 0 {
      guard (try? load(source: "local o, k = ... return o[k]", chunkName: "=lifesim")) != nil else { return false }
      fieldReaderRef = luaL_ref(L, ls_registryindex())
    }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(fieldReaderRef))
    lua_pushvalue(L, abs)
    push(L, key)
    if ls_pcall(L, 2, 1, 1) != LUA_OK {
      ls_pop(L, 1)
      return false
    }
    return true
  }

  /// The identifier keys of the table at `index` and of the tables its `__index`
  /// chain leads to (raw reads only); with `methodsOnly`, only keys holding functions.
  private func tableKeys(at index: Int32, methodsOnly: Bool) -> [String] {
    var names: [String] = []
    lua_pushvalue(L, index)
    for _ in 0..<8 {  // a bounded walk down __index tables
      lua_pushnil(L)
      while lua_next(L, -2) != 0 {
        if let k = stringValue(L, -2), isIdentifier(k), !methodsOnly || lua_type(L, -1) == LUA_TFUNCTION {
          names.append(k)
        }
        ls_pop(L, 1)
      }
      guard lua_getmetatable(L, -1) != 0 else { break }
      push(L, "__index")
      lua_rawget(L, -2)
      ls_remove(L, -2)
      guard lua_type(L, -1) == LUA_TTABLE else { ls_pop(L, 1); break }
      ls_remove(L, -2)
    }
    ls_pop(L, 1)
    return names
  }
}

private let luaKeywords = [
  "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
  "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
]

func isIdentifier(_ s: String) -> Bool {
  guard let first = s.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
    return false
  }
  return s.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    && !luaKeywords.contains(s)
}

/// Lays out Lua values for the REPL. Keys come in a fixed order (the array part,
/// then numbers, then strings, then the rest), so the same value always prints
/// the same way, whatever Lua's hash order.
struct PrettyPrinter {
  let runtime: LuaRuntime
  let maxDepth: Int
  var maxItems = 50
  var lineWidth = 72
  /// Whether a value's `__tostring` speaks for it (called protected).
  var callsToString = true
  /// Tables being printed, to show cycles instead of looping.
  var open: [UnsafeRawPointer] = []

  init(runtime: LuaRuntime, maxDepth: Int) {
    self.runtime = runtime
    self.maxDepth = maxDepth
  }

  var L: OpaquePointer { runtime.L }

  mutating func render(_ i: Int32, depth: Int, indent: String) -> String {
    switch lua_type(L, i) {
    case LUA_TNIL: return "nil"
    case LUA_TBOOLEAN: return lua_toboolean(L, i) != 0 ? "true" : "false"
    case LUA_TNUMBER: return numberText(i)
    case LUA_TSTRING: return quoted(stringValue(L, i) ?? "")
    case LUA_TFUNCTION: return functionText(i)
    case LUA_TTABLE: return table(i, depth: depth, indent: indent)
    case LUA_TUSERDATA:
      if callsToString, ObjectKind(rawValue: ls_userdata_kind(L, i)) != nil, let s = runtime.protectedToString(at: i) { return s }
      return "<userdata>"
    case LUA_TTHREAD: return "<coroutine>"
    default: return "<\(typeName(L, i))>"
    }
  }

  private func numberText(_ i: Int32) -> String {
    if lua_isinteger(L, i) != 0 { return String(lua_tointegerx(L, i, nil)) }
    lua_pushvalue(L, i)  // lua_tolstring converts in place: work on a copy
    defer { ls_pop(L, 1) }
    var len = 0
    guard let p = lua_tolstring(L, -1, &len) else { return "?" }
    return String(cString: p)
  }

  private func functionText(_ i: Int32) -> String {
    var ar = lua_Debug()
    lua_pushvalue(L, i)
    guard lua_getinfo(L, ">S", &ar) != 0 else { return "<function>" }
    let source = withUnsafePointer(to: &ar.short_src) {
      $0.withMemoryRebound(to: CChar.self, capacity: Int(LUA_IDSIZE)) { String(cString: $0) }
    }
    // C functions, and the prelude's Lua wrappers of the standard library.
    if ar.what.map({ String(cString: $0) }) == "C" || source == "lifesim" { return "<function: builtin>" }
    return "<function \(source):\(ar.linedefined)>"
  }

  private mutating func table(_ i: Int32, depth: Int, indent: String) -> String {
    ls_unview(L, i)  // `dev.stats` shows its counters
    guard let p = lua_topointer(L, i) else { return "{}" }
    if open.contains(p) { return "<cycle>" }
    // A table with its own __tostring (or a lifesim table with a __name) speaks for itself.
    if callsToString, runtime.hasToString(i), let s = runtime.protectedToString(at: i) { return s }
    if depth >= maxDepth { return "{…}" }
    open.append(p)
    defer { open.removeLast() }

    var items: [String] = []
    var n: lua_Integer = 0  // the array part: 1, 2, … up to the first nil
    while Int(n) < maxItems {
      if lua_rawgeti(L, i, n + 1) == LUA_TNIL { ls_pop(L, 1); break }
      n += 1
      items.append(render(lua_gettop(L), depth: depth + 1, indent: indent + "  "))
      ls_pop(L, 1)
    }
    // The other keys, sorted: numbers, then strings, then anything else. Lua's
    // own order depends on the hash seed, so every key is seen before any is cut.
    var keys: [(order: Int, number: Double, key: String, integer: lua_Integer?)] = []
    // Keys of other types are copied to a scratch array first: rendering them may
    // call a script's __tostring, which could change the table under lua_next
    // (and lua_next raises on a key it no longer finds).
    lua_createtable(L, 0, 0)
    let scratch = lua_gettop(L)
    var otherCount: lua_Integer = 0
    lua_pushnil(L)
    while lua_next(L, i) != 0 {
      defer { ls_pop(L, 1) }
      if lua_isinteger(L, -2) != 0, case let k = lua_tointegerx(L, -2, nil), k >= 1, k <= n { continue }
      switch lua_type(L, -2) {
      case LUA_TNUMBER:
        let integer = lua_isinteger(L, -2) != 0 ? lua_tointegerx(L, -2, nil) : nil
        keys.append((0, lua_tonumberx(L, -2, nil), "", integer))
      case LUA_TSTRING: keys.append((1, 0, stringValue(L, -2) ?? "", nil))
      default:
        lua_pushvalue(L, -2)
        lua_rawseti(L, scratch, otherCount + 1)
        lua_pushvalue(L, -1)
        lua_rawseti(L, scratch, otherCount + 2)
        otherCount += 2
      }
    }
    var others: [(key: String, value: String)] = []
    var k: lua_Integer = 1
    while k < otherCount {
      lua_rawgeti(L, scratch, k)
      lua_rawgeti(L, scratch, k + 1)
      let top = lua_gettop(L)
      others.append(("[" + render(top - 1, depth: maxDepth, indent: "") + "]",
                     render(top, depth: depth + 1, indent: indent + "  ")))
      ls_pop(L, 2)
      k += 2
    }
    ls_pop(L, 1)  // the scratch array
    keys.sort { ($0.order, $0.number, $0.key) < ($1.order, $1.number, $1.key) }
    let total = Int(n) + keys.count + others.count
    for k in keys.prefix(max(0, maxItems - items.count)) {
      let text: String
      if k.order == 0 {
        if let integer = k.integer { lua_pushinteger(L, integer) } else { lua_pushnumber(L, k.number) }
        text = "[\(numberText(-1))]"
      } else {
        push(L, k.key)
        text = isIdentifier(k.key) ? k.key : "[\(quoted(k.key))]"
      }
      lua_rawget(L, i)
      items.append("\(text) = \(render(lua_gettop(L), depth: depth + 1, indent: indent + "  "))")
      ls_pop(L, 1)
    }
    for o in others.sorted(by: { $0.key < $1.key }).prefix(max(0, maxItems - items.count)) {
      items.append("\(o.key) = \(o.value)")
    }
    if total > items.count { items.append("… (\(total - items.count) more)") }
    if items.isEmpty { return "{}" }
    let oneLine = "{ " + items.joined(separator: ", ") + " }"
    if oneLine.count + indent.count <= lineWidth && !oneLine.contains("\n") { return oneLine }
    let inner = indent + "  "
    return "{\n" + items.map { inner + $0 }.joined(separator: ",\n") + ",\n" + indent + "}"
  }
}

/// A string as a Lua literal: double quotes, with escapes for quotes, backslashes
/// and control characters.
func quoted(_ s: String) -> String {
  var out = "\""
  for u in s.unicodeScalars {
    switch u {
    case "\"": out += "\\\""
    case "\\": out += "\\\\"
    case "\n": out += "\\n"
    case "\t": out += "\\t"
    case "\r": out += "\\r"
    default:
      // Three digits always: "\1" before a digit would read as another code.
      if u.value < 0x20 || u.value == 0x7F {
        let d = Int(u.value)
        out += "\\" + String(d / 100) + String(d / 10 % 10) + String(d % 10)
      } else {
        out.unicodeScalars.append(u)
      }
    }
  }
  return out + "\""
}
