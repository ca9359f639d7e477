import CLua
import CLuaShim
import LifeSimEngine

/// A runtime's whole state between actions: the bytes of its Lua state, and
/// what the bridge and the engine hold of each live device. `lifesim explore`
/// saves one per state it will expand and goes back to it for each step,
/// instead of replaying the steps from the start.
///
/// It can only be restored into the runtime that saved it: the Lua state's
/// bytes hold pointers into that runtime's own mapping. Saved against a base
/// (an earlier state of the same runtime), it keeps only the 64-byte blocks
/// of the Lua state that differ from the base's, and needs the base back.
struct RuntimeState {
  fileprivate var lua: [UInt8]
  fileprivate var isDelta: Bool
  fileprivate var slots: [(id: Int32, state: DeviceSlot.SavedState)]
  fileprivate var explore: ExploreDeclarations
  fileprivate var nextDeviceID: Int32
  /// Whether it is the base the runtime tracks its writes from
  /// (`trackWrites`), or was saved against it.
  fileprivate var tracked = false
  /// Which tracked base, if `tracked` (`LuaRuntime.trackGeneration`).
  fileprivate var generation = 0

  /// The bytes kept of the Lua state (the rest shares storage with the live
  /// device until either changes).
  var byteCount: Int { lua.count }

  /// Whether its Lua bytes are `other`'s, the same storage (a copy of it).
  func sharesBytes(with other: RuntimeState) -> Bool {
    lua.withUnsafeBufferPointer { a in other.lua.withUnsafeBufferPointer { $0.baseAddress == a.baseAddress } }
  }
}

