import CLua
import CLuaShim
import LifeSimEngine

// dev:policy{ ... }: every OS policy default can be overridden from Lua (SPEC §2).
extension LuaRuntime {
  static let policyKeys = [
    "background_time", "expiration_lead", "watchdog", "memory_warning_at", "jetsam_at",
    "choose_victim", "reclaim_scene_mb", "background_window", "protected_data_delay",
    "layout_passes",
  ]

  /// `dev:policy{ … }` changes the named policies and keeps the others;
  /// `dev:policy()` returns the policies in force.
  func devPolicy() throws -> Int32 {
    let slot = try selfDevice()
    if isNoneOrNil(L, 2) {
      pushPolicy(slot)
      return 1
    }
    try checkTable(L, 2)
    try checkKeys(L, 2, allowed: Self.policyKeys, arg: 2)
    var p = slot.device.policy
    var functions: [String] = []  // stored only once everything is valid

    switch rawField(L, 2, "background_time") {
    case LUA_TNIL: ls_pop(L, 1)
    case LUA_TFUNCTION:
      functions.append("background_time")
      ls_pop(L, 1)
      p.backgroundTimeFromHost = true
    default:
      ls_pop(L, 1)
      if let t = try seconds("background_time", in: 2) {
        p.backgroundTime = t
        p.backgroundTimeFromHost = false
      }
    }
    if let t = try seconds("expiration_lead", in: 2) { p.expirationLead = t }
    if let t = try seconds("background_window", in: 2) { p.backgroundWindow = t }
    if let t = try seconds("protected_data_delay", in: 2) { p.protectedDataDelay = t }

    if rawField(L, 2, "watchdog") != LUA_TNIL {
      guard lua_type(L, -1) == LUA_TTABLE else {
        defer { ls_pop(L, 1) }
        throw ArgumentError(position: 2, message: "policy 'watchdog' must be a table such as { launch = 20, background = 10, terminate = 5 }, got \(typeName(L, -1))")
      }
      let t = lua_gettop(L)
      try checkKeys(L, t, allowed: ["launch", "background", "terminate"], arg: 2)
      if let s = try seconds("launch", in: t, prefix: "watchdog.") { p.watchdogLaunch = s }
      if let s = try seconds("background", in: t, prefix: "watchdog.") { p.watchdogBackground = s }
      if let s = try seconds("terminate", in: t, prefix: "watchdog.") { p.watchdogTerminate = s }
    }
    ls_pop(L, 1)

    if let f = try fraction("memory_warning_at") { p.memoryWarningAt = f }
    if let f = try fraction("jetsam_at") { p.jetsamAt = f }
    guard p.memoryWarningAt <= p.jetsamAt else {
      throw ArgumentError(position: 2, message: "policy 'memory_warning_at' (\(formatNumber(p.memoryWarningAt))) must not exceed 'jetsam_at' (\(formatNumber(p.jetsamAt)))")
    }

    switch rawField(L, 2, "choose_victim") {
    case LUA_TNIL: break
    case LUA_TFUNCTION:
      functions.append("choose_victim")
      p.victimFromHost = true
    default:
      defer { ls_pop(L, 1) }
      throw ArgumentError(position: 2, message: "policy 'choose_victim' must be a function(dev, candidates), got \(typeName(L, -1))")
    }
    ls_pop(L, 1)

    if let mb = try fieldNumber(L, 2, "reclaim_scene_mb", arg: 2) {
      guard mb > 0, mb.isFinite else {
        throw ArgumentError(position: 2, message: "policy 'reclaim_scene_mb' must be a number of MB > 0, got \(formatNumber(mb))")
      }
      p.reclaimSceneMB = mb
    }

    if rawField(L, 2, "layout_passes") != LUA_TNIL {
      guard lua_type(L, -1) == LUA_TTABLE else {
        defer { ls_pop(L, 1) }
        throw ArgumentError(position: 2, message: "policy 'layout_passes' must be a table such as { first = 2, later = 1 }, got \(typeName(L, -1))")
      }
      let t = lua_gettop(L)
      try checkKeys(L, t, allowed: ["first", "later"], arg: 2)
      for (key, path) in [("first", \Policy.layoutPassesFirst), ("later", \Policy.layoutPassesLater)] {
        guard let n = try fieldNumber(L, t, key, arg: 2) else { continue }
        guard n == n.rounded(), n >= 1, n <= 10 else {
          throw ArgumentError(position: 2, message: "policy 'layout_passes.\(key)' must be a whole number from 1 to 10, got \(formatNumber(n))")
        }
        p[keyPath: path] = Int(n)
      }
    }
    ls_pop(L, 1)

    for name in functions {
      if let old = slot.policyFunctions[name] { slot.free(old) }
      _ = rawField(L, 2, name)
      slot.policyFunctions[name] = slot.store(-1)
      ls_pop(L, 1)
    }
    slot.device.policy = p
    return 0
  }

  /// A policy in seconds: a number ≥ 0.
  private func seconds(_ key: String, in t: Int32, prefix: String = "") throws -> SimTime? {
    guard let s = try fieldNumber(L, t, key, arg: 2) else { return nil }
    guard s >= 0, let time = SimTime(seconds: s) else {
      throw ArgumentError(position: 2, message: "policy '\(prefix)\(key)' must be a number of seconds ≥ 0, got \(formatNumber(s))")
    }
    return time
  }

  /// A policy that is a fraction of RAM, in (0, 1].
  private func fraction(_ key: String) throws -> Double? {
    guard let f = try fieldNumber(L, 2, key, arg: 2) else { return nil }
    guard f > 0, f <= 1 else {
      throw ArgumentError(position: 2, message: "policy '\(key)' must be a fraction of memory in (0, 1], got \(formatNumber(f))")
    }
    return f
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
    setField(L, -2, "watchdog")
    push(L, p.memoryWarningAt); setField(L, -2, "memory_warning_at")
    push(L, p.jetsamAt); setField(L, -2, "jetsam_at")
    if let fn = slot.policyFunctions["choose_victim"], p.victimFromHost { slot.pushSlot(fn); setField(L, -2, "choose_victim") }
    if let mb = p.reclaimSceneMB { push(L, mb); setField(L, -2, "reclaim_scene_mb") }
    push(L, p.backgroundWindow.seconds); setField(L, -2, "background_window")
    push(L, p.protectedDataDelay.seconds); setField(L, -2, "protected_data_delay")
    lua_createtable(L, 0, 2)
    push(L, p.layoutPassesFirst); setField(L, -2, "first")
    push(L, p.layoutPassesLater); setField(L, -2, "later")
    setField(L, -2, "layout_passes")
  }
}
