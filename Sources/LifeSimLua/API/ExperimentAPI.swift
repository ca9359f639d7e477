import CLua
import CLuaShim
import LifeSimEngine

/// A value a parameter takes in an experiment's grid.
public enum ParamValue: Hashable, Sendable, CustomStringConvertible {
  case number(Double)
  case text(String)
  case bool(Bool)

  /// How the value is written in result files and tables: numbers as Lua's
  /// `%.14g` would write them (`1000`, `0.5`), text as it is.
  public var description: String {
    switch self {
    case .number(let x): return formatNumber(x)
    case .text(let s): return s
    case .bool(let b): return b ? "true" : "false"
    }
  }
}

/// One parameter of an experiment and the values it takes, in the file's order.
public struct ExperimentParam: Sendable, Equatable {
  public var name: String
  public var values: [ParamValue]
}

/// An experiment file, read (`lifesim.experiment`): its grid, expanded
/// and filtered by the constraint, and its seeds. Runs are numbered point-major:
/// run `i` is point `i / seeds` with seed `i % seeds + 1`.
public struct ExperimentSpec: Sendable {
  public var name: String
  /// The parameters, sorted by name (the order of columns in result files).
  public var params: [ExperimentParam]
  /// Seeds 1...seeds are run for each point.
  public var seeds: Int
  /// The metric names the file declares, if it declares them.
  public var metrics: [String]?
  /// The grid: every combination of values the constraint keeps, in order
  /// (the first parameter varies slowest). Each point has one value per param.
  public var points: [[ParamValue]]
  /// Combinations the constraint excluded.
  public var excluded: Int
  /// Where the experiment's `run` function is written (`path:line`), for
  /// errors about what it returned.
  public var runPlace: String = ""
  /// Where the experiment's table is written (`path:line` of its
  /// `lifesim.experiment{`), for errors about its parameters and metrics.
  public var place: String = ""

  public var runCount: Int { points.count * seeds }
  /// The point and the seed of run `index`.
  public func run(_ index: Int) -> (point: Int, seed: Int) { (index / seeds, index % seeds + 1) }
}

/// A metric a run returned: a number, or a string used as a label.
public enum MetricValue: Sendable, Equatable {
  case number(Double)
  case text(String)
}

/// What one run gave: its metrics sorted by name, or the error that stopped it.
public struct RunOutcome: Sendable, Equatable {
  public var metrics: [(name: String, value: MetricValue)]
  public var error: String?

  public init(metrics: [(name: String, value: MetricValue)] = [], error: String? = nil) {
    self.metrics = metrics
    self.error = error
  }

  public static func == (a: RunOutcome, b: RunOutcome) -> Bool {
    a.error == b.error && a.metrics.map(\.name) == b.metrics.map(\.name)
      && a.metrics.map(\.value) == b.metrics.map(\.value)
  }
}

