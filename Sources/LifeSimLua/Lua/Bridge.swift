import CLua
import CLuaShim
import LifeSimEngine

// The bridge between the engine and Lua: how it stays safe, and the one table
// of everything a script can call.
//
// # The rule (engineering rule 2)
//
// No Lua error may unwind a Swift frame. `lua_error` longjmps, and a longjmp
// across Swift skips `defer` blocks and releases: the device is left believing
// it is still inside `dev:advance`, or the heap is corrupted. So:
//
// - Lua calls Swift only through the C trampolines in CLuaShim. A Swift host
//   function reports failure by throwing; `dispatch` turns the throw into a
//   request (`LS_RAISE`, `LS_ARGERROR`, `LS_RAISE_WHERE`), and the trampoline
//   raises after Swift has returned.
// - Swift calls Lua only through `ls_pcall` (`lua_pcall` with lifesim's message
//   handler and budgets). Where a metamethod is part of the contract
//   (`__tostring` when printing a value, `__index` when completing a field of a
//   lifesim object), it is called that way, protected.
// - Swift reads a script's tables only raw: `lua_rawget`, `lua_rawgeti`,
//   `lua_rawlen`, and `lua_next` while no script code runs (so the table cannot
//   change under the traversal, which is when `lua_next` could raise).
//
// # The audit: every Lua API function Swift calls, by what it may raise
//
// The 5.4 manual marks each function `-` (never raises), `m` (only a memory
// error) or `e`/`v` (may run a metamethod or raise for another reason).
//
// - `-`, called freely: `lua_gettop`, `lua_absindex`, `lua_type`, `lua_typename`,
//   `lua_toboolean`, `lua_tonumberx`, `lua_tointegerx`, `lua_isinteger`,
//   `lua_touserdata`, `lua_topointer`, `lua_rawequal`, `lua_rawlen`,
//   `lua_rawget`, `lua_rawgeti`, `lua_rawgetp`, `lua_pushvalue`, `lua_pushnil`,
//   `lua_pushnumber`, `lua_pushinteger`, `lua_pushboolean`, `lua_rotate`,
//   `lua_copy`, `lua_getmetatable`, `lua_setmetatable`, `lua_getiuservalue`,
//   `lua_setiuservalue`, `lua_sethook`, `lua_getstack`.
// - `m`, safe because of the allocator's soft mode: while Swift runs (inside a
//   trampoline, or between `ls_pcall`s) the allocator counts and never refuses,
//   and the trampoline checks the cap once Swift has returned (shim.c). These
//   are `lua_pushlstring`, `lua_pushstring`, `lua_createtable`,
//   `lua_newuserdatauv`, `lua_rawset`, `lua_rawseti`, `lua_rawsetp`, `luaL_ref`,
//   `luaL_unref`, `luaL_where`, `lua_getinfo`, `lua_tolstring` (on a string, or
//   on a copy of a number) and `luaL_loadbufferx` (through `ls_loadbuffer`, whose
//   syntax errors come back as a status). What is left is the host itself
//   running out of memory (`realloc` failing outside the cap), which Lua reports
//   as an unprotected error: the panic handler then aborts with a message.
// - `lua_settop` and `ls_pop` are `e` only because they may close a
//   to-be-closed slot; Swift never makes one, and a host function's frame holds
//   none, so they cannot raise here.
// - `lua_gc` may run finalizers. A script cannot set `__gc` (the sandbox's
//   `setmetatable` refuses it), the device's `__gc` is a C trampoline that never
//   raises, and an error in a finalizer becomes a warning in 5.4.
// - `e`, never called from Swift: `lua_getfield`, `lua_gettable`, `lua_geti`,
//   `lua_getglobal`, `lua_setfield`, `lua_settable`, `lua_seti`,
//   `lua_setglobal`, `lua_len`, `luaL_len`, `lua_compare`, `lua_concat`,
//   `lua_arith`, `luaL_tolstring`, `lua_call`, `lua_error`, `luaL_error`,
//   `luaL_argerror` and every `luaL_check*`. (Only C, in CLuaShim, raises.)
//   `BridgeSafetyTests` greps the bridge's sources for these names.
//
// # One row per Lua function
//
// Every function, method and field Lua sees is one `APIRow` below, beside its
// implementation: where it lives, its name, its usage line and summary (for
// `:help`, completion and docs/api.md), and its Swift closure. Set-up
// registers the rows; the row's index is the id its trampoline dispatches on.

