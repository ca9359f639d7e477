import Testing
import CLua
import CLuaShim
import LifeSimEngine
@testable import LifeSimLua

/// The memory of a state `lifesim explore` can save (one mapping, the
/// arena): freed memory serves later requests of any size, and a host
/// function that fills the mapping ends the script with the memory cap's
/// error at the script's line, never inside Swift frames.
struct ExploreMemoryTests {
  func runtime(arena: Int? = nil, cap: Int = 64 << 20) throws -> LuaRuntime {
    var o = RuntimeOptions()
    o.snapshots = true
    o.arenaBytes = arena
    o.memoryLimit = cap
    o.pinDevices = true
    o.output = { _ in }
    return try LuaRuntime(options: o)
  }

  /// Strings of one size after another, each batch dropped before the next:
  /// the freed memory of one size holds the next. (An allocator that keeps
  /// one list per power of two and never merges them fills a 192 MB mapping
  /// here, under a 32 MB cap.)
  @Test func freedMemoryServesOtherSizes() throws {
    let rt = try runtime(cap: 32 << 20)
    try rt.run(source: """
      for k = 10, 22 do
        local size = (1 << k) * 3 // 4
        local keep = {}
        for i = 1, (16 << 20) // size do keep[i] = string.rep("x", size - 8) .. string.format("%08d", i) end
        keep = nil
        collectgarbage()
      end
      """, chunkName: "=sizes")
    #expect(rt.memoryUsed < 8 << 20)
  }

  /// A host function that builds a result larger than the mapping has room
  /// for, called from a coroutine: the call fails with the memory cap's error
  /// at the script's line, and the runtime goes on: a state saved before
  /// restores, and can be saved again.
  @Test func aHostFunctionThatFillsTheMappingFailsAtTheScriptsLine() throws {
    let rt = try runtime(arena: 4 << 20)
    try rt.run(source: """
      dev = lifesim.device{ ios = 12 }
      dev:install{ bundle = "com.example.notes" }
      lifesim.invariant("fine", function() return true end)
      for i = 1, 50000 do dev:lock() dev:unlock() end  -- a text of about 6 MB
      """, chunkName: "=setup")
    let slot = try rt.exploreDevice()
    try rt.checkSavable()
    let saved = rt.saveState()
    let used = rt.memoryUsed
    do {
      try rt.run(source: "local t = coroutine.wrap(function() return dev.trace:text{ format = \"jsonl\" } end)()",
                 chunkName: "@host.lua")
      Issue.record("the text fit in the mapping: the test needs a longer trace")
    } catch let f as LuaFailure {
      #expect(f.kind == .memory, "\(f.message)")
      #expect(f.message.hasPrefix("host.lua:1:"), "\(f.message)")
      #expect(f.message.contains("memory cap"), "\(f.message)")
    }
    try rt.restoreState(saved)
    #expect(rt.memoryUsed == used)
    try rt.checkSavable()
    #expect(try rt.take("launch com.example.notes", on: slot) == .done)
    try rt.checkSavable()
    _ = rt.saveState()
  }
}
