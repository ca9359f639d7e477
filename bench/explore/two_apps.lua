-- The device `lifesim bench --only explore` searches: two apps with Lua
-- handlers on their transitions (one saves, begins and ends a background
-- task, and schedules a timer; the other has a "*" handler on every
-- callback), two invariants, the default alphabet of 17 steps.
local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 300 }
local mail = dev:install{ bundle = "com.example.mail", footprint_mb = 400 }
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
mail:on("*", function(ctx) end)

lifesim.invariant("no unsaved data is lost", function(d)
  return d.stats.unsaved_lost == 0, string.format("%d unsaved changes lost", d.stats.unsaved_lost)
end)
lifesim.invariant("never killed for an open background task", function(d)
  return (d.stats.kills["background-task"] or 0) == 0, "killed for a background task left open"
end)