/// Where a row is reached from a script.
enum APIOwner: Hashable {
  /// `lifesim.name`
  case lifesim
  /// `lifesim.workload.name`
  case workload
  /// `workload:name`, on what `lifesim.workload.user`/`replay` return.
  case workloadObject
  /// The prelude's private host table: not part of the API.
  case prelude
  /// `obj:name`, a method of a lifesim object.
  case method(ObjectKind)
  /// `obj.name`, a field of a lifesim object (read through `__index`).
  case field(ObjectKind)
  /// A metamethod of a lifesim object (`__tostring`, `__newindex`, `__gc`), or
  /// `__index`'s answer for a name that is neither a method nor a field.
  case meta(ObjectKind)
}

/// One thing Lua sees.
struct APIRow {
  enum Body {
    /// Called with Lua's arguments on the stack; returns how many results it pushed.
    case function((LuaRuntime) throws -> Int32)
    /// A value in the `lifesim` table, added to the set-up plan.
    case value((inout SetupPlan) -> Void)
  }

  let owner: APIOwner
  let name: String
  /// How a script writes a call (or reads the value).
  let usage: String
  /// One sentence for `:help` and docs/api.md.
  let summary: String
  let body: Body

  /// The name as scripts write it: `lifesim.device`, `dev:launch`, `app.state`.
  var qualifiedName: String {
    switch owner {
    case .lifesim: return "lifesim." + name
    case .workload: return "lifesim.workload." + name
    case .workloadObject: return "workload:" + name
    case .prelude: return "host." + name
    case .method(let k): return k.receiver + ":" + name
    case .field(let k): return k.receiver + "." + name
    case .meta(let k): return k.receiver + "." + name
    }
  }

  /// The most arguments a call of it takes, a method's self included, read
  /// from its usage line: `dev:launch(app [, { url = "…" }])` takes 3 (self,
  /// the app, the options), `lifesim.device{ … }` takes 1. Nil for what a
  /// script does not call (fields, metamethods, the prelude's functions,
  /// values). `dispatch` refuses a value past it: a call that passes one
  /// meant something the function would not do.
  var maxArguments: Int32? {
    guard case .function = body else { return nil }
    let receiver: Int32
    switch owner {
    case .lifesim, .workload: receiver = 0
    case .method, .workloadObject: receiver = 1
    case .prelude, .field, .meta: return nil
    }
    return Self.parameterCount(usage, name).map { receiver + Int32($0) }
  }

  /// How many parameters the call of `name` in `usage` lists: its top-level
  /// commas, where an optional `[, x]` counts and the commas inside a
  /// table, a string or a `function … end` do not. Nil when `usage` holds no
  /// call of `name` (`.name(` or `:name(`, or `{` for a table argument).
  static func parameterCount(_ usage: String, _ name: String) -> Int? {
    let u = Array(usage.unicodeScalars), n = Array(name.unicodeScalars)
    func isWordScalar(_ k: Int) -> Bool {
      k >= 0 && k < u.count && (u[k].properties.isAlphabetic || u[k] == "_" || ("0"..."9").contains(u[k]))
    }
    func word(_ w: String, at k: Int) -> Bool {
      let w = Array(w.unicodeScalars)
      return k + w.count <= u.count && Array(u[k..<k + w.count]) == w && !isWordScalar(k - 1) && !isWordScalar(k + w.count)
    }
    var open: Int?
    var k = 0
    while k + n.count + 1 < u.count {
      if (u[k] == ":" || u[k] == "."), Array(u[k + 1...k + n.count]) == n, u[k + n.count + 1] == "(" || u[k + n.count + 1] == "{" {
        open = k + n.count + 1
        break
      }
      k += 1
    }
    guard let open else { return nil }
    if u[open] == "{" { return 1 }
    var depth = 0, commas = 0, empty = true, inString = false
    k = open + 1
    while k < u.count {
      let c = u[k]
      if inString {
        if c == "\"" { inString = false }
        k += 1
        continue
      }
      if word("function", at: k) { depth += 1; empty = false; k += 8; continue }
      if word("end", at: k) { depth -= 1; k += 3; continue }
      switch c {
      case "\"": inString = true; empty = false
      case "(", "{": depth += 1; empty = false
      case ")", "}":
        if depth == 0 { return c == ")" ? (empty ? 0 : commas + 1) : nil }
        depth -= 1
      case ",": if depth == 0 { commas += 1 }
      case "[", "]", " ": break
      default: empty = false
      }
      k += 1
    }
    return nil
  }

