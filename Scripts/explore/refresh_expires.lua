-- A feed app whose refresh task downloads for 40 s and saves at the end. Its
-- time is 30 s (reference §3.5) and it has no expiration handler, so when the
-- time runs out the task ends unsuccessful with the download unsaved, and the
-- suspended app loses it when it dies; a swipe during the download loses it
-- too. `lifesim explore` finds the shortest path: the scheduler runs the task
-- (`run_task`) and the user swipes the app away; with `--actions` that leave
-- out `kill`, jetsam takes the app during the download.
--
--   lifesim explore Scripts/explore/refresh_expires.lua --depth 5
local dev = lifesim.device{ ios = 17 }
local REFRESH = "com.example.feed.refresh"
local app = dev:install{ bundle = "com.example.feed", background_modes = { "fetch" }, background_tasks = { REFRESH } }
app:register_task(REFRESH, function(ctx, task)
  ctx:dirty(1)            -- new items, not yet written
  ctx:after(40, function(c)
    if not task.running then return end
    c:save()
    task:complete(true)
  end)
end)
app:on("sceneDidEnterBackground:", function(ctx)
  ctx:submit_task{ id = REFRESH, kind = "refresh", earliest = 3600 }
end)

lifesim.invariant("no unsaved data is lost", function(d)
  return d.stats.unsaved_lost == 0, string.format("%d unsaved changes lost", d.stats.unsaved_lost)
end)
