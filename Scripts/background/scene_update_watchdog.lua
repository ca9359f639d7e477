-- The scene-update watchdog (0x8badf00d, 10 s): resigning active, becoming active and entering
-- the foreground are transitions the system waits on, in both lifecycle models.
--
-- Source: reference §3.1, "scene-update (foreground/background transitions while running)":
-- 10.00 s in published crash logs, and no watchdog under the debugger.
local h = require "helpers"

-- The watchdog kills of `app` since `since`: "detail at t" each.
local function watchdog_kills(dev, app, since)
  local kills = {}
  for _, r in ipairs(dev.trace:records{ app = app, kind = "kill", since = since }) do
    if r.reason == "watchdog" then
      assert(r.code == "0x8badf00d", "code " .. tostring(r.code))
      kills[#kills + 1] = ("%s at %g"):format(r.detail, r.t)
    end
  end
  return kills
end

lifesim.test("iOS 17: a sceneWillResignActive: that blocks is killed 10 s in", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  notes:on("sceneWillResignActive:", function(ctx) ctx:work(100) end)
  dev:launch(notes)
  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(watchdog_kills(dev, notes, m), { "scene-update at 10" })
  assert(notes.state == "notRunning", "killed, got " .. notes.state)
  -- A SIGKILL runs nothing more: no sceneDidEnterBackground:.
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, { "sceneWillResignActive:" })
end)

lifesim.test("iOS 17: sceneWillEnterForeground: and sceneDidBecomeActive: are watched too", function()
  for _, selector in ipairs{ "sceneWillEnterForeground:", "sceneDidBecomeActive:" } do
    local dev, notes = h.device_with_app({ ios = 17 })
    dev:launch(notes)
    dev:home()
    notes:on(selector, function(ctx) ctx:work(100) end)
    local m = dev:mark()
    dev:launch(notes)
    lifesim.expect_callbacks(watchdog_kills(dev, notes, m), { ("scene-update at %g"):format(dev.now) })
    assert(dev.now == 10, selector .. ": killed 10 s in, at " .. dev.now)
  end
end)

lifesim.test("iOS 12: the app-delegate counterparts are watched the same way", function()
  for _, selector in ipairs{ "applicationWillResignActive:", "applicationWillEnterForeground:",
                             "applicationDidBecomeActive:" } do
    local dev, notes = h.device_with_app({ ios = 12 })
    dev:launch(notes)
    dev:home()
    dev:launch(notes)
    notes:on(selector, function(ctx) ctx:work(100) end)
    local m = dev:mark()
    dev:home()
    dev:launch(notes)
    local kills = watchdog_kills(dev, notes, m)
    assert(#kills == 1 and kills[1]:find("^scene%-update at 10"), selector .. ": " .. table.concat(kills, ", "))
  end
end)

lifesim.test("a handler under the limit, a longer policy, or a debugger: no kill", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  notes:on("sceneWillResignActive:", function(ctx) ctx:work(9) end)
  dev:launch(notes)
  dev:home()
  assert(notes.state == "suspended", "9 s is under the limit, got " .. notes.state)

  dev = h.device_with_app({ ios = 17 })
  dev:policy{ watchdog = { scene_update = 30 } }
  assert(dev:policy().watchdog.scene_update == 30 and dev.profile.scene_update_watchdog == 10)
  local app = dev:install{ bundle = "com.example.slow" }
  app:on("sceneWillResignActive:", function(ctx) ctx:work(25) end)
  dev:launch(app)
  dev:home()
  assert(app.state == "suspended", "within the policy's 30 s, got " .. app.state)

  local debugged = lifesim.device{ ios = 17, debugger = true }
  local slow = debugged:install{ bundle = "com.example.slow" }
  slow:on("sceneWillResignActive:", function(ctx) ctx:work(100) end)
  debugged:launch(slow)
  debugged:home()
  assert(slow.state == "suspended" and debugged.now == 100, "no watchdog under a debugger")
end)

lifesim.test("a launch nearly out of time is not given ten more seconds by its activation", function()
  local dev, notes = h.device_with_app({ ios = 12 })
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx) ctx:work(15) return true end)
  notes:on("applicationDidBecomeActive:", function(ctx) ctx:work(8) end)
  local m = dev:mark()
  dev:launch(notes)
  -- 15 + 8 > 20: the launch watchdog (from the launch) bites first, at 20 s.
  lifesim.expect_callbacks(watchdog_kills(dev, notes, m), { "launch at 20" })
end)
