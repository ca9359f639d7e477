import CLua
import CLuaShim
import LifeSimEngine

// The device object: dev:install, the actions, the clock, and its fields.
extension API {
  static let deviceRows: [APIRow] = actionRows + [
    .method(.device, "install", "dev:install{ bundle = \"com.example.notes\", scenes =, footprint_mb =, background_modes = {…}, background_tasks = {…}, background_gpu =, exits_on_suspend =, root = { class =, from = } }",
            "Installs an app and returns it. Only bundle is required.") { try $0.devInstall() },
    .method(.device, "advance", "dev:advance(seconds)", "Runs the virtual clock forward, firing everything due.") { try $0.devAdvance() },
    .method(.device, "at", "dev:at(seconds, function() … end)", "Schedules a function at an absolute virtual time.") { try $0.devSchedule(relative: false) },
    .method(.device, "after", "dev:after(seconds, function() … end)", "Schedules a function after a delay.") { try $0.devSchedule(relative: true) },
    .method(.device, "run", "dev:run()", "Runs until nothing is scheduled (bounded by --max-time).") { try $0.devSimple { try $0.run() } },
    .method(.device, "app", "dev:app(bundle)", "The installed app with that bundle id, or nil.") { try $0.devApp() },
    .method(.device, "log", "dev:log(message)", "Writes a log record into the trace.") { try $0.devLog() },
    .method(.device, "policy", "dev:policy{ background_time =, watchdog = {…}, memory_warning_at =, jetsam_at =, choose_victim = fn, task_scheduler = fn, continued_tasks = n }",
            "Changes the named OS policies and keeps the others; dev:policy() returns those in force.") { try $0.devPolicy() },

    deviceField("now", "The virtual time, in seconds.") { L, _, d in push(L, d.now.seconds) },
    deviceField("ios", "The iOS major version of the device's profile.") { L, _, d in push(L, d.profile.version) },
    deviceField("seed", "The device's seed.") { L, _, d in lua_pushinteger(L, lua_Integer(Int64(bitPattern: d.seed))) },
    deviceField("trace", "The device's trace (trace:callbacks, trace:records, trace:text).") { _, slot, _ in slot.pushSlot(slot.traceObject) },
    deviceField("apps", "The installed apps, in order of installation.") { L, slot, d in
      pushArray(L, d.apps) { slot.runtime.pushApp($0.id, on: slot) }
    },
    deviceField("frontmost", "The app on screen, or nil.") { L, slot, d in
      if let f = d.frontmost { slot.runtime.pushApp(f, on: slot) } else { lua_pushnil(L) }
    },
    deviceField("locked", "Whether the device is locked.") { L, _, d in push(L, d.isLocked) },
    deviceField("interruption", "The interruption showing (\"call\", …), or nil.") { L, _, d in
      if let i = d.interruption { push(L, i.description) } else { lua_pushnil(L) }
    },
    deviceField("switcher_open", "Whether the app switcher is showing.") { L, _, d in push(L, d.isSwitcherOpen) },
    deviceField("memory_mb", "The device's RAM in MB, or nil when memory is not modelled.") { L, _, d in
      if let m = d.memoryMB { push(L, m) } else { lua_pushnil(L) }
    },
    deviceField("per_process_limit_mb", "The per-process memory limit in MB, or nil.") { L, _, d in
      if let m = d.perProcessLimitMB { push(L, m) } else { lua_pushnil(L) }
    },
    deviceField("model", "The device model's name, or nil.") { L, _, d in
      if let m = d.model { push(L, m.name) } else { lua_pushnil(L) }
    },
    deviceField("limit_measured",
                "Whether the model's per-process limit was measured (reference §4), or is the default half of RAM; nil without a model.") { L, _, d in
      if let m = d.model { push(L, m.limitMeasured) } else { lua_pushnil(L) }
    },
    deviceField("debugger", "Whether a debugger is attached (watchdogs off).") { L, _, d in push(L, d.debugger) },
    deviceField("quirks", "The quirks the device selected.") { L, _, d in push(L, d.quirks.members.map(\.description)) },
    deviceField("profile", "The profile's facts by name (reference §7), and its version.") { L, _, d in
      let facts = d.profile.facts
      lua_createtable(L, 0, Int32(facts.count + 1))
      push(L, d.profile.version); setField(L, -2, "version")
      for fact in facts {
        switch fact.value {
        case .bool(let b): push(L, b)
        case .number(let x) where x == x.rounded() && abs(x) < 1e15: push(L, Int(x))
        case .number(let x): push(L, x)
        case .text(let t): push(L, t)
        }
        setField(L, -2, fact.name)
      }
    },
    deviceField("passcode", "Whether the device has a passcode (protected data).") { L, _, d in push(L, d.passcode) },
    deviceField("background_gpu", "Whether BGTaskScheduler.supportedResources holds .gpu (iOS 26): the model's fact (the iPads), or lifesim.device{ background_gpu = }.") { L, _, d in
      push(L, d.profile.hasContinuedProcessing && d.taskConditions.backgroundGPU)
    },
    deviceField("memory_used_mb", "The memory the running processes use, in MB.") { L, _, d in push(L, d.memoryUsedMB) },
    deviceField("memory_level", "\"normal\", \"warning\" or \"critical\".") { L, _, d in push(L, d.memoryLevel.description) },
    // Read in C (`ls_set_stats_field`, with `StatsTable.counters` below): this
    // closure runs only where that path gives way.
    deviceField("stats", "Counters kept with the trace on or off: opens, cold_opens, jetsam_kills, kills by reason, tasks (BGTaskScheduler), …") { L, _, d in
      lua_getiuservalue(L, 1, 2)
      StatsTable.push(d.stats, on: L)
    },
    deviceField("records_trace", "Whether the device keeps a trace (trace = false turns it off).") { L, _, d in push(L, d.recordsTrace) },

    .meta(.device, "__tostring") { try $0.devToString() },
  ]

