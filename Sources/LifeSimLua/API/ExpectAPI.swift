import CLua
import CLuaShim
import LifeSimEngine

// lifesim.expect_eq and lifesim.expect_state: assertions that say what they
// found, and the context `lifesim test` adds to a failure (the virtual time
// and the last trace records before it).
extension API {
  static let expectRows: [APIRow] = [
    .function(.lifesim, "expect_eq", "lifesim.expect_eq(actual, expected [, label])",
              "Fails unless the values are equal (tables compared key by key, raw), showing both; tables as a side-by-side diff.") {
      try $0.expectEqual()
    },
    .function(.lifesim, "expect_state", "lifesim.expect_state(app_or_scene, \"suspended\")",
              "Fails unless the app (or scene) is in that state, naming the state it is in and the virtual time.") {
      try $0.expectState()
    },
  ]
}

extension LuaRuntime {
  /// `lifesim.expect_eq(actual, expected [, label])`.
  func expectEqual() throws -> Int32 {
    let label = try args.optional(3, as: String.self)
    if lua_gettop(L) < 2 { throw ArgumentError(position: 2, message: "value expected") }
    var comparing: [(UnsafeRawPointer, UnsafeRawPointer)] = []
    if deepEqual(1, 2, depth: 0, comparing: &comparing) { return 0 }
    var printer = PrettyPrinter(runtime: self, maxDepth: 8)
    let prefix = label.map { "\($0): " } ?? ""
    if lua_type(L, 1) == LUA_TTABLE && lua_type(L, 2) == LUA_TTABLE {
      // One entry per line, so the diff shows which entries differ.
      printer.lineWidth = 0
      let actual = printer.render(1, depth: 0, indent: "").split(separator: "\n").map(String.init)
      let expected = printer.render(2, depth: 0, indent: "").split(separator: "\n").map(String.init)
      pushExpectationFailure(prefix + "tables differ\n" + sideBySideDiff(expected: expected, actual: actual))
    } else {
      let actual = printer.render(1, depth: 0, indent: "")
      let expected = printer.render(2, depth: 0, indent: "")
      pushExpectationFailure(prefix + "expected \(expected), got \(actual)")
    }
    throw RaiseTop()
  }

  /// Whether the values at `a` and `b` are equal: raw equality, or two tables
  /// with the same keys whose values are equal in the same sense. Reads are
  /// raw (no script code runs); a pair of tables already being compared
  /// counts as equal, so cycles end.
  private func deepEqual(_ a: Int32, _ b: Int32, depth: Int,
                         comparing: inout [(UnsafeRawPointer, UnsafeRawPointer)]) -> Bool {
    let a = lua_absindex(L, a), b = lua_absindex(L, b)
    if lua_rawequal(L, a, b) != 0 { return true }
    guard lua_type(L, a) == LUA_TTABLE, lua_type(L, b) == LUA_TTABLE, depth < 64,
          let pa = lua_topointer(L, a), let pb = lua_topointer(L, b) else { return false }
    if comparing.contains(where: { $0.0 == pa && $0.1 == pb }) { return true }
    comparing.append((pa, pb))
    defer { comparing.removeLast() }
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    var count = 0
    lua_pushnil(L)
    while lua_next(L, a) != 0 {
      count += 1
      lua_pushvalue(L, -2)
      lua_rawget(L, b)
      let equal = lua_type(L, -1) != LUA_TNIL && deepEqual(-2, -1, depth: depth + 1, comparing: &comparing)
      ls_pop(L, 2)
      if !equal { return false }
    }
    lua_pushnil(L)
    while lua_next(L, b) != 0 {
      count -= 1
      ls_pop(L, 1)
    }
    return count == 0
  }

  /// `lifesim.expect_state(app_or_scene, state)`.
  func expectState() throws -> Int32 {
    let wanted = try args.string(2)
    let slot: DeviceSlot, who: String, now: String
    if let h = handle(1, .scene) {
      slot = try self.slot(h.device)
      let app = slot.device[AppID(Int(h.index))]
      guard SceneState(name: wanted) != nil else {
        let names = SceneState.allCases.map(\.description)
        throw ArgumentError(position: 2, message: "unknown scene state '\(wanted)'\(suggestion(for: wanted, in: names)); "
                            + "scene states: \(names.joined(separator: ", "))")
      }
      guard let i = app.sceneIndex(h.extra) else { throw ScriptError(message: "this scene no longer exists") }
      who = "\(app.config.bundle) scene \(h.extra)"
      now = app.scenes[i].state.description
    } else {
      let h = try checkHandle(1, .app)
      slot = try self.slot(h.device)
      guard AppState(name: wanted) != nil else {
        let names = AppState.allCases.map(\.description)
        throw ArgumentError(position: 2, message: "unknown app state '\(wanted)'\(suggestion(for: wanted, in: names)); "
                            + "app states: \(names.joined(separator: ", "))")
      }
      let id = AppID(Int(h.index))
      let app = slot.device[id]
      who = app.config.bundle
      now = app.state.description
      if now != wanted {
        // Why it is still running, when something holds it (a task it forgot to end, say).
        let held = slot.device.holders(of: id).map { holder -> String in
          switch holder {
          case .backgroundTask(let name, let began): return "background task '\(name)' (begun at t=\(began))"
          case .audio: return "audio playback (the audio background mode)"
          case .backgroundLaunch(let until): return "a background launch until t=\(until)"
          }
        }
        if !held.isEmpty {
          pushExpectationFailure("\(who) is \(now), expected \(wanted) (t=\(slot.device.now)); "
                                 + "held by \(held.joined(separator: ", "))")
          throw RaiseTop()
        }
      }
    }
    if now == wanted { return 0 }
    pushExpectationFailure("\(who) is \(now), expected \(wanted) (t=\(slot.device.now))")
    throw RaiseTop()
  }

  /// What `lifesim test` adds to a failure: the virtual time of the newest
  /// device and its last `records` trace records. Nil when there is no device
  /// or it keeps no records.
  public func failureContext(records: Int = 5) -> String? {
    guard let slot = lastUsedDeviceID.flatMap({ devices[$0] }) ?? devices.newest else { return nil }
    let device = slot.device
    var out = "  at t=\(device.now)"
    let kept = device.trace.records
    guard device.recordsTrace, device.trace.keepsRecords, !kept.isEmpty else { return out }
    let writer = TraceWriter(format: .text)
    out += "; the last records before it:"
    for r in kept.suffix(records) {
      var bytes: [UInt8] = []
      writer.record(r, in: device.trace, into: &bytes)
      out += "\n    " + String(decoding: bytes, as: UTF8.self).trimmingSuffix("\n")
    }
    return out
  }
}

private extension String {
  func trimmingSuffix(_ s: String) -> String { hasSuffix(s) ? String(dropLast(s.count)) : self }
}
