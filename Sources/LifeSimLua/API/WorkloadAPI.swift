import CLua
import CLuaShim
import CSV
import LifeSimEngine
import LifeSimPlatform

// lifesim.workload: a simulated user, and the replay of recorded app usage.
extension API {
  static let workloadRows: [APIRow] = [
    .function(.workload, "user", "lifesim.workload.user{ zipf = 1.1, switch_every = 180, … }",
              "A seeded user who switches between apps (Zipf popularity, exponential gaps); drive it with workload:drive(dev, { days = 7 }).") { try $0.workloadUser() },
    .function(.workload, "replay", "lifesim.workload.replay(rows)",
              "Recorded usage, rows { t = seconds, app = bundle, event = \"open\" }; drive it with workload:drive(dev).") { try $0.workloadReplay() },
    .function(.workload, "read_csv", "lifesim.workload.read_csv(\"usage.csv\")",
              "Reads an app-usage trace beside the script as rows { t, app, event }.") { try $0.workloadReadCSV() },
    .function(.workloadObject, "drive", "workload:drive(dev [, { days =, hours =, minutes =, seconds = }])",
              "Runs a workload on a device; returns what the user did ({ switches, locks, notifications }).") { try $0.workloadDrive() },
  ]
}

extension LuaRuntime {
  static let userKeys = ["apps", "zipf", "switch_every", "session", "idle", "notifications_per_hour", "switcher_share", "quits_per_hour"]

  /// `lifesim.workload.user{ zipf = 1.1, switch_every = 180, … }`: checks the
  /// model and returns it as a workload (a table with `drive`).
  func workloadUser() throws -> Int32 {
    let given = try args.options(1, keys: Self.userKeys)
    // Check every field now, where the script builds the model.
    if let o = given {
      _ = try userModel(o, apps: [])
      try o.withValue("apps") { type in
        if type != LUA_TNIL && type != LUA_TTABLE {
          throw o.fail("field 'apps' must be a list of apps (objects or bundle ids), most popular first, got \(typeName(L, -1))")
        }
      }
    }
    lua_createtable(L, 0, 8)
    if let o = given {
      for key in Self.userKeys {
        rawField(L, o.index, key)
        setField(L, -2, key)
      }
    }
    push(L, "user")
    setField(L, -2, "kind")
    setWorkloadMetatable()
    return 1
  }

  /// `lifesim.workload.replay(rows | "file.csv")`: recorded usage, each row
  /// `{ t = seconds, app = bundle, event = "open" }`.
  func workloadReplay() throws -> Int32 {
    // A file name is read now; its rows replace it.
    var rows: Int32 = 1
    if lua_type(L, 1) == LUA_TSTRING {
      _ = try workloadReadCSV()
      rows = lua_gettop(L)
    }
    guard lua_type(L, rows) == LUA_TTABLE else {
      throw ArgumentError(position: 1, message: "table expected, got \(typeName(L, 1))")
    }
    _ = try usageRows(rows, arg: 1)  // check now
    lua_createtable(L, 0, 2)
    lua_pushvalue(L, rows)
    setField(L, -2, "rows")
    push(L, "replay")
    setField(L, -2, "kind")
    setWorkloadMetatable()
    if rows != 1 { ls_remove(L, rows) }  // the rows read from the file live in the workload now
    return 1
  }

  private func setWorkloadMetatable() {
    lua_rawgeti(L, ls_registryindex(), lua_Integer(workloadMetatableRef))
    lua_setmetatable(L, -2)
  }