  /// A method per action of the table made on the device: `run` with the
  /// row's arguments, or, for an action that reads options too, its reader
  /// below. A row needs nothing here unless it reads more than an app.
  static let actionRows: [APIRow] = ActionRow.table.filter { $0.target == .device }.map { row in
    if let (usage, body) = actionReaders[row.action] {
      return .method(.device, row.name, usage, row.action == .mark ? "A position in the trace, for since = m filters." : row.summary, body)
    }
    guard row.reads == .exactly, let run = row.run else {
      preconditionFailure("the action '\(row.name)' reads options but has no reader in API.actionReaders")
    }
    switch row.arguments {
    case .none:
      return .method(.device, row.name, "dev:\(row.name)()", row.summary) { rt in
        try run(try rt.selfDevice().device, nil)
        return 0
      }
    case .app:
      return .method(.device, row.name, "dev:\(row.name)(app)", row.summary) { rt in
        let slot = try rt.selfDevice()
        try run(slot.device, try rt.checkApp(2, on: slot))
        return 0
      }
    }
  }

  /// The device actions that read more than an app: their usage and reader.
  static let actionReaders: [DeviceAction: (String, (LuaRuntime) throws -> Int32)] = [
    .launch: ("dev:launch(app [, { url = \"…\" }])", { try $0.devLaunch() }),
    .openURL: ("dev:open_url(app, url)", { try $0.devOpenURL() }),
    .interrupt: ("dev:interrupt(\"call\" [, { style = \"banner\" | \"full_screen\" }] | \"alert\" | \"control_center\" | \"notification_center\" | \"notification_center_peek\" | \"siri\")",
                 { try $0.devInterrupt() }),
    .endInterrupt: ("dev:end_interrupt([{ accept = true }])", { try $0.devEndInterrupt() }),
    .openNotification: ("dev:open_notification(app [, { remote = true }])", { rt in
      try rt.devNotification { try $0.openNotification($1, remote: $2) }
    }),
    .notify: ("dev:notify(app [, { remote = true }])", { rt in try rt.devNotification { try $0.notify($1, remote: $2) } }),
    .mark: ("local m = dev:mark()", { try $0.devMark() }),
    .runIntent: ("dev:run_intent(app, { name = \"…\", opens_app = false })", { try $0.devRunIntent() }),
    .runTask: ("dev:run_task(app, id)", { rt in
      let slot = try rt.selfDevice()
      try slot.device.runTask(try rt.checkApp(2, on: slot), identifier: try rt.args.name(3, "the task identifier"))
      return 0
    }),
    .expireTask: ("dev:expire_task(app, id)", { rt in
      let slot = try rt.selfDevice()
      try slot.device.expireTask(try rt.checkApp(2, on: slot), identifier: try rt.args.name(3, "the task identifier"))
      return 0
    }),
    .cancelTask: ("dev:cancel_task(app, id)", { rt in
      let slot = try rt.selfDevice()
      try slot.device.cancelContinuedTask(try rt.checkApp(2, on: slot), identifier: try rt.args.name(3, "the task identifier"))
      return 0
    }),
    .charging: ("dev:charging(true | false)", { rt in
      try rt.selfDevice().device.setCharging(try rt.args.value(2, as: Bool.self))
      return 0
    }),
    .network: ("dev:network(true | false)", { rt in
      try rt.selfDevice().device.setNetwork(try rt.args.value(2, as: Bool.self))
      return 0
    }),
    .backgroundRefresh: ("dev:background_refresh([app,] true | false)", { rt in
      let slot = try rt.selfDevice()
      let t = lua_type(rt.L, 2)
      if t != LUA_TBOOLEAN && t != LUA_TSTRING && t != LUA_TUSERDATA && t != LUA_TTABLE {
        throw ArgumentError(position: 2, message: "true, false or an app expected, got \(typeName(rt.L, 2))")
      }
      if t == LUA_TBOOLEAN {
        if !rt.args.isAbsent(3) {
          throw ArgumentError(position: 3, message: "no value expected, got \(typeName(rt.L, 3)); usage: dev:background_refresh([app,] true | false)")
        }
        try slot.device.setBackgroundRefresh(nil, try rt.args.value(2, as: Bool.self))
      } else {
        try slot.device.setBackgroundRefresh(try rt.checkApp(2, on: slot), try rt.args.value(3, as: Bool.self))
      }
      return 0
    }),
    .lowPowerMode: ("dev:low_power_mode(true | false)", { rt in
      try rt.selfDevice().device.setLowPowerMode(try rt.args.value(2, as: Bool.self))
      return 0
    }),
  ]

