import Testing
import LifeSimEngine
@testable import LifeSimLua

/// `dev.stats` is a view kept between reads (stats.c): an empty table whose
/// locked metatable reads from the counters' table. It must read as that
/// table does, by every way a script reads one, and a write must make it the
/// script's own plain table.
struct StatsViewTests {
  private let setUp = """
    local dev = lifesim.device{ ios = 17 }
    local app = dev:install{ bundle = "com.example.a" }
    dev:launch(app)
    """

  private func check(_ body: String) throws {
    let (_, out, f) = try runScript(setUp + "\n" + body)
    #expect(f == nil, "\(f?.message ?? "")")
    #expect(out.isEmpty, "\(out)")
  }

  @Test func rawReadsSeeTheCounters() throws {
    try check("""
      local s = dev.stats
      assert(rawget(s, "opens") == 1 and rawget(s.kills, "user") == 0)
      assert(rawget(s, "nothing") == nil)
      assert(#s == 0 and rawlen(s) == 0 and #s.kills == 0)
      assert(getmetatable(s) == nil and getmetatable(s.kills) == nil)
      local k, v = next(s)
      assert(k == "cold_opens" and v == 1, tostring(k))
      local n = 0
      for key, value in pairs(s) do n = n + 1 assert(rawget(s, key) == value) end
      assert(n == 8, "fields: " .. n)
      assert(select(2, next(s, "unsaved_lost")) == nil)
      """)
  }

  @Test func aWriteMakesItAPlainTable() throws {
    try check("""
      local s = dev.stats
      s.opens = nil
      assert(s.opens == nil and rawget(s, "opens") == nil and s.cold_opens == 1)
      local n = 0
      for _ in pairs(s) do n = n + 1 end
      assert(n == 7, "fields: " .. n)
      local t = dev.stats
      t.kills.user = 3
      assert(t.kills.user == 3 and rawget(t.kills, "user") == 3 and dev.stats.kills.user == 0)
      local ok, err = pcall(function() t[nil] = 1 end)
      assert(not ok and err:find("index is nil", 1, true), tostring(err))
      local u = dev.stats
      setmetatable(u, { __index = function() return 5 end })
      assert(u.anything == 5 and u.opens == 1)
      """)
  }
}
