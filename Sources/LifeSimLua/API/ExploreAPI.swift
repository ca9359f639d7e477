import CLua
import CLuaShim
import LifeSimEngine

// lifesim.invariant, lifesim.reachable, lifesim.action, lifesim.state_key and
// lifesim.replay: what a script declares for `lifesim explore`, and the steps
// the search takes.

/// What a script declared for the search. Functions are registry references.
public struct ExploreDeclarations {
  public internal(set) var invariants: [(name: String, ref: Int32)] = []
  public internal(set) var reachables: [(name: String, ref: Int32)] = []
  /// Actions the script added (a function) or left out of the defaults (nil).
  public internal(set) var actions: [(name: String, ref: Int32?)] = []
  public internal(set) var stateKey: Int32?
}

/// A step of the search's alphabet, its name read once (`LuaRuntime.plan`).
struct StepPlan {
  enum Kind {
    /// An action of the table, with its app when it takes one.
    case action(ActionRow, AppID?)
    case advance(SimTime)
    /// A name no step has: the error taking it gives.
    case invalid(String)
  }
  let name: String
  /// Nil when the step names an app the device did not have when it was read.
  let kind: Kind?
}

/// What one step did.
public enum StepOutcome: Equatable {
  /// The device did it.
  case done
  /// The device refused it in this situation (a launch on a locked phone):
  /// not a transition.
  case refused
  /// A handler or the action failed: a violation, with its message.
  case failed(String)
}

extension API {
  static let exploreRows: [APIRow] = [
    .function(.lifesim, "invariant", "lifesim.invariant(name, function(dev) return ok [, message] end)",
              "For lifesim explore: must hold after every step; false (and a message) or an error is a violation.") {
      try $0.declare(.invariant)
    },
    .function(.lifesim, "reachable", "lifesim.reachable(name, function(dev) return true end)",
              "For lifesim explore: must hold in at least one explored state, or the search says it never got there.") {
      try $0.declare(.reachable)
    },
    .function(.lifesim, "action", "lifesim.action(name, function(dev) … end | false)",
              "For lifesim explore: adds an action to the search's alphabet, or (false) leaves a default one out.") {
      try $0.declare(.action)
    },
    .function(.lifesim, "state_key", "lifesim.state_key(function(dev) return \"…\" end)",
              "For lifesim explore: the app data that tells states apart, beside the engine's own state.") {
      try $0.declare(.stateKey)
    },
    .function(.lifesim, "replay", "lifesim.replay{ \"launch com.example.notes\", \"home\", … }",
              "Takes the steps on the first device, checking the invariants after each (what explore -o writes).") {
      try $0.exploreReplay()
    },
  ]
}

enum Declaration { case invariant, reachable, action, stateKey }

extension LuaRuntime {
  func declare(_ what: Declaration) throws -> Int32 {
    if what == .stateKey {
      try args.function(1)
      lua_pushvalue(L, 1)
      if let old = explore.stateKey { luaL_unref(L, ls_registryindex(), old) }
      explore.stateKey = luaL_ref(L, ls_registryindex())
      return 0
    }
    let name = try args.name(1, "the name")
    if what == .action && lua_type(L, 2) == LUA_TBOOLEAN && lua_toboolean(L, 2) == 0 {
      explore.actions.append((name, nil))
      return 0
    }
    try args.function(2)
    lua_pushvalue(L, 2)
    let ref = luaL_ref(L, ls_registryindex())
    switch what {
    case .invariant: explore.invariants.append((name, ref))
    case .reachable: explore.reachables.append((name, ref))
    case .action: explore.actions.append((name, ref))
    case .stateKey: break
    }
    return 0
  }

  /// `lifesim.replay{ steps }`: a counterexample, run again.
  func exploreReplay() throws -> Int32 {
    let steps = try stringList(1)
    let slot = try exploreDevice()
    var taken: [String] = []
    if let (name, message) = try brokenInvariant(on: slot) {
      throw ScriptError(message: "invariant '\(name)' does not hold before any step: \(message)")
    }
    for step in steps {
      taken.append(step)
      switch try take(step, on: slot) {
      case .done: break
      case .refused: continue
      case .failed(let message):
        throw ScriptError(message: "after \(taken.joined(separator: ", ")): \(message)")
      }
      if let (name, message) = try brokenInvariant(on: slot) {
        throw ScriptError(message: "invariant '\(name)' does not hold after \(taken.joined(separator: ", ")): \(message)")
      }
    }
    return 0
  }

