import Testing
import LifeSimEngine
@testable import LifeSimLua

/// `dev.stats` hands back the table it built last while the counters are the
/// same and nothing wrote to it (stats.c, `ls_push_counters`); a table a
/// script changed is never handed out again.
struct StatsCacheTests {
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

  /// The cache is in use on this Lua (its layout check passed): two reads
  /// with nothing between them give the same table.
  @Test func twoReadsGiveOneTable() throws {
    try check("""
      assert(rawequal(dev.stats, dev.stats), "the stats table was not kept")
      assert(dev.stats.opens == 1 and dev.stats.cold_opens == 1)
      """)
  }

  /// `dev.stats.tasks` (BGTaskScheduler's counters) is kept across new
  /// tables while its own counters are the same and nothing wrote to it, so
  /// that a search whose apps run no task builds it once; a task counter
  /// that moves, or a write, gives a new one.
  @Test func theTasksTableIsKeptWhileItsCountersAreTheSame() throws {
    try check("""
      local before = dev.stats
      dev:home()
      dev:kill(app)
      local after = dev.stats
      assert(not rawequal(before, after) and rawequal(before.tasks, after.tasks))
      assert(after.tasks.run == 0 and after.tasks.submitted == 0)
      after.tasks.run = 9           -- the script's own table from now on
      local again = dev.stats
      assert(not rawequal(again.tasks, after.tasks) and again.tasks.run == 0 and after.tasks.run == 9)
      local feed = dev:install{ bundle = "com.example.feed", background_modes = { "fetch" },
                                background_tasks = { "com.example.feed.refresh" } }
      feed:register_task("com.example.feed.refresh", function(_, task) task:complete(true) end)
      feed:on("sceneDidEnterBackground:", function(ctx)
        ctx:submit_task{ id = "com.example.feed.refresh", kind = "refresh", earliest = 10 }
      end)
      dev:launch(feed)
      dev:home()
      local submitted = dev.stats
      assert(not rawequal(submitted.tasks, again.tasks) and submitted.tasks.submitted == 1 and submitted.tasks.run == 0)
      dev:advance(20)
      assert(dev.stats.tasks.run == 1 and dev.stats.tasks.completed == 1 and submitted.tasks.run == 0)
      """)
  }

  @Test func aChangedCounterGivesANewTable() throws {
    try check("""
      local before = dev.stats
      dev:home()
      dev:kill(app)
      local after = dev.stats
      assert(not rawequal(before, after))
      assert(before.kills.user == 0 and after.kills.user == 1, tostring(after.kills.user))
      assert(before.opens == 1 and after.opens == 1)
      """)
  }

  @Test(arguments: [
    "s.opens = 99",                    // a value overwritten
    "s.opens = nil",                   // a key removed
    "s.extra = true",                  // a key added
    "s[1] = 'x'",                      // an array part begun
    "s.kills.user = 7",                // the nested table changed
    "s.kills = {}",                    // the nested table replaced
    "setmetatable(s, { __index = function() return 5 end })",
    "for i = 1, 40 do s['k' .. i] = i end",  // grown (its node part moved)
  ])
  func aTableTheScriptChangedIsNotHandedOutAgain(change: String) throws {
    try check("""
      local s = dev.stats
      \(change)
      local t = dev.stats
      assert(not rawequal(s, t), "the changed table came back")
      assert(getmetatable(t) == nil and t.extra == nil and t[1] == nil and t.k1 == nil)
      assert(t.opens == 1 and t.kills.user == 0, "wrong counters")
      local n = 0
      for _ in pairs(t) do n = n + 1 end
      assert(n == 8, "fields: " .. n)
      """)
  }

  /// A table written to is the script's own from then on, even when the
  /// value is put back: the next read is another table, with the same counters.
  @Test func aValuePutBackIsStillTheScripts() throws {
    try check("""
      local s = dev.stats
      s.opens = 5
      s.opens = 1
      local t = dev.stats
      assert(not rawequal(s, t) and t.opens == 1 and s.opens == 1)
      """)
  }

  /// Each device keeps its own.
  @Test func devicesDoNotShareTheirStats() throws {
    try check("""
      local other = lifesim.device{ ios = 17 }
      assert(other.stats.opens == 0 and dev.stats.opens == 1)
      assert(not rawequal(other.stats, dev.stats))
      """)
  }

  /// `dev.stats` is read in C (`ls_set_stats_field`): each of its numbers is
  /// the engine's counter, after opens, a jetsam, a user kill and a warning.
  @Test func everyCounterIsTheEngines() throws {
    let (rt, out, f) = try runScript("""
      local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
      local a = dev:install{ bundle = "com.example.a", footprint_mb = 300 }
      local b = dev:install{ bundle = "com.example.b", footprint_mb = 300 }
      a:on("applicationDidBecomeActive:", function(ctx) ctx:dirty(2) end)
      dev:launch(a)
      dev:home()
      dev:launch(b)
      dev:memory_warning()
      dev:memory_pressure()
      dev:launch(a)
      dev:home()
      dev:kill(b)
      local s = dev.stats
      local names = {}
      for k, v in pairs(s) do if k ~= "kills" and k ~= "tasks" then names[#names + 1] = k .. "=" .. v end end
      for k, v in pairs(s.kills) do names[#names + 1] = "kills." .. k .. "=" .. v end
      for k, v in pairs(s.tasks) do names[#names + 1] = "tasks." .. k .. "=" .. v end
      table.sort(names)
      print(table.concat(names, " "))
      """)
    #expect(f == nil, "\(f?.message ?? "")")
    let st = try #require(rt.devices.newest).device.stats
    var want = ["opens=\(st.opens)", "cold_opens=\(st.coldOpens)", "jetsam_kills=\(st.jetsamKills)",
                "data_loss=\(st.dataLossEvents)", "unsaved_lost=\(st.unsavedLost)", "memory_warnings=\(st.memoryWarnings)",
                "tasks.submitted=0", "tasks.run=0", "tasks.completed=0", "tasks.expired=0", "tasks.delay=0"]
    for r in KillReason.allCases { want.append("kills.\(r.description)=\(st.kills(r))") }
    #expect(out == want.sorted().joined(separator: " ") + "\n")
    // The run moved the counters this test is about.
    #expect(st.opens == 3 && st.coldOpens == 3 && st.jetsamKills == 1 && st.kills(.user) == 1)
    #expect(st.memoryWarnings == 1 && st.dataLossEvents == 1 && st.unsavedLost == 2)
  }

  /// The trampoline knows `stats` by its key's address, for devices only:
  /// another object indexed with it still says it has no such field.
  @Test func onlyADeviceHasStats() throws {
    try check("""
      local ok, err = pcall(function() return app.stats end)
      assert(not ok and err:find("has no field 'stats'", 1, true), tostring(err))
      local key = "sta" .. "ts"  -- made at run time: the same interned string
      assert(rawequal(dev[key], dev.stats))
      """)
  }
}
