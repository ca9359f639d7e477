-- Prewarming (iOS 15+): the system starts the app's process before the user's tap; the launch methods run with no scene, and the tap reuses the process.
local h = require "helpers"

local LAUNCH = { "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:" }
local AVAILABLE = "applicationProtectedDataDidBecomeAvailable:"

-- An app that records, in each launch method, what its code could read.
local function install_probe(dev, options)
  local seen = {}
  local config = { bundle = "com.example.notes" }
  for k, v in pairs(options or {}) do config[k] = v end
  local app = dev:install(config)
  local function probe(ctx)
    seen[#seen + 1] = {
      callback = ctx.callback,
      prewarm = ctx.environment.ActivePrewarm,
      protected = ctx.protected_data_available,
    }
    return true
  end
  for _, selector in ipairs(LAUNCH) do app:on(selector, probe) end
  app:observe("UIApplicationDidBecomeActiveNotification", probe)
  return app, seen
end

lifesim.test("iOS 15: a scene app's prewarm runs the launch methods, connects no scene, and holds the process", function()
  local dev = lifesim.device{ ios = 15 }
  local notes, seen = install_probe(dev)
  local m = dev:mark()
  dev:prewarm(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, LAUNCH)
  assert(notes.state == "suspended", "held until the tap, got " .. notes.state)
  assert(#notes.scenes == 0, "no scene, and no configuration was asked for")
  assert(seen[1].prewarm == "1" and seen[2].prewarm == "1", "ActivePrewarm = 1 in the launch methods on iOS 15")
  assert(seen[1].protected == true, "an unlocked device: protected data is available")
  local pid = notes.pid

  dev:advance(2 * 3600)   -- hours may pass before the tap
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:configurationForConnectingSceneSession:options:",
    "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(notes.pid == pid and notes.launches == 1, "the tap reuses the prewarmed process")
  assert(seen[3].callback == "UIApplicationDidBecomeActiveNotification" and seen[3].prewarm == nil,
    "ActivePrewarm is gone by UIApplicationDidBecomeActiveNotification")
end)

lifesim.test("iOS 15: prewarmed while locked with a passcode, protected data is unavailable; the tap makes it available before the scene connects", function()
  local dev = lifesim.device{ ios = 15, passcode = true }
  local notes, seen = install_probe(dev)
  dev:lock()
  dev:advance(10)          -- protected data goes 10 s after the lock
  dev:prewarm(notes)
  assert(seen[2].callback == LAUNCH[2] and seen[2].protected == false,
    "didFinishLaunching ran without protected data")
  dev:unlock()             -- the suspended process hears nothing
  local m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    AVAILABLE,
    "application:configurationForConnectingSceneSession:options:",
    "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
end)

for _, ios in ipairs({ 16, 17, 18 }) do
  lifesim.test("iOS " .. ios .. ": the launch methods still run during a prewarm, with no ActivePrewarm", function()
    local dev = lifesim.device{ ios = ios }
    local notes, seen = install_probe(dev, { scenes = false })
    dev:prewarm(notes)
    lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = notes }, LAUNCH), LAUNCH)
    assert(seen[1].prewarm == nil and seen[2].prewarm == nil, "ActivePrewarm is not set from iOS 16")
    assert(notes.state == "suspended")
    local m = dev:mark()
    dev:launch(notes)
    lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = notes, since = m }, {
      "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
      "applicationWillEnterForeground:", "applicationDidBecomeActive:",
    }), { "applicationWillEnterForeground:", "applicationDidBecomeActive:" })
  end)
end

lifesim.test("iOS 18, Apple DTS's account (quirk): the prewarm runs no launch methods; the tap is a cold launch", function()
  local dev = lifesim.device{ ios = 18, quirks = { prewarm_skips_launch_methods = true } }
  local notes = install_probe(dev, { scenes = false })
  local m = dev:mark()
  dev:prewarm(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
  assert(notes.state == "notRunning")
  dev:launch(notes)
  lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = notes, since = m }, LAUNCH), LAUNCH)
end)

lifesim.test("iOS 12: no prewarming; a log record says so and the tap is a cold launch", function()
  local dev = lifesim.device{ ios = 12 }
  local notes = install_probe(dev)
  local m = dev:mark()
  dev:prewarm(notes)
  assert(notes.state == "notRunning")
  local logs = dev.trace:records{ kind = "log", since = m }
  assert(#logs == 1 and logs[1].detail:find("does not prewarm", 1, true), "a log record explains it")
  assert(dev.profile.prewarming == false and lifesim.device{ ios = 15 }.profile.prewarming == true)
end)

lifesim.test("a process killed in a prewarm's launch methods is gone; the tap launches the app cold", function()
  local dev = lifesim.device{ ios = 17, memory_mb = 4000 }
  local notes = dev:install{ bundle = "com.example.notes" }
  local first = true
  notes:on(LAUNCH[1], function(ctx)
    if first then first = false; ctx:allocate(3000) end   -- past its own limit, once
  end)
  local m = dev:mark()
  dev:prewarm(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, { LAUNCH[1] })
  assert(notes.state == "notRunning" and notes.launches == 1, "killed during the prewarm")
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = notes, since = m }, LAUNCH), LAUNCH)
  assert(notes.launches == 2 and notes.state == "active", "a cold launch at the tap")
end)
