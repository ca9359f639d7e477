import CLua
import CLuaShim
import CSV
import LifeSimEngine

// lifesim.workload: a simulated user, and the replay of recorded app usage.
extension LuaRuntime {
  static let userKeys = ["apps", "zipf", "switch_every", "session", "idle", "notifications_per_hour", "switcher_share", "quits_per_hour"]

  /// `lifesim.workload.user{ zipf = 1.1, switch_every = 180, … }`: checks the
  /// model and returns it as a workload (a table with `drive`).
  func workloadUser() throws -> Int32 {
    if isNoneOrNil(L, 1) { lua_settop(L, 0); lua_createtable(L, 0, 0) }
    try checkTable(L, 1)
    try checkKeys(L, 1, allowed: Self.userKeys, arg: 1)
    // Check every field now, where the script builds the model.
    _ = try userModel(table: 1, apps: [])
    if rawField(L, 1, "apps") != LUA_TNIL && lua_type(L, -1) != LUA_TTABLE {
      throw ArgumentError(position: 1, message: "field 'apps' must be a list of apps (objects or bundle ids), most popular first, got \(typeName(L, -1))")
    }
    ls_pop(L, 1)
    lua_createtable(L, 0, 8)
    for key in Self.userKeys {
      _ = rawField(L, 1, key)
      setField(L, -2, key)
    }
    push(L, "user")
    setField(L, -2, "kind")
    setWorkloadMetatable()
    return 1
  }

  /// `lifesim.workload.replay(rows | "file.csv")`: recorded usage, each row
  /// `{ t = seconds, app = bundle, event = "open" }`.
  func workloadReplay() throws -> Int32 {
    if lua_type(L, 1) == LUA_TSTRING {
      lua_settop(L, 1)
      _ = try workloadReadCSV()
      ls_replace(L, 1)
    }
    try checkTable(L, 1)
    _ = try usageRows(1, arg: 1)  // check now
    lua_createtable(L, 0, 2)
    lua_pushvalue(L, 1)
    setField(L, -2, "rows")
    push(L, "replay")
    setField(L, -2, "kind")
    setWorkloadMetatable()
    return 1
  }

  private func setWorkloadMetatable() {
    lua_rawgeti(L, ls_registryindex(), lua_Integer(workloadMetatableRef))
    lua_setmetatable(L, -2)
  }

  /// `workload:drive(dev, { days = 7 })` (a user) or `workload:drive(dev)` (a
  /// replay). Returns what the user did: `{ switches, locks, notifications }`.
  func workloadDrive() throws -> Int32 {
    try checkTable(L, 1)
    let slot = try slot(try checkHandle(2, .device).device)
    let kind = try fieldString(L, 1, "kind", arg: 1)
    if kind == "replay" {
      _ = rawField(L, 1, "rows")
      let rows = try usageRows(lua_absindex(L, -1), arg: 1)
      ls_pop(L, 1)
      let events = try rows.enumerated().map { i, row -> UsageEvent in
        var app: AppID?
        if let bundle = row.app {
          guard let id = slot.device.app(bundle: bundle) else {
            throw ScriptError(message: "replay row \(i + 1): no app '\(bundle)' is installed on this device\(suggestion(for: bundle, in: slot.device.apps.map(\.config.bundle)))")
          }
          app = id
        }
        return UsageEvent(time: row.time, app: app, kind: row.kind)
      }
      try slot.device.replay(events)
      return 0
    }
    guard kind == "user" else {
      throw ArgumentError(position: 1, message: "workload expected (from lifesim.workload.user or lifesim.workload.replay)")
    }
    var apps: [AppID] = []
    if rawField(L, 1, "apps") == LUA_TTABLE {
      let list = lua_absindex(L, -1)
      let n = lua_rawlen(L, list)
      if n > 0 {
        for i in 1...n {
          lua_rawgeti(L, list, lua_Integer(i))
          apps.append(try checkApp(lua_absindex(L, -1), on: slot))
          ls_pop(L, 1)
        }
      }
    } else {
      apps = slot.device.apps.map(\.id)
    }
    ls_pop(L, 1)
    let model = try userModel(table: 1, apps: apps)
    let duration = try driveDuration(3)
    let summary = try slot.device.drive(model, for: duration)
    lua_createtable(L, 0, 4)
    push(L, summary.quits); setField(L, -2, "quits")
    push(L, summary.switches); setField(L, -2, "switches")
    push(L, summary.locks); setField(L, -2, "locks")
    push(L, summary.notifications); setField(L, -2, "notifications")
    return 1
  }

