import CLua
import CLuaShim
import LifeSimEngine

// dev:policy{ ... }: every OS policy default can be overridden from Lua.
extension LuaRuntime {
  static let policyKeys = [
    "background_time", "expiration_lead", "watchdog", "memory_warning_at", "jetsam_at",
    "choose_victim", "reclaim_scene_mb", "background_window", "protected_data_delay",
    "layout_passes", "task_scheduler", "continued_tasks",
  ]

  /// `dev:policy{ … }` changes the named policies and keeps the others;
  /// `dev:policy()` returns the policies in force. Nothing changes unless every
  /// key is valid.
  func devPolicy() throws -> Int32 {
    let slot = try selfDevice()
    guard let o = try args.options(2, keys: Self.policyKeys) else {
      pushPolicy(slot)
      return 1
    }
    var p = slot.device.policy
    let functions = ["background_time", "choose_victim", "task_scheduler"].filter { o.type(of: $0) == LUA_TFUNCTION }

    if functions.contains("background_time") {
      p.backgroundTimeFromHost = true
    } else if let t = try o.seconds("background_time", what: "policy") {
      p.backgroundTime = t
      p.backgroundTimeFromHost = false
    }
    if let t = try o.seconds("expiration_lead", what: "policy") { p.expirationLead = t }
    if let t = try o.seconds("background_window", what: "policy") { p.backgroundLaunchTime = t }
    if let t = try o.seconds("protected_data_delay", what: "policy") { p.protectedDataDelay = t }
    try o.withTable("watchdog", keys: ["launch", "background", "terminate", "scene_update"],
                    hint: "{ launch = 20, background = 10, terminate = 5, scene_update = 10 }", what: "policy") { w in
      if let s = try w.seconds("launch", what: "policy") { p.watchdogLaunch = s }
      if let s = try w.seconds("background", what: "policy") { p.watchdogBackground = s }
      if let s = try w.seconds("terminate", what: "policy") { p.watchdogTerminate = s }
      if let s = try w.seconds("scene_update", what: "policy") { p.watchdogSceneUpdate = s }
    }

    for (key, path) in [("memory_warning_at", \Policy.memoryWarningAt), ("jetsam_at", \Policy.jetsamAt)] {
      guard let f = try o.optional(key, as: Double.self) else { continue }
      guard f > 0, f <= 1 else { throw o.fail("policy '\(key)' must be a fraction of memory in (0, 1], got \(formatNumber(f))") }
      p[keyPath: path] = f
    }
    guard p.memoryWarningAt <= p.jetsamAt else {
      throw o.fail("policy 'memory_warning_at' (\(formatNumber(p.memoryWarningAt))) must not exceed 'jetsam_at' (\(formatNumber(p.jetsamAt)))")
    }

    if functions.contains("choose_victim") {
      p.victimFromHost = true
    } else if let name = try? o.optional("choose_victim", as: String.self), let order = VictimOrder(rawValue: name) {
      p.victimFromHost = false
      p.victimOrder = order
    } else if o.has("choose_victim") {
      throw o.withValue("choose_victim") { _ in
        let got = lua_type(L, -1) == LUA_TSTRING ? "\"\(stringValue(L, -1) ?? "")\"" : describeValue(L, -1)
        return o.fail("policy 'choose_victim' must be a function(dev, candidates) or one of \"bands\", \"lru\", got \(got)")
      }
    }

    if functions.contains("task_scheduler") {
      p.taskSchedulerFromHost = true
    } else if o.has("task_scheduler") {
      // "default" puts the default scheduler back.
      guard o.withValue("task_scheduler", { $0 == LUA_TSTRING ? stringValue(L, -1) : nil }) == "default" else {
        throw o.withValue("task_scheduler") { _ in
          o.fail("policy 'task_scheduler' must be a function(dev, request) returning a delay in seconds or nil, or \"default\", got \(describeValue(L, -1))")
        }
      }
      p.taskSchedulerFromHost = false
    }

    // The most continued tasks the system runs at once; math.huge: no limit (the default).
    if let n = try o.optional("continued_tasks", as: Double.self) {
      guard n == .infinity || (n == n.rounded() && n >= 1 && n <= 1_000_000) else {
        throw o.fail("policy 'continued_tasks' must be a whole number from 1 to 1000000, or math.huge for no limit, got \(formatNumber(n))")
      }
      p.continuedTaskLimit = n == .infinity ? nil : Int(n)
      if !slot.device.profile.hasContinuedProcessing {
        slot.device.warn("dev:policy: continued_tasks limits BGContinuedProcessingTask, from iOS 26; this device runs iOS "
                         + "\(slot.device.profile.version), where it changes nothing")
      }
    }

    if let mb = try o.optional("reclaim_scene_mb", as: Double.self) {
      guard mb > 0, mb.isFinite else {
        throw o.fail("policy 'reclaim_scene_mb' must be a number of MB > 0, got \(formatNumber(mb))")
      }
      p.reclaimSceneMB = mb
    }

    // `later` is the old name of `revealed` (a view controller a pop or a dismissal reveals).
    try o.withTable("layout_passes", keys: ["first", "revealed", "later"], hint: "{ first = 2, revealed = 0 }",
                    what: "policy") { passes in
      for (key, path, least) in [("first", \Policy.layoutPassesFirst, 1.0), ("revealed", \Policy.layoutPassesRevealed, 0),
                                 ("later", \Policy.layoutPassesRevealed, 0)] {
        guard let n = try passes.optional(key, as: Double.self) else { continue }
        guard n == n.rounded(), n >= least, n <= 10 else {
          throw o.fail("policy 'layout_passes.\(key)' must be a whole number from \(Int(least)) to 10, got \(formatNumber(n))")
        }
        p[keyPath: path] = Int(n)
      }
    }

    for name in functions {
      if let old = slot.policyFunctions[name] { slot.free(old) }
      slot.policyFunctions[name] = o.withValue(name) { _ in slot.store(-1) }
    }
    slot.device.policy = p
    return 0
  }