  /// The strings of the table at `index`, read raw.
  private func stringList(_ index: Int32) throws -> [String] {
    guard lua_type(L, index) == LUA_TTABLE else { throw ScriptError(message: "lifesim.replay: expected a table of steps") }
    var out: [String] = []
    var i: lua_Integer = 1
    while true {
      let type = lua_rawgeti(L, index, i)
      if type == LUA_TNIL { break }
      guard type == LUA_TSTRING else {
        let name = typeName(L, -1)
        ls_pop(L, 1)
        // A step that is no string would end the list there, and the
        // counterexample would stop short without a word.
        throw ScriptError(message: "lifesim.replay: bad step #\(i) (string expected, got \(name))")
      }
      out.append(stringValue(L, -1) ?? "")
      ls_pop(L, 1)
      i += 1
    }
    ls_pop(L, 1)
    return out
  }

  // MARK: - The search's view of a device

  /// The device the search drives: the first one the script made.
  func exploreDevice() throws -> DeviceSlot {
    guard let id = devices.ids.first, let slot = devices[id] else {
      throw ScriptError(message: "the script makes no device: lifesim explore drives the first device it makes")
    }
    return slot
  }

  /// The default alphabet, then the script's own actions, less those it left out.
  func alphabet(of slot: DeviceSlot) -> [String] {
    var steps: [String] = []
    for (name, perApp) in ActionRow.exploreSteps {
      if perApp {
        let row = ActionRow.stepping(Substring(name))
        for app in slot.device.apps where row?.explores(app, on: slot.device.profile) ?? true {
          steps.append("\(name) \(app.config.bundle)")
        }
      } else {
        steps.append(name)
      }
    }
    steps += Self.exploreClockSteps
    let removed = Set(explore.actions.filter { $0.ref == nil }.map(\.name))
    steps.removeAll { removed.contains($0) || removed.contains(String($0.split(separator: " ").first ?? "")) }
    for (name, ref) in explore.actions where ref != nil && !steps.contains(name) { steps.append(name) }
    return steps
  }

  /// The clock's steps, after the actions'.
  static let exploreClockSteps = ["advance 1", "advance 10", "advance 60"]

  /// Takes one step on the device.
  func take(_ step: String, on slot: DeviceSlot) throws -> StepOutcome {
    try take(plan(step, on: slot), on: slot)
  }

  /// What a step's name asks of the device, read once: a search takes each
  /// step of its alphabet hundreds of thousands of times.
  func plan(_ step: String, on slot: DeviceSlot) -> StepPlan {
    // "launch com.example.notes": the verb and its argument, found by bytes
    // (not by Characters: no grapheme breaking).
    let space = step.utf8.firstIndex(of: UInt8(ascii: " "))
    let verb = space.map { step[..<$0] } ?? step[...]
    let argument = space.map { step[step.index(after: $0)...] }
    // An app the device does not have yet is looked for again when the step is taken.
    let app = argument.flatMap { a in slot.device.apps.first(where: { $0.config.bundle == a })?.id }
    let kind: StepPlan.Kind?
    switch verb {
    case "advance":
      guard let argument, let s = Double(argument), s > 0, let t = SimTime(seconds: s) else {
        kind = .invalid("unknown step '\(step)' (advance takes a positive number of seconds)")
        break
      }
      kind = .advance(t)
    default:
      // Any action that runs with nothing but its app can be a step (`--actions`,
      // `lifesim.replay`); the default alphabet has those the table lets explore take.
      guard let row = ActionRow.stepping(verb) else {
        kind = .invalid("unknown step '\(step)' (lifesim.action adds one)")
        break
      }
      kind = row.arguments == .app && row.isStepItself ? app.map { .action(row, $0) } : .action(row, nil)
    }
    return StepPlan(name: step, kind: kind)
  }

