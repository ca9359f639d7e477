-- Watchdogs (0x8badf00d): 20 s to launch, 10 s in …DidEnterBackground:, 5 s in applicationWillTerminate:; none under a debugger.
local h = require "helpers"

-- The one kill of `app` since `since`, checked to be a watchdog kill of `detail` at time `t`.
local function expect_watchdog(dev, app, since, detail, t)
  local kills = {}
  for _, r in ipairs(dev.trace:records{ app = app, kind = "kill", since = since }) do
    if r.reason == "watchdog" then kills[#kills + 1] = r end
  end
  assert(#kills == 1, "one watchdog kill, got " .. #kills)
  assert(kills[1].code == "0x8badf00d", "code " .. tostring(kills[1].code))
  assert(kills[1].detail == detail, "detail " .. tostring(kills[1].detail))
  assert(kills[1].t == t, ("at %g s, got %g"):format(t, kills[1].t))
end

local function no_kill(dev, app, since)
  local kills = dev.trace:records{ app = app, kind = "kill", since = since }
  assert(#kills == 0, "no kill, got " .. #kills .. (kills[1] and (" " .. kills[1].reason) or ""))
end

lifesim.test("iOS 12: a launch that takes over 20 s is killed at 20 s, silently", function()
  local dev, notes = h.device_with_app({ ios = 12 })
  local returned = false
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx)
    ctx:work(25)
    returned = true
    return true
  end)
  local m = dev:mark()
  dev:launch(notes)
  expect_watchdog(dev, notes, m, "launch", 20)
  assert(notes.state == "notRunning", "killed, got " .. notes.state)
  assert(not returned, "the handler never returns")
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",  -- no applicationDidBecomeActive:, no applicationWillTerminate:
  })
end)

lifesim.test("iOS 12: the launch watchdog counts the time of every launch callback", function()
  local dev, notes = h.device_with_app({ ios = 12 })
  notes:on("application:willFinishLaunchingWithOptions:", function(ctx) ctx:work(12) return true end)
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx) ctx:work(12) return true end)
  local m = dev:mark()
  dev:launch(notes)
  expect_watchdog(dev, notes, m, "launch", 20)
end)

lifesim.test("iOS 12: 19 s of launch is allowed", function()
  local dev, notes = h.device_with_app({ ios = 12 })
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx) ctx:work(19) return true end)
  local m = dev:mark()
  dev:launch(notes)
  no_kill(dev, notes, m)
  assert(notes.state == "active")
end)

lifesim.test("iOS 17: a scene app's launch watchdog runs to sceneDidBecomeActive:", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  notes:on("scene:willConnectToSession:options:", function(ctx) ctx:work(21) end)
  local m = dev:mark()
  dev:launch(notes)
  expect_watchdog(dev, notes, m, "launch", 20)
  local calls = dev.trace:callbacks{ app = notes, since = m }
  assert(calls[#calls] == "scene:willConnectToSession:options:", "killed inside the connection, last " .. calls[#calls])
end)

lifesim.test("iOS 17: once active, long work is not a launch problem", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  notes:on("sceneDidBecomeActive:", function(ctx)
    ctx:after(1, function(timer) timer:work(60) end)
  end)
  local m = dev:mark()
  dev:launch(notes)
  dev:advance(120)
  no_kill(dev, notes, m)
  assert(notes.state == "active")
end)

lifesim.test("iOS 12: 11 s in applicationDidEnterBackground: is killed at 10 s", function()
  local dev, notes = h.launched({ ios = 12 })
  notes:on("applicationDidEnterBackground:", function(ctx) ctx:work(11) end)
  dev:advance(100)
  local m = dev:mark()
  dev:home()
  expect_watchdog(dev, notes, m, "background", 110)
  assert(notes.state == "notRunning")
  assert(#dev.trace:records{ app = notes, kind = "snapshot", since = m } == 0, "no snapshot")
end)

lifesim.test("iOS 12: 6 s in applicationDidEnterBackground: overruns the documented 5 s but is not killed", function()
  local dev, notes = h.launched({ ios = 12 })
  notes:on("applicationDidEnterBackground:", function(ctx) ctx:work(6) end)
  local m = dev:mark()
  dev:home()
  no_kill(dev, notes, m)
  assert(notes.state == "suspended", "suspended after the snapshot, got " .. notes.state)
end)

lifesim.test("iOS 17: 11 s in sceneDidEnterBackground: is killed at 10 s", function()
  local dev, notes = h.launched({ ios = 17 })
  notes:on("sceneDidEnterBackground:", function(ctx) ctx:work(11) end)
  local m = dev:mark()
  dev:home()
  expect_watchdog(dev, notes, m, "background", 10)
end)

lifesim.test("iOS 17: a background task does not extend the 10 s of sceneDidEnterBackground:", function()
  local dev, notes = h.launched({ ios = 17 })
  notes:on("sceneDidEnterBackground:", function(ctx)
    ctx:begin_background_task("save")
    ctx:work(12)
  end)
  local m = dev:mark()
  dev:home()
  expect_watchdog(dev, notes, m, "background", 10)
end)

lifesim.test("iOS 12: 6 s in applicationWillTerminate: ends at 5 s with a watchdog kill", function()
  local dev, notes = h.launched({ ios = 12 })
  notes:on("applicationWillTerminate:", function(ctx) ctx:work(6) end)
  dev:switcher()
  local m = dev:mark()
  dev:kill(notes)
  expect_watchdog(dev, notes, m, "terminate", 5)
  assert(notes.state == "notRunning")
end)

lifesim.test("iOS 12: 4 s in applicationWillTerminate: is allowed", function()
  local dev, notes = h.launched({ ios = 12 })
  notes:on("applicationWillTerminate:", function(ctx) ctx:work(4) end)
  dev:switcher()
  local m = dev:mark()
  dev:kill(notes)
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "user", "only the user's kill")
end)

lifesim.test("debugger = true: no watchdog bites, at launch, backgrounding or termination", function()
  local dev, notes = h.device_with_app({ ios = 12, debugger = true })
  local finished = {}
  local function slow(name)
    return function(ctx)
      ctx:work(60)
      finished[#finished + 1] = name
      return true
    end
  end
  notes:on("application:didFinishLaunchingWithOptions:", slow("launch"))
  notes:on("applicationDidEnterBackground:", slow("background"))
  notes:on("applicationWillTerminate:", slow("terminate"))
  local m = dev:mark()
  dev:launch(notes)
  assert(notes.state == "active", "launched after 60 s, got " .. notes.state)
  dev:home()
  assert(notes.state == "suspended", "backgrounded after 60 s, got " .. notes.state)
  dev:launch(notes)
  dev:switcher()
  dev:kill(notes)
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "user", "only the user's kill")
  -- The force-quit of the frontmost app-delegate app enters the background first (§2.6 a).
  assert(table.concat(finished, ",") == "launch,background,background,terminate", table.concat(finished, ","))
  assert(dev.now == 240, "every handler ran its 60 s, now " .. dev.now)
end)

lifesim.test("debugger = true on iOS 17: the scene callbacks are not watched either", function()
  local dev, notes = h.device_with_app({ ios = 17, debugger = true })
  notes:on("scene:willConnectToSession:options:", function(ctx) ctx:work(30) end)
  notes:on("sceneDidEnterBackground:", function(ctx) ctx:work(30) end)
  local m = dev:mark()
  dev:launch(notes)
  dev:home()
  no_kill(dev, notes, m)
  assert(notes.state == "suspended")
end)
