-- An app that saves only in applicationWillTerminate:. `lifesim explore` finds a
-- short sequence that loses data: a jetsam kill of the suspended app never calls
-- applicationWillTerminate: (reference §2.6 (c), §4).
--
--   lifesim explore Scripts/explore/save_on_terminate.lua --depth 4 -o counterexample.lua
local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 300 }
notes:on("applicationDidBecomeActive:", function(ctx) ctx:dirty(1) end)   -- the user types
notes:on("applicationWillTerminate:", function(ctx) ctx:save() end)      -- the only save

lifesim.invariant("no unsaved data is lost", function(d)
  return d.stats.unsaved_lost == 0, string.format("%d unsaved changes lost", d.stats.unsaved_lost)
end)
lifesim.reachable("the app is suspended", function(d) return notes.state == "suspended" end)