  /// Takes a planned step: the script's action of that name if it declared
  /// one (looked up now: a script may declare actions as it runs), else the
  /// device's.
  func take(_ plan: StepPlan, on slot: DeviceSlot) throws -> StepOutcome {
    let step = plan.name
    if !explore.actions.isEmpty, let ref = explore.actions.last(where: { $0.name == step })?.ref {
      lastRefusal = nil
      guard let message = try call(ref, on: slot) else { return .done }
      // An action that failed because the device refused what it asked (dev:open_url
      // on a locked phone) is no violation. But its Lua code ran, and may have
      // changed the script's data or the device before the refusal: it is a
      // step taken, as `lifesim.replay` and a run take it, so that the search
      // and every replay of its steps agree.
      if let refusal = lastRefusal, message.hasSuffix(refusal) { return .done }
      return .failed("action '\(step)' failed: \(message)")
    }
    let device = slot.device
    guard let kind = plan.kind ?? self.plan(step, on: slot).kind else {
      throw ScriptError(message: "unknown step '\(step)'")  // its app is not on the device
    }
    do {
      switch kind {
      case .action(let row, let app): try row.step(on: device, app: app)
      case .advance(let t): try device.advance(by: t)
      case .invalid(let message): throw ScriptError(message: message)
      }
      return .done
    } catch let e as SimulationError {
      if e.isRefusal { return .refused }
      return .failed(describe(e))
    }
  }

  /// The first invariant that does not hold now, with its message.
  func brokenInvariant(on slot: DeviceSlot) throws -> (String, String)? {
    for (name, ref) in explore.invariants {
      if let message = try call(ref, on: slot, predicate: true) { return (name, message) }
    }
    return nil
  }

  /// The reachable properties that hold now. One that raises an error is an
  /// error of the script, not a property that does not hold.
  func reached(on slot: DeviceSlot) throws -> [String] {
    try explore.reachables.filter {
      var raised: String?
      let holds = try call($0.ref, on: slot, predicate: true, raised: &raised) == nil
      if let raised { throw ScriptError(message: "lifesim.reachable '\($0.name)' failed: \(raised)") }
      return holds
    }.map(\.name)
  }

  /// What the search compares states by: the engine's fingerprint of every
  /// live device, in order of creation (a step, a handler or a timer may act
  /// on any of them), with each
  /// pending timer named by its function's definition (`file:line`, not the
  /// slot it happens to sit in, which is reused), then the script's
  /// `lifesim.state_key`.
  func exploreFingerprint(on slot: DeviceSlot) throws -> [UInt8] {
    var fp: [UInt8] = []
    devices.forEach { id, s in
      fp.append(word: Int64(id))
      s.device.appendFingerprint(to: &fp) { token, out in self.appendFunctionOrigin(Int32(token.rawValue), in: s, to: &out) }
      appendPolicyFunctions(of: s, to: &fp)
    }
    try appendStateKey(on: slot, to: &fp)
    return fp
  }

  /// The digest of `exploreFingerprint`, made as it is written, without
  /// the bytes (what the search keeps of each state, at every step).
  func exploreDigest(on slot: DeviceSlot) throws -> StateDigest {
    var hasher = StateHasher()
    devices.forEach { id, s in
      hasher.append(word: Int64(id))
      s.device.hashFingerprint(into: &hasher) { token, out in
        self.appendFunctionOrigin(Int32(token.rawValue), in: s, to: &out)
      }
      appendPolicyFunctions(of: s, to: &hasher)
    }
    try appendStateKey(on: slot, to: &hasher)
    return hasher.digest
  }

  /// Where the policy functions in force on a device were defined: a step
  /// may set another (`dev:policy`), which decides what happens next.
  private func appendPolicyFunctions<Sink: FingerprintSink>(of s: DeviceSlot, to out: inout Sink) {
    let policy = s.device.policy
    if policy.backgroundTimeFromHost, let fn = s.policyFunctions["background_time"] {
      appendFunctionOrigin(fn, in: s, to: &out)
    }
    if policy.victimFromHost, let fn = s.policyFunctions["choose_victim"] {
      appendFunctionOrigin(fn, in: s, to: &out)
    }
    if policy.taskSchedulerFromHost, let fn = s.policyFunctions["task_scheduler"] {
      appendFunctionOrigin(fn, in: s, to: &out)
    }
  }

