import CLua
import CLuaShim
import LifeSimEngine

import LifeSimPlatform

/// What `measureHandlerCalls` found: the cost of one handler call on top of the
/// engine's own work, and the cost of the plainest call C can make to the same
/// Lua function (`lua_pcall` in a loop), both in seconds.
public struct DispatchTiming: Sendable {
  public var handlerCalls: Int
  public var perHandlerCall: Double
  public var perFloorCall: Double
}

extension LuaRuntime {
  /// Measures what a handler call costs (`lifesim bench`): the same user
  /// actions run on a device with a trivial `"*"` handler and without one; the
  /// difference, per call, is set against `lua_pcall` of the same function
  /// from a C loop. Wall-clock time: for benchmarks only, never for results.
  public func measureHandlerCalls(cycles: Int) throws -> DispatchTiming {
    let top = lua_gettop(L)
    defer { lua_settop(L, top) }
    try run(source: """
      local calls = 0
      bench_handler = function() calls = calls + 1 end
      bench_drive = function(with_handler, cycles)
        local dev = lifesim.device{ ios = 17, trace = false }
        local app = dev:install{ bundle = "com.example.bench" }
        if with_handler then app:on("*", bench_handler) end
        calls = 0
        dev:launch(app)
        for _ = 1, cycles do dev:home() dev:launch(app) end
        return calls
      end
      """, chunkName: "=bench")
    func drive(withHandler: Bool) throws -> (seconds: Double, calls: Int) {
      ls_reset_budget(L, -1)
      ls_pushglobaltable(L)
      rawField(L, -1, "bench_drive")
      push(L, withHandler)
      push(L, cycles)
      let start = monotonicSeconds()
      try protectedCall(nargs: 2, nresults: 1)
      let seconds = monotonicSeconds() - start
      let calls = Int(lua_tointegerx(L, -1, nil))
      ls_pop(L, 2)
      return (seconds, calls)
    }
    // The floor: the same function, called from C as many times, measured
    // before and after the two drives and averaged, so that a change in the
    // machine's speed during the drives moves both sides alike.
    func floorSeconds(_ calls: Int) -> Double {
      ls_reset_budget(L, -1)
      ls_pushglobaltable(L)
      rawField(L, -1, "bench_handler")
      let start = monotonicSeconds()
      _ = ls_bench_pcall_loop(L, Int64(max(1, calls)))
      let seconds = monotonicSeconds() - start
      ls_pop(L, 2)
      return seconds
    }
    let expected = 4 * cycles  // about what the drive with the handler calls: two callbacks a home, two a launch
    let before = floorSeconds(expected)
    let without = try drive(withHandler: false)
    let with = try drive(withHandler: true)
    let after = floorSeconds(expected)
    let calls = max(1, with.calls)
    // Not clamped: on a busy machine the difference can come out negative, and
    // the caller must see that rather than an infinite rate.
    return DispatchTiming(handlerCalls: with.calls, perHandlerCall: (with.seconds - without.seconds) / Double(calls),
                          perFloorCall: (before + after) / 2 / Double(max(1, expected)))
  }
}

/// Seconds on the monotonic clock.
public func monotonicSeconds() -> Double {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
