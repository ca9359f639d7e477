import CLua
import CLuaShim
import LifeSimEngine

// The trace object: trace:callbacks, trace:records, trace:text.
extension API {
  static let traceRows: [APIRow] = [
    .method(.trace, "callbacks", "dev.trace:callbacks{ app =, since =, vc = }",
            "The selectors delivered, in order; every filter is optional.") { try $0.traceCallbacks() },
    .method(.trace, "records", "dev.trace:records{ app =, kind =, since = }",
            "The records as tables with the JSONL field names.") { try $0.traceRecords() },
    .method(.trace, "text", "dev.trace:text{ since =, format = \(TraceFormatRow.all.filter(\.queryable).map { "\"\($0.name)\"" }.joined(separator: " | ")) }", "The trace as one string.") { try $0.traceText() },
    .field(.trace, "count", "How many records the device has made.") { rt in push(rt.L, try rt.selfTrace().device.trace.count) },
    .meta(.trace, "__tostring") { try $0.traceToString() },
  ]
}

extension LuaRuntime {
  /// The filter table at argument 2: { app = …, since = …, kind = … }.
  private func traceFilter(_ slot: DeviceSlot, allowKind: Bool) throws -> (AppID?, RecordKind?, Int, String?) {
    let keys = allowKind ? ["app", "kind", "since", "vc", "view"] : ["app", "since", "vc", "view"]
    guard let o = try args.options(2, keys: keys) else { return (nil, nil, 1, nil) }
    // A view-controller or view class: only the callbacks of objects of that class.
    let objectClass = try o.optional("vc", as: String.self) ?? o.optional("view", as: String.self)
    let app: AppID? = try o.withValue("app") { type in
      if type == LUA_TNIL { return nil }
      if let bundle = String.read(L, -1) {
        guard let id = slot.device.app(bundle: bundle) else {
          let names = slot.device.apps.map(\.config.bundle)
          throw o.fail("no app \(shownName(bundle)) is installed\(suggestion(for: bundle, in: names))")
        }
        return id
      }
      guard let h = handle(-1, .app), h.device == slot.id else {
        throw o.fail("field 'app' must be an app or a bundle id, got \(typeName(L, -1))")
      }
      return AppID(Int(h.index))
    }
    var kind: RecordKind?
    if allowKind, let k = try o.optional("kind", as: String.self) {
      kind = RecordKind(name: k)
      if kind == nil {
        let names = RecordKind.allCases.map(\.description)
        throw o.fail("unknown record kind '\(k)'\(suggestion(for: k, in: names))")
      }
    }
    var since = 1
    if let s = try o.optional("since", as: Double.self) {
      guard s == s.rounded(), s >= 0, s < 1e15 else {
        throw o.fail("field 'since' must be a mark from dev:mark(), got \(s)")
      }
      since = Int(s)
    }
    return (app, kind, since, objectClass)
  }

  func selfTrace() throws -> DeviceSlot {
    try slot(try checkHandle(1, .trace).device)
  }

  /// The device of a trace that can answer queries.
  private func queryableTrace() throws -> DeviceSlot {
    let slot = try selfTrace()
    guard slot.device.trace.keepsRecords else {
      throw ScriptError(message: "this device streams its trace as it is made and keeps no records (lifesim run --stream); run without --stream to query it")
    }
    return slot
  }

  /// `trace:callbacks{ app =, since = }` → the selectors, in order.
  func traceCallbacks() throws -> Int32 {
    let slot = try queryableTrace()
    let (app, _, since, objectClass) = try traceFilter(slot, allowKind: false)
    push(L, slot.device.trace.callbacks(app: app, since: since, objectClass: objectClass))
    return 1
  }