extension LuaRuntime {
  /// Saves the runtime's state, whole or, `against` a base, as what differs
  /// from it. The runtime must have been made with `snapshots` and be at rest
  /// (no Lua code running).
  func saveState(against base: RuntimeState? = nil) -> RuntimeState {
    precondition(L == mainState && contexts.count == 0, "saveState while a script runs")
    precondition(ls_snapshot_size(mainState) > 0, "saveState needs RuntimeOptions.snapshots")
    let lua: [UInt8]
    if let base {
      precondition(!base.isDelta, "a base is saved whole")
      let bound = ls_snapshot_delta_bound(mainState)
      if snapshotScratch.count < bound { snapshotScratch = [UInt8](repeating: 0, count: bound + bound / 2) }
      let n: Int
      if base.tracked {
        n = snapshotScratch.withUnsafeMutableBytes { ls_snapshot_delta_tracked(mainState, $0.baseAddress) }
      } else {
        n = base.lua.withUnsafeBytes { b in
          snapshotScratch.withUnsafeMutableBytes { ls_snapshot_delta(mainState, b.baseAddress, $0.baseAddress) }
        }
      }
      lua = Array(snapshotScratch[..<n])
    } else {
      let size = ls_snapshot_size(mainState)
      lua = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        ls_snapshot_save(mainState, buffer.baseAddress)
        count = size
      }
    }
    if let base, base.tracked { precondition(base.generation == trackGeneration, "saved against a base no longer tracked") }
    return RuntimeState(lua: lua, isDelta: base != nil, slots: devices.ids.map { ($0, devices[$0]!.saveState()) },
                        explore: explore, nextDeviceID: nextDeviceID, tracked: base?.tracked ?? false,
                        generation: trackGeneration)
  }

  /// Throws the memory cap's error when the Lua state holds blocks outside
  /// its mapping, which no saved state could hold: its mapping filled (a host
  /// function built a large result, or the script went past its cap) and the
  /// cap tripped, though no Lua code has run since to raise it.
  func checkSavable() throws {
    guard ls_getstate(mainState).pointee.spilled == 0 else {
      throw ScriptError(message: "not enough memory: the script exceeded its memory cap of "
                        + "\(options.memoryLimit >> 20) MB (--max-memory)")
    }
  }

  /// How many allocations and protected calls the Lua state has seen
  /// (`ls_activity`): the same count twice means its bytes did not change.
  var luaActivity: UInt64 { UInt64(ls_activity(mainState)) }

  /// Whether the Lua state's bytes are those of `s` (saved against `base`),
  /// every page compared, tracked or not: for checks in debug builds.
  func luaStateEquals(_ s: RuntimeState, base: RuntimeState?) -> Bool {
    guard s.isDelta, let base else { return saveState().lua == s.lua }
    let bound = ls_snapshot_delta_bound(mainState)
    var bytes = [UInt8](repeating: 0, count: bound)
    let n = base.lua.withUnsafeBytes { b in bytes.withUnsafeMutableBytes { ls_snapshot_delta(mainState, b.baseAddress, $0.baseAddress) } }
    return bytes[..<n].elementsEqual(s.lua)
  }

  /// From now on, saving against `base` (saved whole just now, and the state
  /// still) and going back to `base` or to what was saved against it
  /// touch only the Lua state's pages written since: the others are
  /// write-protected until their first write (`ls_snapshot_track`). Marks
  /// `base` as the tracked one, and returns whether the runtime tracks its
  /// writes; if not, nothing changed. Not with `unsafe`, whose io library
  /// could ask the kernel to write into a protected page (which fails
  /// rather than faults).
  @discardableResult
  func trackWrites(from base: inout RuntimeState) -> Bool {
    precondition(!base.isDelta && !tracksWrites, "tracking starts once, from a state saved whole")
    guard !options.unsafe else { return false }
    tracksWrites = base.lua.withUnsafeBytes { ls_snapshot_track(mainState, $0.baseAddress) } != 0
    base.tracked = tracksWrites
    return tracksWrites
  }

  /// Tracks writes from another base from now on: `states[0]`, saved whole,
  /// and re-saves each of `states` (the tracked base, or saved against it)
  /// against it. A search rebases at the start of its first, small levels:
  /// the states of its later levels differ from the set-up state on many
  /// more of the Lua state's pages (each copied back at every restore) than
  /// from a state a few steps deep. Returns the new
  /// base; `states` restore with it only.
  /// Without write tracking, nothing changes and it returns nil.
  func rebase(_ states: inout [RuntimeState], from base: RuntimeState) throws -> RuntimeState? {
    guard tracksWrites, let first = states.first else { return nil }
    try restoreState(first, base: base)
    try checkSavable()
    var newBase = saveState()
    guard newBase.lua.withUnsafeBytes({ ls_snapshot_rebase_begin(mainState, $0.baseAddress) }) != 0 else { return nil }
    for i in states.indices {
      try restoreState(states[i], base: base)
      let bound = ls_snapshot_delta_bound(mainState)
      if snapshotScratch.count < bound { snapshotScratch = [UInt8](repeating: 0, count: bound + bound / 2) }
      let n = newBase.lua.withUnsafeBytes { b in
        snapshotScratch.withUnsafeMutableBytes { ls_snapshot_delta_rebased(mainState, b.baseAddress, $0.baseAddress) }
      }
      precondition(n <= bound, "a delta longer than ls_snapshot_delta_bound")
      // The bridge's and the engine's parts are the same as before.
      states[i].lua = Array(snapshotScratch[..<n])
      states[i].isDelta = true
      states[i].tracked = true
      states[i].generation = trackGeneration + 1
    }
    try restoreState(first, base: base)
    let finished = newBase.lua.withUnsafeBytes { ls_snapshot_rebase_finish(mainState, $0.baseAddress) } != 0
    // Finishing fails only where starting the tracking would have (a base
    // over 64 MB): then the deltas are still right against `newBase`, restored
    // untracked.
    trackGeneration += 1
    newBase.tracked = finished
    newBase.generation = trackGeneration
    if !finished {
      tracksWrites = false
      for i in states.indices { states[i].tracked = false }
    }
    return newBase
  }

  /// Goes back to a state this runtime saved (with the base it was saved
  /// against). A step that made a device cannot be undone this way (the
  /// device's objects would outlive it), and is refused. Without `lua`, the
  /// Lua state is left as it is: the caller knows it is `s`'s already.
  func restoreState(_ s: RuntimeState, base: RuntimeState? = nil, lua: Bool = true) throws {
    precondition(L == mainState && contexts.count == 0, "restoreState while a script runs")
    // The same live devices (ids are never reused), checked without making
    // arrays: this runs before every step of a search.
    guard nextDeviceID == s.nextDeviceID, devices.count == s.slots.count,
          s.slots.allSatisfy({ devices[$0.id] != nil }) else {
      throw ScriptError(message: "a step made or dropped a device, which the search cannot undo: "
                        + "make every device before the search starts")
    }
    if !lua {
      // Left as it is.
    } else if s.tracked {
      // The tracked base itself, or a delta against it.
      precondition(tracksWrites && (!s.isDelta || base?.tracked == true), "a tracked state goes back with its base")
      precondition(s.generation == trackGeneration, "a state saved against a base no longer tracked")
      if s.isDelta { s.lua.withUnsafeBytes { ls_snapshot_restore_tracked(mainState, $0.baseAddress) } }
      else { ls_snapshot_restore_tracked(mainState, nil) }
      trackedRestores += 1
      if trackedRestores % trackedRestoreCheckEvery == 0 && !luaStateEquals(s, base: base) {
        // Every byte put back, untracked: the state must still close cleanly.
        if s.isDelta, let base {
          base.lua.withUnsafeBytes { b in
            s.lua.withUnsafeBytes { ls_snapshot_restore_delta(mainState, b.baseAddress, $0.baseAddress) }
          }
        } else {
          s.lua.withUnsafeBytes { ls_snapshot_restore(mainState, $0.baseAddress) }
        }
        throw ScriptError(message: "internal error: going back to a saved state left bytes of another state "
                          + "(write tracking missed a write); the search stops rather than give a wrong answer")
      }
    } else if s.isDelta {
      guard let base else { preconditionFailure("a delta needs its base") }
      base.lua.withUnsafeBytes { b in
        s.lua.withUnsafeBytes { ls_snapshot_restore_delta(mainState, b.baseAddress, $0.baseAddress) }
      }
    } else {
      s.lua.withUnsafeBytes { ls_snapshot_restore(mainState, $0.baseAddress) }
    }
    // (The compiler copies each device's saved parts out of the state to
    // pass them, which retains every array they hold: about 2 % of a search.
    // Reading through an unsafe buffer or a box of `let`s did not stop it.)
    for i in s.slots.indices { devices[s.slots[i].id]!.restoreState(s.slots[i].state) }
    explore = s.explore
  }
}