// lifesim.experiment, and running an experiment's points from Swift (lifesim batch).
extension LuaRuntime {
  /// `lifesim.experiment{ name, params = { k = { values } }, seeds = N, run = fn,
  /// constraint = fn, metrics = { names } }`: checks the table and marks it as an
  /// experiment; the file returns it.
  func lifesimExperiment() throws -> Int32 {
    let o = try args.table(1, keys: ["name", "params", "seeds", "run", "constraint", "metrics", "description"])
    let name = try o.required("name", as: String.self, hint: "a string such as \"coldlaunch\"")
    guard !name.isEmpty else { throw o.fail("field 'name' must not be empty") }
    _ = try readParams(o)
    _ = try readSeeds(o)
    _ = try o.strings("metrics")
    _ = try o.optional("description", as: String.self)
    for (key, required) in [("run", true), ("constraint", false)] {
      let t = o.type(of: key)
      if t == LUA_TNIL && !required { continue }
      guard t == LUA_TFUNCTION else {
        let what = key == "run" ? "function(p, seed) returning a table of metrics" : "function(p) returning true to keep a point"
        throw o.fail("field '\(key)' must be a \(what), got \(t == LUA_TNIL ? "nil" : String(cString: lua_typename(L, t)))")
      }
    }
    if lua_getmetatable(L, 1) != 0 {
      ls_pop(L, 1)
      throw o.fail("the experiment table must not have a metatable")
    }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(experimentMetatableRef))
    lua_setmetatable(L, 1)
    luaL_where(L, 1)
    if var place = stringValue(L, -1), place.hasSuffix(": ") {
      place.removeLast(2)
      // A file that makes experiments in a loop keeps no more than this; a
      // forgotten one is placed at its run function instead.
      if experimentPlaces.count >= 1024 { experimentPlaces.removeAll() }
      if let table = lua_topointer(L, 1) { experimentPlaces[table] = place }
    }
    ls_pop(L, 1)
    lua_pushvalue(L, 1)
    return 1
  }

  /// The `params` field: name -> non-empty list of numbers, strings or booleans.
  private func readParams(_ o: Options) throws -> [ExperimentParam] {
    let params: [ExperimentParam]? = try o.withTable("params", keys: nil, hint: "{ memory_mb = { 1000, 2000 } }") { table in
      var params: [ExperimentParam] = []
      lua_pushnil(L)
      while lua_next(L, table.index) != 0 {
        defer { ls_pop(L, 1) }
        guard lua_type(L, -2) == LUA_TSTRING, let name = stringValue(L, -2) else {
          throw o.fail("field 'params' must map parameter names to lists of values")
        }
        // A result file holds text: bytes that are not UTF-8 would be
        // written as U+FFFD, and two names or values would become one.
        if let bad = invalidUTF8(L, -2) {
          throw o.fail("the parameter name \(shownName(name)) \(invalidUTF8Text(bad)); result files hold text, so names and values must be UTF-8")
        }
        guard lua_type(L, -1) == LUA_TTABLE else {
          throw o.fail("parameter '\(name)' must be a list of values such as { 1, 2 }, got \(typeName(L, -1))")
        }
        let n = lua_rawlen(L, -1)
        guard n > 0 else { throw o.fail("parameter '\(name)' has no values") }
        var values: [ParamValue] = []
        for i in 1...n {
          lua_rawgeti(L, -1, lua_Integer(i))
          defer { ls_pop(L, 1) }
          switch lua_type(L, -1) {
          case LUA_TNUMBER:
            let x = lua_tonumberx(L, -1, nil)
            guard x.isFinite else { throw o.fail("parameter '\(name)' value \(i) is not finite") }
            values.append(.number(x))
          case LUA_TSTRING:
            let text = stringValue(L, -1) ?? ""
            if let bad = invalidUTF8(L, -1) {
              throw o.fail("parameter '\(name)' value \(i) \(invalidUTF8Text(bad)); result files hold text, so two such "
                           + "values would read alike: give the value as text (its hex digits, say) and decode it in run")
            }
            guard !text.contains(where: \.isNewline) else {
              throw o.fail("parameter '\(name)' value \(i) spans lines; values are one line (a result row is one line)")
            }
            values.append(.text(text))
          case LUA_TBOOLEAN: values.append(.bool(lua_toboolean(L, -1) != 0))
          default:
            throw o.fail("parameter '\(name)' value \(i) is a \(typeName(L, -1)); values must be numbers, strings or booleans (name a policy by a string and pick the function in run)")
          }
        }
        params.append(ExperimentParam(name: name, values: values))
      }
      return params
    }
    return (params ?? []).sorted { $0.name < $1.name }
  }

  private func readSeeds(_ o: Options) throws -> Int {
    guard let s = try o.optional("seeds", as: Double.self) else { return 1 }
    guard s == s.rounded(), s >= 1, s <= 1e9 else {
      throw o.fail("field 'seeds' must be a whole number ≥ 1, got \(formatNumber(s))")
    }
    return Int(s)
  }


  // MARK: - From Swift

  /// Runs an experiment file and reads the experiment it returns. The file's
  /// functions stay in this runtime for `runExperiment`.
  /// - Parameter expandGrid: evaluate the constraint and list the points (the
  ///   coordinator does; workers only need the functions).
  /// - Throws: `LuaFailure` when the file fails or returns no experiment.
  public func loadExperiment(_ path: String, expandGrid: Bool = true) throws -> ExperimentSpec {
    try runFile(path)
    guard hasExperiment else {
      throw LuaFailure(kind: .runtime, message: "\(path): the file must end with `return lifesim.experiment{ … }`")
    }
    return try experimentSpec(expandGrid: expandGrid)
  }

  /// Whether the last chunk run returned an experiment.
  public var hasExperiment: Bool { experimentRef != LUA_NOREF }

  /// Keeps the value a chunk returned if it is an experiment (called by `run`).
  func keepExperiment(returnedAt i: Int32) {
    guard isExperiment(i) else { return }
    experimentPlace = lua_topointer(L, i).flatMap { experimentPlaces[$0] }
    experimentPlaces.removeAll()
    lua_pushvalue(L, i)
    if experimentRef != LUA_NOREF { luaL_unref(L, ls_registryindex(), experimentRef) }
    experimentRef = luaL_ref(L, ls_registryindex())
  }

  /// The experiment the script returned.
  /// - Throws: `LuaFailure` when its constraint fails.
  public func experimentSpec(expandGrid: Bool = true) throws -> ExperimentSpec {
    precondition(hasExperiment, "experimentSpec() without an experiment")
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(experimentRef))
    do {
      return try readExperiment(at: lua_absindex(L, -1), expandGrid: expandGrid, path: scriptPath ?? "experiment")
    } catch let e as ArgumentError {
      throw LuaFailure(kind: .runtime, message: "\(scriptPath ?? "experiment"): \(e.message)")
    }
  }

  private func isExperiment(_ i: Int32) -> Bool {
    guard lua_type(L, i) == LUA_TTABLE, lua_getmetatable(L, i) != 0 else { return false }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(experimentMetatableRef))
    let ours = lua_rawequal(L, -1, -2) != 0
    ls_pop(L, 2)
    return ours
  }

  /// The most points an experiment's grid may have (before its constraint).
  public static let maxGridPoints = 1_000_000

  private func readExperiment(at t: Int32, expandGrid: Bool, path: String) throws -> ExperimentSpec {
    let o = Options(L: L, index: t, argument: 1)
    let name = try o.optional("name", as: String.self) ?? ""
    let params = try readParams(o)
    var spec = ExperimentSpec(name: name, params: params, seeds: try readSeeds(o),
                              metrics: try o.strings("metrics"), points: [], excluded: 0)
    let before = lua_gettop(L)
    _ = rawField(L, t, "run")
    spec.runPlace = functionPlace() ?? path
    spec.place = experimentPlace ?? spec.runPlace
    lua_settop(L, before)
    // The grid is listed in Swift before any run: bounded first, so that a
    // huge product of values ends with a message instead of eating memory.
    var product = 1
    for p in params {
      let (m, overflow) = product.multipliedReportingOverflow(by: max(1, p.values.count))
      guard !overflow, m <= Self.maxGridPoints else {
        throw LuaFailure(kind: .runtime, message: "\(path): the experiment's grid has more than \(Self.maxGridPoints) points "
                          + "(the product of its parameters' values); split it into several experiments")
      }
      product = m
    }
    guard expandGrid else { return spec }
    let hasConstraint = o.type(of: "constraint") == LUA_TFUNCTION
    // Every call of the constraint shares one instruction budget (the run's),
    // so a constraint that loops, or a grid of slow ones, ends at the limit.
    if hasConstraint { ls_reset_budget(L, options.maxInstructions) }
    // The cartesian product, first parameter slowest, like nested loops.
    var index = [Int](repeating: 0, count: params.count)
    while true {
      let point = params.indices.map { params[$0].values[index[$0]] }
      if try !hasConstraint || keeps(point, params: params, table: t) {
        spec.points.append(point)
      } else {
        spec.excluded += 1
      }
      var k = params.count - 1
      while k >= 0 {
        index[k] += 1
        if index[k] < params[k].values.count { break }
        index[k] = 0
        k -= 1
      }
      if k < 0 { break }
    }
    return spec
  }

  /// Calls the experiment's `constraint(p)`.
  private func keeps(_ point: [ParamValue], params: [ExperimentParam], table t: Int32) throws -> Bool {
    _ = rawField(L, t, "constraint")
    pushPoint(point, names: params.map(\.name))
    try protectedCall(nargs: 1, nresults: 1)
    defer { ls_pop(L, 1) }
    return lua_toboolean(L, -1) != 0
  }

  /// Pushes `p`: a table of name = value (stack effect: +1).
  private func pushPoint(_ point: [ParamValue], names: [String]) {
    lua_createtable(L, 0, Int32(point.count))
    for (name, value) in zip(names, point) {
      switch value {
      case .number(let x) where x == x.rounded() && abs(x) < 9e15: lua_pushinteger(L, lua_Integer(x))
      case .number(let x): push(L, x)
      case .text(let s): push(L, s)
      case .bool(let b): push(L, b)
      }
      setField(L, -2, name)
    }
  }

  /// Runs one (point, seed) of the loaded experiment: resets the state's
  /// per-run parts (instruction budget, `math.random`, `tostring` numbering,
  /// the default device seed), calls `run(p, seed)`, and reads the metrics.
  /// Never throws: a failure is the outcome's error, on one line. Without
  /// `collecting`, the run's garbage is left where it is (the caller puts
  /// back an earlier state next: `ExperimentWorker`).
  public func runExperiment(point: [ParamValue], names: [String], seed: Int, collecting: Bool = true) -> RunOutcome {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    ls_reset_budget(L, options.maxInstructions)
    // The host's budgets are per run too: the last run's devices are done with.
    traceBudget.reset()
    devicesThisRun = 0
    defaultSeed = UInt64(seed)
    lua_rawgeti(L, ls_registryindex(), lua_Integer(resetRunRef))
    lua_pushinteger(L, lua_Integer(seed))
    if ls_pcall(L, 1, 0, 0) != LUA_OK { return RunOutcome(error: oneLine(popFailure(status: LUA_ERRRUN))) }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(experimentRef))
    _ = rawField(L, -1, "run")
    pushPoint(point, names: names)
    lua_pushinteger(L, lua_Integer(seed))
    let status = ls_pcall(L, 2, 1, 0)
    if status != LUA_OK { return RunOutcome(error: oneLine(popFailure(status: status))) }
    var outcome = readMetrics(at: lua_absindex(L, -1))
    if let error = outcome.error { outcome.error = runLocation() + error }
    // Devices of finished runs are garbage now; collect them before the next run grows the heap.
    if collecting { _ = ls_gc(L, LUA_GCSTEP, 0) }
    return outcome
  }

  private func readMetrics(at t: Int32) -> RunOutcome {
    guard lua_type(L, t) == LUA_TTABLE else {
      return RunOutcome(error: "run must return a table of metrics such as { cold_ratio = 0.3 }, got \(typeName(L, t))")
    }
    ls_unview(L, t)  // `return dev.stats` gives its counters
    var metrics: [(name: String, value: MetricValue)] = []
    lua_pushnil(L)
    while lua_next(L, t) != 0 {
      defer { ls_pop(L, 1) }
      guard lua_type(L, -2) == LUA_TSTRING, let name = stringValue(L, -2) else {
        lua_settop(L, t)
        return RunOutcome(error: "run returned a metric whose name is not a string; metrics are name = number")
      }
      if let bad = invalidUTF8(L, -2) {
        lua_settop(L, t)
        return RunOutcome(error: "run returned the metric \(shownName(name)), whose name \(invalidUTF8Text(bad)); result files hold text")
      }
      switch lua_type(L, -1) {
      case LUA_TNUMBER: metrics.append((name, .number(lua_tonumberx(L, -1, nil))))
      case LUA_TSTRING:
        let text = stringValue(L, -1) ?? ""
        if let bad = invalidUTF8(L, -1) {
          lua_settop(L, t)
          return RunOutcome(error: "run returned the label '\(name)', which \(invalidUTF8Text(bad)); result files hold text, "
                            + "so two such labels would read alike")
        }
        guard !text.contains(where: \.isNewline) else {
          lua_settop(L, t)
          return RunOutcome(error: "run returned the label '\(name)' on several lines; labels are one line (a result row is one line)")
        }
        metrics.append((name, .text(text)))
      case LUA_TBOOLEAN: metrics.append((name, .number(lua_toboolean(L, -1) != 0 ? 1 : 0)))
      default:
        let type = typeName(L, -1)
        lua_settop(L, t)
        return RunOutcome(error: "run returned metric '\(name)' as a \(type); metrics must be numbers (or strings, as labels)")
      }
    }
    metrics.sort { $0.name < $1.name }
    return RunOutcome(metrics: metrics)
  }

  /// "file:line: ", where the experiment's `run` function is defined: the
  /// place of what it returned (which is gone once it has returned).
  private func runLocation() -> String {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    lua_rawgeti(L, ls_registryindex(), lua_Integer(experimentRef))
    _ = rawField(L, -1, "run")
    var ar = lua_Debug()
    guard lua_type(L, -1) == LUA_TFUNCTION, lua_getinfo(L, ">S", &ar) != 0, ar.linedefined > 0 else { return "" }
    // The whole path (short_src cuts long ones to 60 bytes).
    var source = ar.source.map { String(cString: $0) } ?? ""
    if source.hasPrefix("@") { source.removeFirst() }
    else { source = withUnsafeBytes(of: &ar.short_src) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) } }
    return "\(source):\(ar.linedefined): "
  }

  /// A failure as one line of a result file: the message (with the handler's
  /// context), newlines folded.
  private func oneLine(_ f: LuaFailure) -> String {
    f.description.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters() }.joined(separator: " | ")
  }
}

private extension Substring {
  func trimmingCharacters() -> String {
    String(drop(while: { $0 == " " || $0 == "\t" }))
  }
}