  /// Whether `:help` and docs/api.md list it.
  var isPublic: Bool {
    switch owner {
    case .prelude, .meta: return false
    default: return true
    }
  }

  // Builders, so that each row reads as one declaration.

  static func function(_ owner: APIOwner, _ name: String, _ usage: String, _ summary: String,
                       _ call: @escaping (LuaRuntime) throws -> Int32) -> APIRow {
    APIRow(owner: owner, name: name, usage: usage, summary: summary, body: .function(call))
  }

  static func method(_ kind: ObjectKind, _ name: String, _ usage: String, _ summary: String,
                     _ call: @escaping (LuaRuntime) throws -> Int32) -> APIRow {
    APIRow(owner: .method(kind), name: name, usage: usage, summary: summary, body: .function(call))
  }

  /// A field: `get` pushes exactly one value.
  static func field(_ kind: ObjectKind, _ name: String, _ summary: String,
                    _ get: @escaping (LuaRuntime) throws -> Void) -> APIRow {
    APIRow(owner: .field(kind), name: name, usage: kind.receiver + "." + name, summary: summary,
           body: .function { rt in try get(rt); return 1 })
  }

  static func meta(_ kind: ObjectKind, _ name: String, _ call: @escaping (LuaRuntime) throws -> Int32) -> APIRow {
    APIRow(owner: .meta(kind), name: name, usage: "", summary: "", body: .function(call))
  }

  static func value(_ name: String, _ summary: String, _ push: @escaping (inout SetupPlan) -> Void) -> APIRow {
    APIRow(owner: .lifesim, name: name, usage: "lifesim." + name, summary: summary, body: .value(push))
  }
}

/// The whole API, in the order `:help` lists it.
enum API {
  static let rows: [APIRow] = lifesimRows + expectRows + exploreRows + workloadRows + preludeRows + deviceRows + appRows
    + viewControllerRows + viewRows + sceneRows + traceRows + contextRows + taskRows + backgroundTaskRows + metaRows + modernRows

  /// Each row's closure by id, for `dispatch` (nil for values): reading it does
  /// not copy the row's strings.
  static let calls: [((LuaRuntime) throws -> Int32)?] = rows.map {
    if case .function(let call) = $0.body { return call } else { return nil }
  }

  /// Each row's `maxArguments` by id (-1: not checked), read once.
  static let maxArguments: [Int32] = rows.map { $0.maxArguments ?? -1 }

  /// The row of each name, for set-up.
  static func index(of owner: APIOwner, _ name: String) -> Int32? {
    rows.firstIndex { $0.owner == owner && $0.name == name }.map(Int32.init)
  }

  /// The rows an owner has, with their ids.
  static func rows(of owner: APIOwner) -> [(id: Int32, row: APIRow)] {
    rows.indices.filter { rows[$0].owner == owner }.map { (Int32($0), rows[$0]) }
  }

  /// The method and field names of a kind of object (completion, suggestions).
  static func methodNames(_ kind: ObjectKind) -> [String] { rows(of: .method(kind)).map(\.row.name) }
  static func fieldNames(_ kind: ObjectKind) -> [String] { rows(of: .field(kind)).map(\.row.name) }

  /// Every kind's metamethods: `__tostring` per kind (in its API file),
  /// and these shared ones.
  static let metaRows: [APIRow] = ObjectKind.allCases.flatMap { kind in
    // A task takes one field, `on_expire` (its own row).
    (kind == .bgTask ? [] : [APIRow.meta(kind, "__newindex") { try $0.readOnly() }])
      + [APIRow.meta(kind, "__index") { throw $0.unknownField(kind) }]
  } + [APIRow.meta(.device, "__gc") { $0.devGC() }]
}