  private static func deviceField(_ name: String, _ summary: String,
                                  _ get: @escaping (LuaState, DeviceSlot, Device) throws -> Void) -> APIRow {
    .field(.device, name, summary) { rt in
      let slot = try rt.selfDevice()
      try get(rt.L, slot, slot.device)
    }
  }
}

extension LuaRuntime {
  /// The device at argument 1 (self).
  func selfDevice() throws -> DeviceSlot {
    try slot(try checkHandle(1, .device).device)
  }

  /// An app argument: an app object of this device, or a bundle id string.
  func checkApp(_ i: Int32, on slot: DeviceSlot) throws -> AppID {
    if let bundle = String.read(L, i) {
      guard let id = slot.device.app(bundle: bundle) else {
        let names = slot.device.apps.map(\.config.bundle)
        throw ArgumentError(position: i, message: "no app \(shownName(bundle)) is installed\(suggestion(for: bundle, in: names))")
      }
      return id
    }
    let h = try checkHandle(i, .app)
    guard h.device == slot.id else {
      throw ArgumentError(position: i, message: "the app belongs to another device")
    }
    return AppID(Int(h.index))
  }

  /// Pushes the app object of an app (stack effect: +1).
  func pushApp(_ id: AppID, on slot: DeviceSlot) {
    withBalancedStack(L, pushing: 1) {
      slot.pushSlot(slot.appObjects[Int(id.index)])
    }
  }

  static let installKeys = ["bundle", "scenes", "footprint_mb", "background_modes", "background_tasks", "background_gpu",
                            "exits_on_suspend", "root"]
  static let backgroundModes = [
    "audio", "location", "voip", "fetch", "remote-notification", "processing", "bluetooth-central",
    "bluetooth-peripheral", "external-accessory", "nearby-interaction", "network-authentication", "push-to-talk",
    "newsstand-content",
  ]

