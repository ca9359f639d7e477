import Testing
import CLua
import CLuaShim
import LifeSimEngine
@testable import LifeSimLua

/// Write tracking when the kernel refuses to protect or unprotect a page (a
/// process has only so many mapping pieces, vm.max_map_count): the state is
/// made writable whole, every page counts as written, and saving and
/// restoring copy them all, as without tracking; nothing faults for good.
struct ExploreTrackingTests {
  @Test func aRefusedFaultFallsBackToCopyingEveryPage() throws {
    let helper = RuntimeStateTests()
    let (rt, slot) = try helper.runtime(snapshots: true)
    // A state of many pages, written one page in three or so below.
    try rt.run(source: "big = {} for i = 1, 20000 do big[i] = 'v' .. i end", chunkName: "=big")
    var base = rt.saveState()
    #expect(rt.trackWrites(from: &base))
    #expect(ls_snapshot_tracks_every_page(rt.mainState) == 0)
    // The first write to a protected page is refused, as the kernel does
    // when the mapping has too many pieces.
    ls_snapshot_track_refuse(rt.mainState, 1)
    try rt.run(source: "for i = 1, 20000, 97 do big[i] = i end", chunkName: "=write")
    #expect(ls_snapshot_tracks_every_page(rt.mainState) != 0)
    let saved = try helper.statesAfterEachStep(rt, slot, against: base)
    for i in [3, 0, 5, 1, 4, 2] {
      try rt.restoreState(saved[i].0, base: base)
      #expect(rt.luaStateEquals(saved[i].0, base: base))
      #expect(slot.device.stateFingerprint() == saved[i].1)
      #expect(try readReport(rt, slot) == saved[i].2)
    }
    try rt.restoreState(base, base: base)
    #expect(rt.luaStateEquals(base, base: nil))
    // A rebase protects the pages again, in one piece: tracking goes on.
    var states = saved.map { $0.0 }
    let newBase = try #require(try rt.rebase(&states, from: base))
    #expect(ls_snapshot_tracks_every_page(rt.mainState) == 0)
    for i in [2, 5, 0] {
      try rt.restoreState(states[i], base: newBase)
      #expect(rt.luaStateEquals(states[i], base: newBase))
      #expect(slot.device.stateFingerprint() == saved[i].1)
    }
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
