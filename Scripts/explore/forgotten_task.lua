-- An app that begins a background task when it enters the background and ends
-- it only when its upload finishes in time; on the path where the user comes
-- back first, it forgets to end it. `lifesim explore` finds the kill
-- (`background-task`, reference §3.4).
--
--   lifesim explore Scripts/explore/forgotten_task.lua --depth 5
local dev = lifesim.device{ ios = 12 }
dev:policy{ background_time = 30 }   -- a short budget keeps the search shallow
local app = dev:install{ bundle = "com.example.upload" }
local task
app:on("applicationDidEnterBackground:", function(ctx)
  task = ctx:begin_background_task("upload")
  ctx:after(20, function() if task then task:finish() task = nil end end)
end)
app:on("applicationWillEnterForeground:", function(ctx)
  task = nil   -- the bug: the task stays open, and nobody ends it
end)

lifesim.invariant("never killed for an open background task", function(d)
  return (d.stats.kills["background-task"] or 0) == 0, "killed for a background task left open"
end)