  /// `trace:records{ app =, kind =, since = }` → tables with the JSONL field names.
  func traceRecords() throws -> Int32 {
    let slot = try queryableTrace()
    let (app, kind, since, objectClass) = try traceFilter(slot, allowKind: true)
    let trace = slot.device.trace
    let records = trace.records(app: app, kind: kind, since: since).filter { r in
      objectClass == nil || r.object.map(trace.className(of:)) == objectClass
    }
    lua_createtable(L, Int32(records.count), 0)
    for (i, r) in records.enumerated() {
      lua_createtable(L, 0, 8)
      push(L, r.time.seconds); setField(L, -2, "t")
      push(L, r.seq); setField(L, -2, "seq")
      push(L, r.kind.description); setField(L, -2, "kind")
      if let a = r.app { push(L, trace.name(of: a)); setField(L, -2, "app") }
      if let s = r.scene { push(L, Int(s)); setField(L, -2, "scene") }
      if let o = r.object {
        push(L, trace.className(of: o)); setField(L, -2, o.isView ? "view" : "vc")
        push(L, Int(o.instance)); setField(L, -2, "instance")
      }
      if let c = r.callback { push(L, c.selector); setField(L, -2, "callback") }
      if let n = r.notification {
        push(L, n.name); setField(L, -2, "callback")
        push(L, n.name); setField(L, -2, "notification")
      }
      if let h = r.handled { push(L, h); setField(L, -2, "handled") }
      if let d = r.duration { push(L, d.seconds); setField(L, -2, "duration") }
      if let f = r.fromName { push(L, f); setField(L, -2, "from") }
      if let t = r.toName { push(L, t); setField(L, -2, "to") }
      if let a = r.action { push(L, a.description); setField(L, -2, "action") }
      if let reason = r.reason { push(L, reason.description); setField(L, -2, "reason") }
      if let code = r.code { push(L, "0x" + String(code, radix: 16)); setField(L, -2, "code") }
      if r.kind == .kill, r.reason == .watchdog, let d = r.detail { push(L, d); setField(L, -2, "watchdog") }
      if let level = r.memoryLevel { push(L, level.description); setField(L, -2, "level") }
      if let used = r.usedMB { push(L, used); setField(L, -2, "used_mb") }
      if let limit = r.limitMB { push(L, limit); setField(L, -2, "limit_mb") }
      if let warning = r.warningMB { push(L, warning); setField(L, -2, "warning_mb") }
      if let jetsam = r.jetsamMB { push(L, jetsam); setField(L, -2, "jetsam_mb") }
      if let n = r.unsaved { push(L, Int(n)); setField(L, -2, "unsaved") }
      if r.kind == .expire {
        if let name = r.detail { push(L, name); setField(L, -2, "task") }
        if let id = r.task { push(L, Int(id)); setField(L, -2, "task_id") }
        if let deadline = r.deadline { push(L, deadline.seconds); setField(L, -2, "deadline") }
      }
      if let url = r.url ?? (r.action == .openURL ? r.detail : nil) { push(L, url); setField(L, -2, "url") }
      if let d = r.detail { push(L, d); setField(L, -2, "detail") }
      lua_rawseti(L, -2, lua_Integer(i + 1))
    }
    return 1
  }

  /// `trace:text{ since =, format = "text"|"jsonl" }` → the trace as one string.
  func traceText() throws -> Int32 {
    let slot = try queryableTrace()
    var since = 1
    var format = TraceFormatRow.named("text")!
    if let o = try args.options(2, keys: ["since", "format"]) {
      if let s = try o.optional("since", as: Double.self) { since = Int(max(0, min(s.isNaN ? 0 : s, 1e15))) }
      if let f = try o.optional("format", as: String.self) {
        guard let row = TraceFormatRow.named(f), row.queryable else {
          throw o.fail("unknown format '\(f)' (expected \(TraceFormatRow.list(TraceFormatRow.all.filter(\.queryable))))")
        }
        format = row
      }
    }
    push(L, format.render(slot.device.trace, since: since))
    return 1
  }


  func traceToString() throws -> Int32 {
    let slot = try selfTrace()
    push(L, "<trace: \(slot.device.trace.count) records>")
    return 1
  }
}