  /// Appends where the function in a store slot was defined, read raw
  /// (`lua_getinfo` runs no script code): its source's name (prefixed by its
  /// length) and line, or its type's name when it is not a Lua function. No
  /// string is made: the fingerprint of every explored state holds one of
  /// these per pending timer.
  private func appendFunctionOrigin<Sink: FingerprintSink>(_ storeSlot: Int32, in slot: DeviceSlot, to out: inout Sink) {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    slot.pushSlot(storeSlot)
    let found: Void? = withFunctionOrigin { src, line in
      out.append(text: src)
      out.append(byte: 1)
      out.append(word: Int64(line))
    }
    if found == nil {
      var name = lua_type(L, -1) == LUA_TFUNCTION ? "function" : typeName(L, -1)
      name.withUTF8 { out.append(text: UnsafeRawBufferPointer($0)) }
      out.append(byte: 0)  // no line
    }
  }

  /// Appends the script's projection of its own data (`lifesim.state_key`),
  /// nothing without one. A string counts by its bytes, whatever they are
  /// (`string.pack` output included); a number by its exact value, an
  /// integral float as the integer Lua would take it for as a table key; nil
  /// as nothing. Each kind has its own tag, so "1" and 1 are two states.
  func appendStateKey<Sink: FingerprintSink>(on slot: DeviceSlot, to out: inout Sink) throws {
    guard let ref = explore.stateKey else { return }
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(ref))
    slot.pushDevice()
    let status = ls_pcall(L, 1, 1, 0)
    if status != LUA_OK { throw ScriptError(message: "lifesim.state_key: \(popFailure(status: status).message)") }
    switch lua_type(L, -1) {
    case LUA_TSTRING:
      var len = 0
      let p = lua_tolstring(L, -1, &len)  // a string already: no conversion, no allocation
      out.append(byte: 1)
      out.append(text: UnsafeRawBufferPointer(start: p, count: len))
    case LUA_TNUMBER:
      if lua_isinteger(L, -1) != 0 {
        out.append(byte: 2)
        out.append(word: Int64(lua_tointegerx(L, -1, nil)))
      } else {
        let x = lua_tonumberx(L, -1, nil)
        guard !x.isNaN else { throw ScriptError(message: "\(stateKeyOrigin()) returned NaN, which equals no state, not even itself") }
        if x == x.rounded(), x >= -0x1p63, x < 0x1p63 {
          out.append(byte: 2)
          out.append(word: Int64(x))
        } else {
          out.append(byte: 3)
          out.append(word: Int64(bitPattern: x.bitPattern))
        }
      }
    case LUA_TNIL:
      out.append(byte: 0)
    default:
      throw ScriptError(message: "\(stateKeyOrigin()) must return a string or a number, got \(typeName(L, -1))")
    }
  }

  /// "lifesim.state_key (file:line)": where the script defined its function.
  private func stateKeyOrigin() -> String {
    guard let ref = explore.stateKey else { return "lifesim.state_key" }
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(ref))
    guard let place = functionPlace() else { return "lifesim.state_key" }
    return "\(place): the function given to lifesim.state_key"
  }

  /// Calls `fn(dev)`. For a predicate: nil when it holds (a true first
  /// result), else the message (its second result, or the error). Otherwise
  /// nil on success and the error message on failure.
  private func call(_ ref: Int32, on slot: DeviceSlot, predicate: Bool = false) throws -> String? {
    var raised: String?
    return try call(ref, on: slot, predicate: predicate, raised: &raised)
  }

  /// Calls a function of the script with the device; nil when it returns (for
  /// a predicate, when it holds), else its message. An error it raised is
  /// also put in `raised`.
  private func call(_ ref: Int32, on slot: DeviceSlot, predicate: Bool, raised: inout String?) throws -> String? {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(ref))
    slot.pushDevice()
    let status = ls_pcall(L, 1, 2, 0)
    if status != LUA_OK {
      raised = popFailure(status: status).message
      return raised
    }
    guard predicate else { return nil }
    if lua_toboolean(L, -2) != 0 { return nil }
    return stringValue(L, -1) ?? "it returned \(lua_type(L, -2) == LUA_TNIL ? "nil" : "false")"
  }

  private func describe(_ e: SimulationError) -> String {
    if case .handlerFailed(let f) = e {
      return "\(f.callback) of \(f.app ?? "?") failed at t=\(f.time): \(f.message)"
    }
    return "\(e)"
  }
}

