import Testing
import CLua
import CLuaShim
import LifeSimEngine
@testable import LifeSimLua

/// A runtime's whole state saved and restored (`lifesim explore`): the Lua
/// state's bytes, the bridge's slots and the engine's device go back together.
struct RuntimeStateTests {
  static let script = """
    local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
    local app = dev:install{ bundle = "com.example.notes", footprint_mb = 300 }
    local opened = 0
    seen = {}
    app:on("applicationDidBecomeActive:", function(ctx)
      opened = opened + 1
      seen[#seen + 1] = "active " .. opened
      ctx:dirty(1)
    end)
    app:on("applicationDidEnterBackground:", function(ctx)
      local task = ctx:begin_background_task("sync")
      ctx:after(5, function() task:finish() seen[#seen + 1] = "finished" end)
    end)
    function report() return opened .. ": " .. table.concat(seen, ", ") end
    lifesim.invariant("fine", function() return true end)
    """

  func runtime(snapshots: Bool) throws -> (LuaRuntime, DeviceSlot) {
    var o = RuntimeOptions()
    o.snapshots = snapshots
    o.pinDevices = true
    o.output = { _ in }
    let rt = try LuaRuntime(options: o)
    try rt.run(source: Self.script, chunkName: "=state")
    return (rt, try rt.exploreDevice())
  }

  @Test func everyStoredPropertyOfASlotIsSavedOrFixed() throws {
    let (rt, slot) = try runtime(snapshots: false)
    // The slot's runtime is unowned: the runtime must outlive the reflection.
    let names = withExtendedLifetime(rt) { Set(Mirror(reflecting: slot).children.compactMap(\.label)) }
    let known = DeviceSlot.SavedState.savedProperties.union(DeviceSlot.SavedState.fixedProperties)
    #expect(names.subtracting(known).isEmpty, "not classified: \(names.subtracting(known).sorted())")
    #expect(known.subtracting(names).isEmpty, "no longer stored: \(known.subtracting(names).sorted())")
  }