  private func pushPolicy(_ slot: DeviceSlot) {
    let p = slot.device.policy
    lua_createtable(L, 0, 9)
    if let fn = slot.policyFunctions["background_time"], p.backgroundTimeFromHost {
      slot.pushSlot(fn)
    } else {
      push(L, p.backgroundTime.seconds)
    }
    setField(L, -2, "background_time")
    push(L, p.expirationLead.seconds); setField(L, -2, "expiration_lead")
    lua_createtable(L, 0, 3)
    push(L, p.watchdogLaunch.seconds); setField(L, -2, "launch")
    push(L, p.watchdogBackground.seconds); setField(L, -2, "background")
    push(L, p.watchdogTerminate.seconds); setField(L, -2, "terminate")
    push(L, p.watchdogSceneUpdate.seconds); setField(L, -2, "scene_update")
    setField(L, -2, "watchdog")
    push(L, p.memoryWarningAt); setField(L, -2, "memory_warning_at")
    push(L, p.jetsamAt); setField(L, -2, "jetsam_at")
    if let fn = slot.policyFunctions["choose_victim"], p.victimFromHost {
      slot.pushSlot(fn); setField(L, -2, "choose_victim")
    } else if p.victimOrder != .bands {
      push(L, p.victimOrder.rawValue); setField(L, -2, "choose_victim")
    }
    if let fn = slot.policyFunctions["task_scheduler"], p.taskSchedulerFromHost {
      slot.pushSlot(fn); setField(L, -2, "task_scheduler")
    }
    if let mb = p.reclaimSceneMB { push(L, mb); setField(L, -2, "reclaim_scene_mb") }
    if let n = p.continuedTaskLimit { push(L, n) } else { push(L, Double.infinity) }
    setField(L, -2, "continued_tasks")
    push(L, p.backgroundLaunchTime.seconds); setField(L, -2, "background_window")
    push(L, p.protectedDataDelay.seconds); setField(L, -2, "protected_data_delay")
    lua_createtable(L, 0, 2)
    push(L, p.layoutPassesFirst); setField(L, -2, "first")
    push(L, p.layoutPassesRevealed); setField(L, -2, "revealed")
    push(L, p.layoutPassesRevealed); setField(L, -2, "later")  // the old name
    setField(L, -2, "layout_passes")
  }
}