  /// `dev:install{ bundle = "…", scenes = true, footprint_mb = 150, … }`
  func devInstall() throws -> Int32 {
    let slot = try selfDevice()
    let o = try args.table(2, keys: Self.installKeys)
    let bundle = try o.requiredName("bundle", hint: "a bundle id such as \"com.example.notes\"")
    guard !bundle.isEmpty else { throw o.fail("field 'bundle' must not be empty") }
    let root: ObjectSpec? = try o.withValue("root") { type in
      type == LUA_TNIL ? nil : try readSpec(-1, arg: 2, on: slot, isView: false)
    }
    let modes = try o.strings("background_modes") ?? []
    for m in modes where !Self.backgroundModes.contains(m) {
      throw o.fail("unknown background mode '\(m)'\(suggestion(for: m, in: Self.backgroundModes))")
    }
    let tasks = try o.strings("background_tasks") ?? []
    var seen = Set<String>()
    for t in tasks where t.isEmpty || !seen.insert(t).inserted {
      throw o.fail(t.isEmpty ? "field 'background_tasks' has an empty identifier" : "field 'background_tasks' lists '\(t)' twice")
    }
    let footprint = try o.optional("footprint_mb", as: Double.self) ?? 100
    guard footprint >= 0, footprint.isFinite else {
      throw o.fail("field 'footprint_mb' must be a number ≥ 0, got \(footprint)")
    }
    var config = AppConfig(
      bundle: bundle,
      scenes: try o.optional("scenes"),
      exitsOnSuspend: try o.optional("exits_on_suspend") ?? false,
      backgroundModes: modes,
      footprintMB: footprint,
      root: root)
    config.backgroundTasks = tasks
    config.backgroundGPU = try o.optional("background_gpu") ?? false
    let id = try slot.device.install(config)
    if config.backgroundGPU && !slot.device.profile.hasContinuedProcessing {
      slot.device.warn("dev:install: background_gpu is Background GPU Access for BGContinuedProcessingTask, from iOS 26; this device "
                       + "runs iOS \(slot.device.profile.version), where it changes nothing", app: id)
    }
    lua_pushvalue(L, 1)  // the app keeps its device alive
    pushObject(Handle(kind: ObjectKind.app.rawValue, device: slot.id, index: id.index, extra: 0), userValue: true)
    slot.appObjects.append(slot.store(-1))
    slot.sceneObjects.append([:])
    slot.functions.append(AppFunctions())
    return 1
  }

  /// `dev:launch(app [, { url = "…" }])`
  func devLaunch() throws -> Int32 {
    let slot = try selfDevice()
    let id = try checkApp(2, on: slot)
    let url = try args.options(3, keys: ["url"])?.name("url")
    try slot.device.launch(id, url: url)
    return 0
  }

  /// `dev:open_url(app, url)`
  func devOpenURL() throws -> Int32 {
    let slot = try selfDevice()
    let id = try checkApp(2, on: slot)
    try slot.device.openURL(id, url: try args.name(3, "the URL"))
    return 0
  }

  /// An action that takes no argument.
  func devSimple(_ action: (Device) throws -> Void) throws -> Int32 {
    try action(try selfDevice().device)
    return 0
  }

  /// `dev:open_notification(app [, { remote = true }])` and `dev:notify(…)`.
  func devNotification(_ action: (Device, AppID, Bool) throws -> Void) throws -> Int32 {
    let slot = try selfDevice()
    let app = try checkApp(2, on: slot)
    let remote = try args.options(3, keys: ["remote"])?.optional("remote", as: Bool.self) ?? false
    try action(slot.device, app, remote)
    return 0
  }

  /// `dev:interrupt("call" | "alert" | "control_center" | "notification_center" | "siri")`
  func devInterrupt() throws -> Int32 {
    let slot = try selfDevice()
    let name = try args.string(2)
    guard let kind = Interruption(name: name) else {
      let names = Interruption.allCases.map(\.description)
      throw ArgumentError(position: 2, message: "unknown interruption '\(name)'\(suggestion(for: name, in: names)); expected one of \(names.joined(separator: ", "))")
    }
    var style: CallStyle?
    if let o = try args.options(3, keys: ["style"]), let name = try o.optional("style", as: String.self) {
      guard kind == .call else { throw o.fail("only a call has a style") }
      guard let s = CallStyle(rawValue: name) else {
        throw o.fail("field 'style' must be \"banner\" or \"full_screen\", got \"\(name)\"")
      }
      style = s
    }
    try slot.device.interrupt(kind, callStyle: style)
    return 0
  }

  /// `dev:end_interrupt([{ accept = true }])`: accepting a call sends the app to the background.
  func devEndInterrupt() throws -> Int32 {
    let slot = try selfDevice()
    let accept = try args.options(2, keys: ["accept"])?.optional("accept", as: Bool.self) ?? false
    try slot.device.endInterrupt(accept: accept)
    return 0
  }

  /// `dev:advance(seconds)`
  func devAdvance() throws -> Int32 {
    let slot = try selfDevice()
    try slot.device.advance(by: try args.seconds(2))
    return 0
  }

  /// `dev:at(t, fn)` (absolute) or `dev:after(s, fn)` (relative).
  func devSchedule(relative: Bool) throws -> Int32 {
    let slot = try selfDevice()
    let t = try args.seconds(2)
    try args.function(3)
    let token = HostToken(Int(slot.store(3)))
    if relative {
      do {
        try slot.device.schedule(token, after: t)
      } catch {
        slot.free(Int32(token.rawValue))
        throw error
      }
    } else {
      slot.device.schedule(token, at: t)
    }
    return 0
  }