  /// The user model in the table at `t`.
  private func userModel(table t: Int32, apps: [AppID]) throws -> UserModel {
    var m = UserModel(apps: apps)
    func seconds(_ key: String, allowNil: Bool = true) throws -> SimTime? {
      guard let s = try fieldNumber(L, t, key, arg: 1) else { return nil }
      guard s > 0, let time = SimTime(seconds: s), time > .zero else {
        throw ArgumentError(position: 1, message: "field '\(key)' must be a number of seconds > 0, got \(formatNumber(s))")
      }
      return time
    }
    if let z = try fieldNumber(L, t, "zipf", arg: 1) {
      guard z >= 0, z <= 10 else { throw ArgumentError(position: 1, message: "field 'zipf' must be an exponent between 0 and 10, got \(formatNumber(z))") }
      m.zipfExponent = z
    }
    if let s = try seconds("switch_every") { m.switchMean = s }
    m.sessionMean = try seconds("session")
    if let s = try seconds("idle") { m.idleMean = s }
    if let n = try fieldNumber(L, t, "notifications_per_hour", arg: 1) {
      guard n >= 0, n <= 3600 else { throw ArgumentError(position: 1, message: "field 'notifications_per_hour' must be between 0 and 3600, got \(formatNumber(n))") }
      m.notificationsPerHour = n
    }
    if let q = try fieldNumber(L, t, "quits_per_hour", arg: 1) {
      guard q >= 0, q <= 3600 else { throw ArgumentError(position: 1, message: "field 'quits_per_hour' must be between 0 and 3600, got \(formatNumber(q))") }
      m.quitsPerHour = q
    }
    if let p = try fieldNumber(L, t, "switcher_share", arg: 1) {
      guard p >= 0, p <= 1 else { throw ArgumentError(position: 1, message: "field 'switcher_share' must be between 0 and 1, got \(formatNumber(p))") }
      m.switcherShare = p
    }
    return m
  }

  /// `{ days = 7, hours = …, minutes = …, seconds = … }`, added up.
  private func driveDuration(_ i: Int32) throws -> SimTime {
    guard lua_type(L, i) == LUA_TTABLE else {
      throw ArgumentError(position: 2, message: "how long to drive is required, such as { days = 7 } or { hours = 2 }")
    }
    try checkKeys(L, i, allowed: ["days", "hours", "minutes", "seconds"], arg: 2)
    var total = 0.0
    for (key, unit) in [("days", 86_400.0), ("hours", 3600.0), ("minutes", 60.0), ("seconds", 1.0)] {
      if let v = try fieldNumber(L, i, key, arg: 2) {
        guard v >= 0 else { throw ArgumentError(position: 2, message: "field '\(key)' must be ≥ 0, got \(formatNumber(v))") }
        total += v * unit
      }
    }
    guard let d = SimTime(seconds: total) else {
      throw ArgumentError(position: 2, message: "the duration is out of range")
    }
    return d
  }