extension ObjectKind {
  /// How the API reference names a value of this kind in usage lines: `dev`, `app`, `ctx`.
  var receiver: String {
    switch self {
    case .device: return "dev"
    case .bgTask: return "task"
    default: return luaName
    }
  }
}

extension LuaRuntime {
  /// Runs host function `id`, turning thrown errors into trampoline requests.
  /// Every message names the function: Lua's own format does for argument
  /// errors, and others start with the function's name unless they already do.
  func dispatch(_ L: LuaState, _ id: Int32) -> Int32 {
    // A coroutine may call in: work on its stack, not the main thread's.
    let caller = self.L
    self.L = L
    defer { self.L = caller }
    let calls = hostCalls
    guard id >= 0, Int(id) < calls.count, let call = calls[Int(id)] else {
      push(L, "internal error: unknown host function \(id)")
      return LS_RAISE
    }
    #if DEBUG
    let top = lua_gettop(L)
    #endif
    do {
      try refuseExtraArguments(L, id)
      let n = try call(self)
      #if DEBUG
      // withBalancedStack for the whole call: the results sit on the arguments.
      assert(lua_gettop(L) == top + n, "\(API.rows[Int(id)].qualifiedName) left \(lua_gettop(L) - top) values on the stack and returned \(n)")
      #endif
      return n
    } catch let e as ArgumentError {
      lua_pushinteger(L, lua_Integer(e.position))
      push(L, e.message)
      return LS_ARGERROR
    } catch let e as ScriptError {
      push(L, named(e.message, by: API.rows[Int(id)]))
      return LS_RAISE_WHERE
    } catch SimulationError.handlerFailed(let failure) {
      pushErrorObject(failure)
      return LS_RAISE
    } catch SimulationError.processKilled(let app) {
      // A SIGKILL: the handler's code may catch the error, but runs no
      // further (the count hook raises at its next instruction).
      _ = app
      ls_trip_kill(L)
      push(L, named("the app's process was killed (SIGKILL): nothing more of this handler runs", by: API.rows[Int(id)]))
      return LS_RAISE_WHERE
    } catch let e as SimulationError {
      let row = API.rows[Int(id)]
      let message = named(luaMessage(for: e, calledAs: row.isPublic ? row.qualifiedName : nil), by: row)
      if e.isRefusal { lastRefusal = message }
      push(L, message)
      return LS_RAISE_WHERE
    } catch is RaiseTop {
      return LS_RAISE
    } catch {
      push(L, named("\(error)", by: API.rows[Int(id)]))
      return LS_RAISE_WHERE
    }
  }

  /// A value past the last parameter the row's usage lists is refused: Lua
  /// would drop it, and the call did not do what its writer meant
  /// (`dev:launch(app, "https://x")` for `{ url = … }`). A trailing nil is
  /// no value, as for Lua's own functions.
  @inline(__always)
  private func refuseExtraArguments(_ L: LuaState, _ id: Int32) throws {
    let limit = hostMaxArguments[Int(id)]
    let top = lua_gettop(L)
    guard limit >= 0, top > limit else { return }
    try refuseExtra(L, from: limit + 1, to: top, row: API.rows[Int(id)])
  }

  @inline(never)
  private func refuseExtra(_ L: LuaState, from first: Int32, to top: Int32, row: APIRow) throws {
    for i in first...top where ls_isnoneornil(L, i) == 0 {
      throw ArgumentError(position: i, message: "no value expected, got \(typeName(L, i)); usage: \(row.usage)")
    }
  }

  /// "dev:launch: …" unless the message starts with a function's name already
  /// (the engine's wording does), or comes from a metamethod, which names its field.
  private func named(_ message: String, by row: APIRow) -> String {
    guard row.isPublic, !API.publicNames.contains(where: { message.hasPrefix($0) }) else { return message }
    return row.qualifiedName + ": " + message
  }
}

extension API {
  /// The qualified names of the public rows.
  static let publicNames: [String] = rows.filter(\.isPublic).map(\.qualifiedName)
}

/// Thrown by host code that already pushed the error value to raise.
struct RaiseTop: Error {}

/// lifesim's version, as `lifesim.version` and `lifesim --version` print it.
public let lifesimVersion = "0.1.0"