  /// `dev:mark()`: a position in the trace for `since` filters.
  func devMark() throws -> Int32 {
    push(L, try selfDevice().device.mark())
    return 1
  }

  /// `dev:app(bundle)`: the app object, or nil.
  func devApp() throws -> Int32 {
    let slot = try selfDevice()
    let bundle = try args.string(2)
    guard let id = slot.device.app(bundle: bundle) else {
      lua_pushnil(L)
      return 1
    }
    pushApp(id, on: slot)
    return 1
  }

  /// `dev:log(message)`: a `log` record in the trace.
  func devLog() throws -> Int32 {
    let slot = try selfDevice()
    slot.device.log(try args.text(2))
    try slot.device.checkTrace()
    return 0
  }

  func devToString() throws -> Int32 {
    let slot = try selfDevice()
    let d = slot.device
    push(L, "<device iOS \(d.profile.version), \(d.apps.count) app\(d.apps.count == 1 ? "" : "s"), t=\(d.now)>")
    return 1
  }

  /// `__gc` of a device: Swift lets go of it. Never raises, never calls Lua.
  func devGC() -> Int32 {
    if let h = handle(1, .device) { devices[h.device] = nil }
    return 0
  }
}

/// `dev.stats`: the device's counters as a table, made in one C call with
/// keys made once (`ls_push_counters`), because invariants read it after
/// every step of a search; the same table while no counter changes and the
/// script has not written to it.
enum StatsTable {
  /// The counters' keys, then the kills table's, then its reasons'.
  static let keys: [String] = ["opens", "cold_opens", "jetsam_kills", "data_loss", "unsaved_lost", "memory_warnings",
                               "kills"] + KillReason.allCases.map(\.description) + ["tasks"] + taskKeys
  static let counters = 6
  /// BGTaskScheduler's counters (reference §3.5), the table `dev.stats.tasks`:
  /// a table of its own, which most scripts never change, so that a search
  /// does not build it again at every step.
  static let taskKeys = ["submitted", "run", "completed", "expired", "delay"]

  /// Writes the counters in the order of `keys` (the kills by
  /// `KillReason.rawValue`) and returns how many, or -1 if `capacity` is too small.
  static func write(_ st: DeviceStats, into v: UnsafeMutablePointer<lua_Integer>, capacity: Int) -> Int32 {
    let kills = st.killsByReason.count
    let n = counters + kills + taskKeys.count
    guard n <= capacity else { return -1 }
    v[0] = lua_Integer(st.opens)
    v[1] = lua_Integer(st.coldOpens)
    v[2] = lua_Integer(st.jetsamKills)
    v[3] = lua_Integer(st.dataLossEvents)
    v[4] = lua_Integer(st.unsavedLost)
    v[5] = lua_Integer(st.memoryWarnings)
    for (i, k) in st.killsByReason.enumerated() { v[counters + i] = lua_Integer(k) }
    let t = counters + kills
    v[t] = lua_Integer(st.tasksSubmitted)
    v[t + 1] = lua_Integer(st.tasksRun)
    v[t + 2] = lua_Integer(st.tasksCompleted)
    v[t + 3] = lua_Integer(st.tasksExpired)
    // Whole seconds: the counters are integers, and an experiment's delays are minutes to hours.
    v[t + 4] = lua_Integer(st.taskDelay.microseconds / 1_000_000)
    return Int32(n)
  }

  /// Replaces the device's stats cache at the top of the stack with its `dev.stats`.
  static func push(_ st: DeviceStats, on L: LuaState) {
    let capacity = counters + st.killsByReason.count + taskKeys.count
    withUnsafeTemporaryAllocation(of: lua_Integer.self, capacity: capacity) { v in
      ls_push_counters(L, v.baseAddress, write(st, into: v.baseAddress!, capacity: capacity))
    }
  }
}

/// The counters for `dev.stats` read in C (`ls_set_counters`): the handle is
/// the device userdata's bytes. It reads the engine only, and does not retain
/// the runtime (as `lifesimDispatch`).
let lifesimCounters: ls_counters_fn = { host, handle, out, capacity in
  guard let host, let handle, let out else { return -1 }
  return Unmanaged<LuaRuntime>.fromOpaque(host)._withUnsafeGuaranteedRef { rt in
    guard let slot = rt.devices[handle.load(as: Handle.self).device] else { return -1 }
    return StatsTable.write(slot.device.statsNow, into: out, capacity: Int(capacity))
  }
}
