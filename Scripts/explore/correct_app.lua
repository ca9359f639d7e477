-- An app that does it right: it saves when it leaves the foreground and ends
-- its background task in every path. `lifesim explore` finds no violation up to
-- depth 6 (the test suite runs it at a smaller depth to stay quick).
--
--   lifesim explore Scripts/explore/correct_app.lua --depth 6
local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 300 }
local task
notes:on("applicationDidBecomeActive:", function(ctx) ctx:dirty(1) end)
notes:on("applicationWillResignActive:", function(ctx) ctx:save() end)
notes:on("applicationDidEnterBackground:", function(ctx)
  ctx:save()
  task = ctx:begin_background_task("sync")
  ctx:after(5, function() if task then task:finish() task = nil end end)
end)
notes:on("applicationWillEnterForeground:", function(ctx)
  if task then task:finish() task = nil end
end)

lifesim.invariant("no unsaved data is lost", function(d)
  return d.stats.unsaved_lost == 0, string.format("%d unsaved changes lost", d.stats.unsaved_lost)
end)
lifesim.invariant("never killed for an open background task", function(d)
  return (d.stats.kills["background-task"] or 0) == 0, "killed for a background task left open"
end)
lifesim.reachable("the app is suspended", function(d) return notes.state == "suspended" end)
