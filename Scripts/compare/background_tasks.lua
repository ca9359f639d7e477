-- BGTaskScheduler across versions, for `lifesim compare --ios 12 --ios 17 --ios 26`:
-- iOS 12 has no BGTaskScheduler (the app falls back, as its `if #available`
-- would), 13-18 run the refresh in the background, and 26 also continues an
-- export the user started after the app leaves the screen.
local dev = lifesim.device{}   -- no ios: `lifesim compare --ios …` chooses it
local app = dev:install{ bundle = "com.example.feed", scenes = false, background_modes = { "fetch" },
                         background_tasks = { "com.example.feed.refresh", "com.example.feed.export.*" } }

local function available(v) return dev.ios >= v end

if available(13) then
  app:register_task("com.example.feed.refresh", function(ctx, task)
    ctx:work(2)
    task:complete(true)
  end)
else
  dev:log("iOS " .. dev.ios .. ": no BGTaskScheduler (iOS 13+); the app's refresh is left to background fetch")
end

app:on("applicationDidBecomeActive:", function(ctx)
  if not available(26) then return end
  local id = "com.example.feed.export.1"
  app:register_task(id, function(c, task)
    c:after(20, function() task:progress(1); task:complete(true) end)
  end)
  ctx:submit_task{ id = id, kind = "continued", title = "Exporting", subtitle = "feed.pdf" }
end)
app:on("applicationDidEnterBackground:", function(ctx)
  if available(13) then ctx:submit_task{ id = "com.example.feed.refresh", kind = "refresh", earliest = 900 } end
end)

dev:launch(app)
dev:home()
dev:advance(1000)
