import CLua
import CLuaShim
import LifeSimEngine

// The device object: dev:install, the actions, the clock, and its fields.
extension LuaRuntime {
  /// The device at argument 1 (self).
  func selfDevice() throws -> DeviceSlot {
    try slot(try checkHandle(1, .device).device)
  }

  /// An app argument: an app object of this device, or a bundle id string.
  func checkApp(_ i: Int32, on slot: DeviceSlot) throws -> AppID {
    if let bundle = stringValue(L, i) {
      guard let id = slot.device.app(bundle: bundle) else {
        let names = slot.device.apps.map(\.config.bundle)
        throw ArgumentError(position: i, message: "no app '\(bundle)' is installed\(suggestion(for: bundle, in: names))")
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
    slot.pushSlot(slot.appObjects[Int(id.index)])
  }

  /// `dev:install{ bundle = "…", scenes = true, footprint_mb = 150, … }`
  func devInstall() throws -> Int32 {
    let slot = try selfDevice()
    try checkTable(L, 2)
    try checkKeys(L, 2, allowed: ["bundle", "scenes", "footprint_mb", "background_modes", "exits_on_suspend", "root"], arg: 2)
    guard let bundle = try fieldString(L, 2, "bundle", arg: 2), !bundle.isEmpty else {
      throw ArgumentError(position: 2, message: "field 'bundle' (a bundle id such as \"com.example.notes\") is required")
    }
    var root: ObjectSpec?
    if rawField(L, 2, "root") != LUA_TNIL {
      defer { ls_pop(L, 1) }
      root = try readSpec(-1, arg: 2, on: slot, isView: false)
    } else {
      ls_pop(L, 1)
    }
    let modes = try fieldStrings(L, 2, "background_modes", arg: 2) ?? []
    let known = ["audio", "location", "voip", "fetch", "remote-notification", "processing",
                 "bluetooth-central", "bluetooth-peripheral", "external-accessory",
                 "nearby-interaction", "network-authentication", "push-to-talk", "newsstand-content"]
    for m in modes where !known.contains(m) {
      throw ArgumentError(position: 2, message: "unknown background mode '\(m)'\(suggestion(for: m, in: known))")
    }
    let footprint = try fieldNumber(L, 2, "footprint_mb", arg: 2) ?? 100
    guard footprint >= 0, footprint.isFinite else {
      throw ArgumentError(position: 2, message: "field 'footprint_mb' must be a number ≥ 0, got \(footprint)")
    }
    let config = AppConfig(
      bundle: bundle,
      scenes: try fieldBool(L, 2, "scenes", arg: 2),
      exitsOnSuspend: try fieldBool(L, 2, "exits_on_suspend", arg: 2) ?? false,
      backgroundModes: modes,
      footprintMB: footprint,
      root: root)
    let id = try slot.device.install(config)
    lua_pushvalue(L, 1)  // the app keeps its device alive
    pushObject(Handle(kind: ObjectKind.app.rawValue, device: slot.id, index: id.index, extra: 0), userValue: true)
    slot.appObjects.append(slot.store(-1))
    slot.sceneObjects.append([:])
    slot.handlers.append([:])
    slot.wildcard.append(nil)
    slot.observers.append([:])
    return 1
  }

  /// `dev:launch(app [, { url = "…" }])`
  func devLaunch() throws -> Int32 {
    let slot = try selfDevice()
    let id = try checkApp(2, on: slot)
    var url: String?
    if !isNoneOrNil(L, 3) {
      try checkTable(L, 3)
      try checkKeys(L, 3, allowed: ["url"], arg: 3)
      url = try fieldString(L, 3, "url", arg: 3)
    }
    try slot.device.launch(id, url: url)
    return 0
  }

  /// `dev:open_url(app, url)`
  func devOpenURL() throws -> Int32 {
    let slot = try selfDevice()
    let id = try checkApp(2, on: slot)
    try slot.device.openURL(id, url: try checkString(L, 3))
    return 0
  }

  /// An action that takes no argument.
  func devSimple(_ action: (Device) throws -> Void) throws -> Int32 {
    try action(try selfDevice().device)
    return 0
  }

  /// An action on one app.
  func devWithApp(_ action: (Device, AppID) throws -> Void) throws -> Int32 {
    let slot = try selfDevice()
    try action(slot.device, try checkApp(2, on: slot))
    return 0
  }

  /// `dev:interrupt("call" | "alert" | "control_center" | "notification_center" | "siri")`
  func devInterrupt() throws -> Int32 {
    let slot = try selfDevice()
    let name = try checkString(L, 2)
    guard let kind = Interruption(name: name) else {
      let names = Interruption.allCases.map(\.description)
      throw ArgumentError(position: 2, message: "unknown interruption '\(name)'\(suggestion(for: name, in: names)); expected one of \(names.joined(separator: ", "))")
    }
    try slot.device.interrupt(kind)
    return 0
  }

  /// `dev:end_interrupt([{ accept = true }])`: accepting a call sends the app to the background.
  func devEndInterrupt() throws -> Int32 {
    let slot = try selfDevice()
    var accept = false
    if !isNoneOrNil(L, 2) {
      try checkTable(L, 2)
      try checkKeys(L, 2, allowed: ["accept"], arg: 2)
      accept = try fieldBool(L, 2, "accept", arg: 2) ?? false
    }
    try slot.device.endInterrupt(accept: accept)
    return 0
  }

  /// `dev:advance(seconds)`
  func devAdvance() throws -> Int32 {
    let slot = try selfDevice()
    try slot.device.advance(by: try checkSeconds(L, 2))
    return 0
  }

  /// `dev:at(t, fn)` (absolute) or `dev:after(s, fn)` (relative).
  func devSchedule(relative: Bool) throws -> Int32 {
    let slot = try selfDevice()
    let t = try checkSeconds(L, 2)
    try checkFunction(L, 3)
    let token = HostToken(Int(slot.store(3)))
    slot.device.schedule(token, at: relative ? slot.device.now + t : t)
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
    let bundle = try checkString(L, 2)
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
    slot.device.log(try checkString(L, 2))
    return 0
  }

  func devIndex() throws -> Int32 {
    let slot = try selfDevice()
    let d = slot.device
    switch stringValue(L, 2) {
    case "now": push(L, d.now.seconds)
    case "ios": push(L, d.profile.version)
    case "seed": lua_pushinteger(L, lua_Integer(Int64(bitPattern: d.seed)))
    case "trace": slot.pushSlot(slot.traceObject)
    case "apps":
      lua_createtable(L, Int32(d.apps.count), 0)
      for app in d.apps {
        pushApp(app.id, on: slot)
        lua_rawseti(L, -2, lua_Integer(app.id.index + 1))
      }
    case "frontmost":
      if let f = d.frontmost { pushApp(f, on: slot) } else { lua_pushnil(L) }
    case "locked": push(L, d.isLocked)
    case "interruption":
      if let i = d.interruption { push(L, i.description) } else { lua_pushnil(L) }
    case "switcher_open": push(L, d.isSwitcherOpen)
    case "memory_mb":
      if let m = d.memoryMB { push(L, m) } else { lua_pushnil(L) }
    case "per_process_limit_mb":
      if let m = d.perProcessLimitMB { push(L, m) } else { lua_pushnil(L) }
    case "model":
      if let m = d.model { push(L, m.name) } else { lua_pushnil(L) }
    case "debugger": push(L, d.debugger)
    case "quirks": push(L, d.quirks.members.map(\.description))
    case "passcode": push(L, d.passcode)
    case "memory_used_mb": push(L, d.memoryUsedMB)
    case "memory_level": push(L, d.memoryLevel.description)
    case "records_trace": push(L, d.recordsTrace)
    case "stats":
      // Counters kept with the trace on or off (SPEC §2 dev.stats).
      let st = d.stats
      lua_createtable(L, 0, 8)
      push(L, st.opens); setField(L, -2, "opens")
      push(L, st.coldOpens); setField(L, -2, "cold_opens")
      push(L, st.jetsamKills); setField(L, -2, "jetsam_kills")
      push(L, st.dataLossEvents); setField(L, -2, "data_loss")
      push(L, st.unsavedLost); setField(L, -2, "unsaved_lost")
      push(L, st.memoryWarnings); setField(L, -2, "memory_warnings")
      lua_createtable(L, 0, Int32(KillReason.allCases.count))
      for reason in KillReason.allCases {
        push(L, st.kills(reason)); setField(L, -2, reason.description)
      }
      setField(L, -2, "kills")
    case "profile":
      // The profile's facts, by name (reference §7): dev.profile.default_modal_style
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
    default: throw unknownField(.device)
    }
    return 1
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