extension LuaRuntime {
  /// Goes back to `base`, saved whole, for the next run of a batch: the
  /// devices the last run made are dropped (their Lua objects went with the
  /// run's bytes, so their `__gc` will never run), and device ids start again
  /// where they started after loading. Unlike `restoreState`, which refuses a
  /// state with other devices, a run may make as many as it likes.
  func restoreForRun(_ base: RuntimeState) {
    precondition(!base.isDelta && !base.tracked, "a run goes back to a state saved whole")
    if devices.count != base.slots.count || nextDeviceID != base.nextDeviceID {
      var id = base.nextDeviceID
      while id < nextDeviceID {
        devices[id] = nil
        id += 1
      }
      nextDeviceID = base.nextDeviceID
    }
    // The devices made while loading are pinned (`pinLiveDevices`), so no run can drop one.
    try! restoreState(base)
    lastUsedDeviceID = nil
    lastRefusal = nil
  }

  /// Holds every live device's Lua object in the registry, after a full
  /// collection: a state saved now keeps its devices whatever a run later
  /// drops, so `restoreForRun` finds each of them still there.
  func pinLiveDevices() throws {
    _ = ls_gc(L, LUA_GCCOLLECT, 0)
    for id in devices.ids {
      lua_rawgeti(L, ls_registryindex(), lua_Integer(devicesTableRef))
      lua_rawgeti(L, -1, lua_Integer(id))
      if lua_type(L, -1) == LUA_TNIL {
        ls_pop(L, 2)
        continue
      }
      _ = luaL_ref(L, ls_registryindex())
      ls_pop(L, 1)
    }
  }
}
