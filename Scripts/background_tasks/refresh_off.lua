-- Background App Refresh off (reference §3.5): the switch in Settings, for
-- the device or for one app, and Low Power Mode, which turns it off while it
-- lasts. BGTaskScheduler's submit then fails with `unavailable`, a pending
-- request waits until the switch is on again, and background fetch stops.

local REFRESH = "com.example.feed.refresh"

local function feed()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.feed", background_modes = { "fetch" }, background_tasks = { REFRESH } }
  local runs = {}
  app:register_task(REFRESH, function(_, task)
    runs[#runs + 1] = dev.now
    task:complete(true)
  end)
  return dev, app, runs
end

local error_of = require("helpers").error_of

lifesim.test("Low Power Mode holds a pending refresh request until it ends", function()
  local dev, app, runs = feed()
  app:on("sceneDidEnterBackground:", function(ctx) ctx:submit_task{ id = REFRESH, kind = "refresh", earliest = 600 } end)
  dev:launch(app)
  dev:home()
  dev:low_power_mode(true)
  assert(app.background_refresh_status == "denied", app.background_refresh_status)
  dev:advance(3600)
  assert(#runs == 0, "no run in Low Power Mode")
  dev:low_power_mode(false)
  assert(app.background_refresh_status == "available")
  assert(#runs == 1 and runs[1] == 3600, "it runs when Low Power Mode ends: " .. tostring(runs[1]))
end)

lifesim.test("with the switch off, submit fails as iOS fails it: unavailable", function()
  local dev, app = feed()
  local message
  app:on("sceneDidEnterBackground:", function(ctx)
    message = error_of(function() ctx:submit_task{ id = REFRESH, kind = "refresh", earliest = 600 } end)
  end)
  dev:background_refresh(app, false)
  dev:launch(app)
  dev:home()
  assert(message and message:find("BGTaskSchedulerErrorCodeUnavailable: the app's Background App Refresh switch is off (Settings)", 1, true), message)
  dev:background_refresh(app, true)
  dev:background_refresh(false)
  dev:launch(app)
  dev:home()
  assert(message:find("Background App Refresh is off for the device", 1, true), message)
end)

lifesim.test("background fetch does not happen while Background App Refresh is off", function()
  local dev = lifesim.device{ ios = 12 }
  local app = dev:install{ bundle = "com.example.mail", background_modes = { "fetch" } }
  dev:launch(app)
  dev:home()
  dev:background_refresh(false)
  local message = error_of(function() dev:background_fetch(app) end)
  assert(message and message:find("Background App Refresh is off for the device", 1, true), message)
  dev:background_refresh(true)
  dev:background_fetch(app)
  assert(app.state == "suspended" or app.state == "background", app.state)
end)

lifesim.test("a wrong identifier is named whatever the setting, and a wrong argument is named", function()
  local dev, app = feed()
  dev:low_power_mode(true)
  local message = error_of(function() app:submit_task{ id = "com.example.nope", kind = "refresh" } end)
  assert(message and message:find("is not in BGTaskSchedulerPermittedIdentifiers", 1, true), message)
  -- Named as the script called it: app:submit_task outside any handler.
  assert(message:find("app:submit_task: com.example.feed: ", 1, true), message)
  local bad = error_of(function() dev:background_refresh(1) end)
  assert(bad and bad:find("true, false or an app expected, got number", 1, true), bad)
end)