  /// The rows of a usage trace at `t`, checked.
  private func usageRows(_ t: Int32, arg: Int32) throws -> [(time: SimTime, app: String?, kind: UsageEvent.Kind)] {
    let kinds = UsageEvent.Kind.allCases.map(\.rawValue)
    var rows: [(time: SimTime, app: String?, kind: UsageEvent.Kind)] = []
    let n = lua_rawlen(L, t)
    guard n > 0 else { return [] }
    for i in 1...n {
      lua_rawgeti(L, t, lua_Integer(i))
      defer { ls_pop(L, 1) }
      let row = lua_absindex(L, -1)
      guard lua_type(L, row) == LUA_TTABLE else {
        throw ArgumentError(position: arg, message: "row \(i) must be a table { t = seconds, app = bundle, event = name }, got \(typeName(L, row))")
      }
      guard let s = try fieldNumber(L, row, "t", arg: arg), let time = SimTime(seconds: s), time >= .zero else {
        throw ArgumentError(position: arg, message: "row \(i) needs 't', the seconds since the start (≥ 0)")
      }
      guard let name = try fieldString(L, row, "event", arg: arg), let kind = UsageEvent.Kind(rawValue: name) else {
        let given = (try? fieldString(L, row, "event", arg: arg)) ?? nil
        throw ArgumentError(position: arg, message: "row \(i): unknown event '\(given ?? "nil")'\(suggestion(for: given ?? "", in: kinds)); events: \(kinds.joined(separator: ", "))")
      }
      let app = try fieldString(L, row, "app", arg: arg).flatMap { $0.isEmpty ? nil : $0 }
      let event = UsageEvent(time: time, app: nil, kind: kind)
      if event.needsApp && app == nil {
        throw ArgumentError(position: arg, message: "row \(i): event '\(name)' needs an app")
      }
      rows.append((time, app, kind))
    }
    return rows
  }

  /// `lifesim.workload.read_csv("usage.csv")`: reads an app-usage trace, found
  /// beside the script, as rows `{ t, app, event }`. Columns: time (seconds),
  /// bundle id, event; an optional header names them (`time,app,event`).
  func workloadReadCSV() throws -> Int32 {
    let name = try checkString(L, 1)
    if !options.unsafe && (name.hasPrefix("/") || name.split(separator: "/").contains("..")) {
      throw ArgumentError(position: 1, message: "'\(name)': traces are read from beside the script, by a relative path without '..' (lifesim run --unsafe allows any path)")
    }
    var path = name
    if !name.hasPrefix("/"), let script = scriptPath, let slash = script.lastIndex(of: "/") {
      path = String(script[...slash]) + name
    }
    let text: String
    do {
      text = String(decoding: try readFileBytes(path), as: UTF8.self)
    } catch {
      throw ScriptError(message: "cannot read \(path): \(error)")
    }
    let reader: CSVReader
    do {
      reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: true)
    } catch {
      throw ScriptError(message: "\(path): not a CSV file: \(error)")
    }
    var columns = (time: 0, app: 1, event: 2)
    var line = 0
    var first = true
    lua_createtable(L, 0, 0)
    var count = 0
    while let fields = reader.next() {
      line += 1
      if fields.allSatisfy(\.isEmpty) || fields.first?.hasPrefix("#") == true { continue }
      if first && Double(fields[0]) == nil {
        first = false
        // A header: find the columns by name.
        let lower = fields.map { $0.lowercased() }
        func find(_ names: [String]) -> Int? { lower.firstIndex { names.contains($0) } }
        guard let t = find(["time", "t", "seconds"]), let a = find(["app", "bundle", "bundle_id"]),
              let e = find(["event", "action"]) else {
          throw ScriptError(message: "\(path):\(line): the header must name the columns time, app and event, got \(fields.joined(separator: ","))")
        }
        columns = (t, a, e)
        continue
      }
      first = false
      func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
      guard let t = Double(field(columns.time)), t.isFinite else {
        throw ScriptError(message: "\(path):\(line): the time '\(field(columns.time))' is not a number of seconds")
      }
      count += 1
      lua_createtable(L, 0, 3)
      push(L, t); setField(L, -2, "t")
      push(L, field(columns.app)); setField(L, -2, "app")
      push(L, field(columns.event)); setField(L, -2, "event")
      lua_rawseti(L, -2, lua_Integer(count))
    }
    if let error = reader.error {
      throw ScriptError(message: "\(path): not a CSV file: \(error)")
    }
    return 1
  }
}