  @Test func restoringPutsBackLuaValuesSlotsAndTheDevice() throws {
    let (rt, slot) = try runtime(snapshots: true)
    for step in ["launch com.example.notes", "home"] { #expect(try rt.take(step, on: slot) == .done) }
    let saved = rt.saveState()
    let base = rt.saveState()
    let fingerprint = slot.device.stateFingerprint()
    let steps = ["launch com.example.notes", "home", "advance 10", "launch com.example.notes"]
    func onward() throws -> ([UInt8], String) {
      for step in steps { #expect(try rt.take(step, on: slot) == .done) }
      return (slot.device.stateFingerprint(), try readReport(rt, slot))
    }
    let first = try onward()
    #expect(first.1 == "3: active 1, active 2, finished, finished, active 3")
    try rt.restoreState(saved)
    #expect(slot.device.stateFingerprint() == fingerprint)
    #expect(try readReport(rt, slot) == "1: active 1")
    #expect(try onward() == first)
    // A delta against a base restores the same state.
    try rt.restoreState(saved)
    let delta = rt.saveState(against: base)
    #expect(delta.byteCount < base.byteCount / 4)
    _ = try onward()
    try rt.restoreState(delta, base: base)
    #expect(try readReport(rt, slot) == "1: active 1")
    #expect(try onward() == first)
  }

  static let trackedSteps = ["launch com.example.notes", "home", "advance 10", "launch com.example.notes", "lock", "unlock"]
  static let junk = "local t = {} for i = 1, 300 do t[i] = tostring(i) end junk = t"

  /// Takes `trackedSteps`, and after each saves the state against `base`,
  /// with its device's fingerprint and the script's report. Each step leaves
  /// garbage and grows the arena, so that pages past the base's top are
  /// written too.
  func statesAfterEachStep(_ rt: LuaRuntime, _ slot: DeviceSlot, against base: RuntimeState) throws
    -> [(RuntimeState, [UInt8], String)]
  {
    var saved: [(RuntimeState, [UInt8], String)] = []
    for step in Self.trackedSteps {
      #expect(try rt.take(step, on: slot) == .done)
      try rt.run(source: Self.junk, chunkName: "=junk")
      saved.append((rt.saveState(against: base), slot.device.stateFingerprint(), try readReport(rt, slot)))
    }
    return saved
  }

  /// With its writes tracked, a runtime copies back only the pages written
  /// since the base; every page is compared here, untracked, after each
  /// restore, and the states reached again must be the same.
  @Test func trackedRestoresPutBackEveryByte() throws {
    let (rt, slot) = try runtime(snapshots: true)
    var base = rt.saveState()
    #expect(rt.trackWrites(from: &base))
    let steps = Self.trackedSteps
    let saved = try statesAfterEachStep(rt, slot, against: base)
    // Back to each state in an order unlike the one they were made in, and to the base.
    for i in [3, 0, 5, 1, 4, 2] {
      try rt.restoreState(saved[i].0, base: base)
      #expect(rt.luaStateEquals(saved[i].0, base: base))
      #expect(slot.device.stateFingerprint() == saved[i].1)
      #expect(try readReport(rt, slot) == saved[i].2)
    }
    try rt.restoreState(base, base: base)
    #expect(rt.luaStateEquals(base, base: nil))
    #expect(try readReport(rt, slot) == "0: ")
    // The states go on as they did the first time.
    try rt.restoreState(saved[1].0, base: base)
    for step in steps[2...] { #expect(try rt.take(step, on: slot) == .done) }
    #expect(slot.device.stateFingerprint() == saved[5].1)
    #expect(try readReport(rt, slot) == saved[5].2)
  }

  /// Rebasing on a later state re-saves the states against it: each comes
  /// back byte for byte (every page compared, untracked), with the same
  /// device and Lua values, and goes on as before; and they are smaller.
  @Test func rebasedStatesPutBackEveryByte() throws {
    let (rt, slot) = try runtime(snapshots: true)
    var base = rt.saveState()
    #expect(rt.trackWrites(from: &base))
    let setUp = base
    let steps = Self.trackedSteps
    let saved = try statesAfterEachStep(rt, slot, against: base)
    // The new base is the third state; the first two were made before it
    // (a smaller arena), the others after; the set-up state goes too.
    var states = [saved[2].0] + saved.indices.filter { $0 != 2 }.map { saved[$0].0 } + [setUp]
    let order = [2] + saved.indices.filter { $0 != 2 }
    let before = states.dropLast().map(\.byteCount).reduce(0, +)
    let newBase = try #require(try rt.rebase(&states, from: base))
    #expect(states.dropLast().map(\.byteCount).reduce(0, +) < before)
    for k in [4, 0, 6, 1, 3, 5, 2] {
      try rt.restoreState(states[k], base: newBase)
      #expect(rt.luaStateEquals(states[k], base: newBase))
      if k < order.count {
        #expect(slot.device.stateFingerprint() == saved[order[k]].1)
        #expect(try readReport(rt, slot) == saved[order[k]].2)
      } else {
        #expect(try readReport(rt, slot) == "0: ")
      }
    }
    // From the first state, the steps lead to the same last state.
    try rt.restoreState(states[1], base: newBase)
    for step in steps[1...] {
      #expect(try rt.take(step, on: slot) == .done)
      try rt.run(source: Self.junk, chunkName: "=junk")
    }
    #expect(slot.device.stateFingerprint() == saved[5].1)
    #expect(try readReport(rt, slot) == saved[5].2)
  }

  @Test func aStepThatMakesADeviceIsRefused() throws {
    let (rt, slot) = try runtime(snapshots: true)
    let saved = rt.saveState()
    try rt.run(source: "extra = lifesim.device{ ios = 12 }", chunkName: "=extra")
    #expect(throws: ScriptError.self) { try rt.restoreState(saved) }
    #expect(slot.device.apps.count == 1)
  }
}

/// The script's `report()`, read through a protected call (raw stack work only).
private func readReport(_ rt: LuaRuntime, _ slot: DeviceSlot) throws -> String {
  let L = rt.mainState
  let top = lua_gettop(L)
  defer { lua_settop(L, top) }
  lua_rawgeti(L, ls_registryindex(), lua_Integer(LUA_RIDX_GLOBALS))
  lua_pushstring(L, "report")
  lua_rawget(L, -2)
  #expect(ls_pcall(L, 0, 1, 0) == LUA_OK)
  return lua_tolstring(L, -1, nil).map { String(cString: $0) } ?? ""
}

/// The search tells pending timers apart by their function, not by the store
/// slot the function sits in (slots are reused).
struct ExploreFingerprintTests {
  @Test func timersAreToldApartByTheirFunctionNotTheirSlot() throws {
    func fingerprint(_ second: String, bySlot: Bool = false) throws -> [UInt8] {
      var o = RuntimeOptions()
      o.pinDevices = true
      o.output = { _ in }
      let rt = try LuaRuntime(options: o)
      try rt.run(source: """
        local dev = lifesim.device{ ios = 12 }
        local function first() end
        local function other() end
        dev:after(5, first)
        dev:advance(10)            -- first fires; its slot is free again
        dev:after(5, \(second))    -- takes the same slot
        """, chunkName: "=timers")
      let slot = try rt.exploreDevice()
      return bySlot ? slot.device.stateFingerprint() : try rt.exploreFingerprint(on: slot)
    }
    // By slot alone the two would be one state: the slot is reused.
    #expect(try fingerprint("first", bySlot: true) == fingerprint("other", bySlot: true))
    let same = try fingerprint("first"), again = try fingerprint("first"), other = try fingerprint("other")
    #expect(same == again)
    #expect(same != other, "a different function in the same slot is a different state")
  }
}