  /// `workload:drive(dev, { days = 7 })` (a user) or `workload:drive(dev)` (a
  /// replay). Returns what the user did: `{ switches, locks, notifications }`.
  func workloadDrive() throws -> Int32 {
    guard lua_type(L, 1) == LUA_TTABLE else {
      throw ArgumentError(position: 1, message: "workload expected (from lifesim.workload.user or lifesim.workload.replay), got \(typeName(L, 1))")
    }
    let workload = Options(L: L, index: 1, argument: 1)
    let slot = try slot(try checkHandle(2, .device).device)
    let kind = try workload.optional("kind", as: String.self)
    if kind == "replay" {
      let rows = try workload.withValue("rows") { _ in try usageRows(lua_gettop(L), arg: 1) }
      let events = try rows.enumerated().map { i, row -> UsageEvent in
        var app: AppID?
        if let bundle = row.app {
          guard let id = slot.device.app(bundle: bundle) else {
            throw ScriptError(message: "replay row \(i + 1): no app \(shownName(bundle)) is installed on this device\(suggestion(for: bundle, in: slot.device.apps.map(\.config.bundle)))")
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
    let apps: [AppID] = try workload.withValue("apps") { type in
      guard type == LUA_TTABLE else { return slot.device.apps.map(\.id) }
      let list = lua_gettop(L)
      return try (0..<Int(lua_rawlen(L, list))).map { i in
        lua_rawgeti(L, list, lua_Integer(i + 1))
        defer { ls_pop(L, 1) }
        do {
          return try checkApp(lua_gettop(L), on: slot)
        } catch let e as ArgumentError {
          throw workload.fail("apps[\(i + 1)]: \(e.message)")
        }
      }
    }
    let model = try userModel(workload, apps: apps)
    let duration = try driveDuration(3)
    let summary = try slot.device.drive(model, for: duration)
    lua_createtable(L, 0, 4)
    push(L, summary.quits); setField(L, -2, "quits")
    push(L, summary.switches); setField(L, -2, "switches")
    push(L, summary.locks); setField(L, -2, "locks")
    push(L, summary.notifications); setField(L, -2, "notifications")
    return 1
  }

  /// The user model in the option table `o`.
  private func userModel(_ o: Options, apps: [AppID]) throws -> UserModel {
    var m = UserModel(apps: apps)
    func seconds(_ key: String) throws -> SimTime? {
      guard let s = try o.optional(key, as: Double.self) else { return nil }
      guard s > 0, let time = SimTime(seconds: s), time > .zero else {
        throw o.fail("field '\(key)' must be a number of seconds > 0, got \(formatNumber(s))")
      }
      // Refused here, where the script builds the model, rather than after
      // a drive has run for hours at a microsecond's pace.
      guard time >= UserModel.shortestMean else {
        throw o.fail("field '\(key)' must be at least \(formatNumber(UserModel.shortestMean.seconds)) seconds (nobody acts faster), got \(formatNumber(s))")
      }
      return time
    }
    func number(_ key: String, in range: ClosedRange<Double>, _ what: String) throws -> Double? {
      guard let x = try o.optional(key, as: Double.self) else { return nil }
      guard range.contains(x) else {
        throw o.fail("field '\(key)' must be \(what) between \(formatNumber(range.lowerBound)) and \(formatNumber(range.upperBound)), got \(formatNumber(x))")
      }
      return x
    }
    if let z = try number("zipf", in: 0...10, "an exponent") { m.zipfExponent = z }
    if let s = try seconds("switch_every") { m.switchMean = s }
    m.sessionMean = try seconds("session")
    if let s = try seconds("idle") { m.idleMean = s }
    if let n = try number("notifications_per_hour", in: 0...3600, "a rate") { m.notificationsPerHour = n }
    if let q = try number("quits_per_hour", in: 0...3600, "a rate") { m.quitsPerHour = q }
    if let p = try number("switcher_share", in: 0...1, "a share") { m.switcherShare = p }
    return m
  }

  /// `{ days = 7, hours = …, minutes = …, seconds = … }`, added up.
  private func driveDuration(_ i: Int32) throws -> SimTime {
    guard lua_type(L, i) == LUA_TTABLE else {
      throw ArgumentError(position: 2, message: "how long to drive is required, such as { days = 7 } or { hours = 2 }")
    }
    let o = Options(L: L, index: i, argument: 2)
    try o.checkKeys(["days", "hours", "minutes", "seconds"])
    var total = 0.0
    for (key, unit) in [("days", 86_400.0), ("hours", 3600.0), ("minutes", 60.0), ("seconds", 1.0)] {
      if let v = try o.optional(key, as: Double.self) {
        guard v >= 0 else { throw o.fail("field '\(key)' must be ≥ 0, got \(formatNumber(v))") }
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
      let fields = Options(L: L, index: row, argument: arg)
      guard let s = try fields.optional("t", as: Double.self), let time = SimTime(seconds: s), time >= .zero else {
        throw fields.fail("row \(i) needs 't', the seconds since the start (≥ 0)")
      }
      let given = try fields.optional("event", as: String.self)
      guard let name = given, let kind = UsageEvent.Kind(rawValue: name) else {
        throw fields.fail("row \(i): unknown event \(shownName(given ?? "nil"))\(suggestion(for: given ?? "", in: kinds)); events: \(kinds.joined(separator: ", "))")
      }
      let app = try fields.optional("app", as: String.self).flatMap { $0.isEmpty ? nil : $0 }
      if let app, let problem = nameProblem(app) {
        throw fields.fail("row \(i): the app \(shownName(app)) \(problem)")
      }
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
    let name = try args.string(1)
    if !options.unsafe && (name.hasPrefix("/") || name.split(separator: "/").contains("..")) {
      throw ArgumentError(position: 1, message: "'\(name)': traces are read from beside the script, by a relative path without '..' (lifesim run --unsafe allows any path)")
    }
    let folder = scriptFolder
    let path = dataPath(name)
    if !options.unsafe { try checkBesideScript(path, name: name, folder: folder) }
    if let refusal = refuseReadingAnOutput(path) { throw ScriptError(message: "read_csv: " + refusal) }
    let text: String
    do {
      let bytes = try readFileBytes(path, limit: Self.maxCSVBytes)
      noteLoaded(.data, name: name, path: path, bytes: bytes)
      text = String(decoding: bytes, as: UTF8.self)
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
          throw ScriptError(message: "\(path):\(line): the header must name the columns time, app and event, got \(quoted(fields.joined(separator: ",")))")
        }
        columns = (t, a, e)
        continue
      }
      first = false
      func field(_ i: Int) -> String { i < fields.count ? fields[i] : "" }
      guard let t = Double(field(columns.time)), t.isFinite else {
        throw ScriptError(message: "\(path):\(line): the time \(quoted(field(columns.time))) is not a number of seconds")
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

extension LuaRuntime {
  /// The folder of the script (`.` when it has none): where `read_csv` reads.
  var scriptFolder: String {
    guard let script = scriptPath, let slash = script.lastIndex(of: "/") else { return "." }
    let folder = String(script[..<slash])
    return folder.isEmpty ? "/" : folder
  }

  /// The path `read_csv(name)` reads: `name` in the script's folder (or as
  /// it is when absolute, which only `--unsafe` allows).
  func dataPath(_ name: String) -> String {
    let folder = scriptFolder
    return !name.hasPrefix("/") && folder != "." ? (folder == "/" ? "" : folder) + "/" + name : name
  }

  /// The largest usage trace `read_csv` reads (64 MB): its rows become Lua
  /// tables several times its size.
  static let maxCSVBytes = 64 << 20

  /// Refuses a trace that is not a regular file inside the script's folder
  /// once every symbolic link is followed: a link beside the script may point
  /// anywhere on the machine. Nothing of a refused file is read.
  func checkBesideScript(_ path: String, name: String, folder: String) throws {
    let hint = "traces are read from beside the script (lifesim run --unsafe allows any path)"
    guard let real = realPath(path) else {
      throw ScriptError(message: "cannot read \(path): \(String(cString: strerror(errno)))")
    }
    guard let base = realPath(folder) else {
      throw ScriptError(message: "cannot read \(path): the script's folder \(folder) cannot be resolved")
    }
    let inside = base == "/" ? real.hasPrefix("/") : real.hasPrefix(base + "/")
    guard inside else {
      throw ArgumentError(position: 1, message: "'\(name)' resolves to a file outside the script's folder; \(hint)")
    }
    var info = stat()
    guard stat(real, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
      throw ArgumentError(position: 1, message: "'\(name)' is not a regular file; \(hint)")
    }
  }

  /// A piece of a read file for a message: quoted, one line, at most 60 characters.
  func quoted(_ text: String) -> String {
    var shown = String(text.unicodeScalars.prefix(60).map { $0.value < 0x20 || $0.value == 0x7f ? "?" : Character($0) })
    if text.unicodeScalars.count > 60 { shown += "…" }
    return "'\(shown)'"
  }
}

/// The path with every symbolic link, `.` and `..` resolved, or nil (errno set).
func realPath(_ path: String) -> String? {
  guard let resolved = realpath(path, nil) else { return nil }
  defer { free(resolved) }
  return String(cString: resolved)
}

extension LuaRuntime {
  /// Refuses to read one of the command's outputs (`-o`): the command would
  /// write over what the script read. Returns the message (and keeps it in
  /// `readOutput`, so that the command writes nothing), or nil.
  func refuseReadingAnOutput(_ path: String) -> String? {
    var input = stat()
    let exists = stat(path, &input) == 0
    let real = realPath(path)
    for (option, output) in options.outputs {
      var out = stat()
      let same = exists && stat(output, &out) == 0
        ? out.st_dev == input.st_dev && out.st_ino == input.st_ino
        : real != nil && real == realPath(output)
      guard same else { continue }
      let message = "\(path) is also \(option) \(output): lifesim does not write over its input; choose another file"
      if readOutput == nil { readOutput = message }
      return message
    }
    return nil
  }
}
