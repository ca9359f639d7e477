import CLua
import CLuaShim
import LifeSimEngine

// The trace object: trace:callbacks, trace:records, trace:text.
extension LuaRuntime {
  /// The filter table at argument 2: { app = …, since = …, kind = … }.
  private func traceFilter(_ slot: DeviceSlot, allowKind: Bool) throws -> (AppID?, RecordKind?, Int, String?) {
    guard !isNoneOrNil(L, 2) else { return (nil, nil, 1, nil) }
    try checkTable(L, 2)
    try checkKeys(L, 2, allowed: allowKind ? ["app", "kind", "since", "vc", "view"] : ["app", "since", "vc", "view"], arg: 2)
    // A view-controller or view class: only the callbacks of objects of that class.
    let objectClass = try fieldString(L, 2, "vc", arg: 2) ?? fieldString(L, 2, "view", arg: 2)
    var app: AppID?
    if rawField(L, 2, "app") != LUA_TNIL {
      if let bundle = stringValue(L, -1) {
        app = slot.device.app(bundle: bundle)
        if app == nil {
          ls_pop(L, 1)
          let names = slot.device.apps.map(\.config.bundle)
          throw ArgumentError(position: 2, message: "no app '\(bundle)' is installed\(suggestion(for: bundle, in: names))")
        }
      } else if let h = handle(-1, .app), h.device == slot.id {
        app = AppID(Int(h.index))
      } else {
        let got = typeName(L, -1)
        ls_pop(L, 1)
        throw ArgumentError(position: 2, message: "field 'app' must be an app or a bundle id, got \(got)")
      }
    }
    ls_pop(L, 1)
    var kind: RecordKind?
    if allowKind, let k = try fieldString(L, 2, "kind", arg: 2) {
      kind = RecordKind(name: k)
      if kind == nil {
        let names = RecordKind.allCases.map(\.description)
        throw ArgumentError(position: 2, message: "unknown record kind '\(k)'\(suggestion(for: k, in: names))")
      }
    }
    var since = 1
    if let s = try fieldNumber(L, 2, "since", arg: 2) {
      guard s == s.rounded(), s >= 0, s < 1e15 else {
        throw ArgumentError(position: 2, message: "field 'since' must be a mark from dev:mark(), got \(s)")
      }
      since = Int(s)
    }
    return (app, kind, since, objectClass)
  }

  private func selfTrace() throws -> DeviceSlot {
    try slot(try checkHandle(1, .trace).device)
  }

  /// `trace:callbacks{ app =, since = }` → the selectors, in order.
  func traceCallbacks() throws -> Int32 {
    let slot = try selfTrace()
    let (app, _, since, objectClass) = try traceFilter(slot, allowKind: false)
    push(L, slot.device.trace.callbacks(app: app, since: since, objectClass: objectClass))
    return 1
  }

  /// `trace:records{ app =, kind =, since = }` → tables with the JSONL field names.
  func traceRecords() throws -> Int32 {
    let slot = try selfTrace()
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
      if let n = r.notification { push(L, n.name); setField(L, -2, "callback") }
      if let h = r.handled { push(L, h); setField(L, -2, "handled") }
      if let f = r.fromName { push(L, f); setField(L, -2, "from") }
      if let t = r.toName { push(L, t); setField(L, -2, "to") }
      if let a = r.action { push(L, a.description); setField(L, -2, "action") }
      if let reason = r.reason { push(L, reason.description); setField(L, -2, "reason") }
      if let code = r.code { push(L, "0x" + String(code, radix: 16)); setField(L, -2, "code") }
      if let d = r.detail { push(L, d); setField(L, -2, "detail") }
      lua_rawseti(L, -2, lua_Integer(i + 1))
    }
    return 1
  }

  /// `trace:text{ since =, format = "text"|"jsonl" }` → the trace as one string.
  func traceText() throws -> Int32 {
    let slot = try selfTrace()
    var since = 1
    var format = TraceFormat.text
    if !isNoneOrNil(L, 2) {
      try checkTable(L, 2)
      try checkKeys(L, 2, allowed: ["since", "format"], arg: 2)
      if let s = try fieldNumber(L, 2, "since", arg: 2) { since = Int(max(0, min(s, 1e15))) }
      if let f = try fieldString(L, 2, "format", arg: 2) {
        guard let parsed = TraceFormat(rawValue: f) else {
          throw ArgumentError(position: 2, message: "unknown format '\(f)' (expected text or jsonl)")
        }
        format = parsed
      }
    }
    push(L, TraceWriter(format: format).render(slot.device.trace, since: since))
    return 1
  }

  func traceIndex() throws -> Int32 {
    let slot = try selfTrace()
    switch stringValue(L, 2) {
    case "count": push(L, slot.device.trace.records.count)
    default: throw unknownField(.trace)
    }
    return 1
  }

  func traceToString() throws -> Int32 {
    let slot = try selfTrace()
    push(L, "<trace: \(slot.device.trace.records.count) records>")
    return 1
  }
}
