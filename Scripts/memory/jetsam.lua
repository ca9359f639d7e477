-- Jetsam: memory warnings before kills, suspended apps first (least recently used first), silent kills, the per-process limit, and cold relaunches.

-- A device with 1000 MB of RAM: warnings from 850 MB, jetsam above 950 MB,
-- and a per-process limit of 500 MB (half the RAM when no model is given).
local function device(ios)
  return lifesim.device{ ios = ios or 12, memory_mb = 1000 }
end

-- Launch `app`, then press Home: it is suspended, holding its memory.
local function use_then_leave(dev, app)
  dev:launch(app)
  dev:advance(1)
  dev:home()
  dev:advance(1)
end

-- The memory, kill and memory-warning records since `since`, as short strings
-- in trace order: "memory warning 900/1000 MB", "kill a vm-pageshortage",
-- "warn c" (applicationDidReceiveMemoryWarning:).
local function pressure_events(dev, since)
  local out = {}
  for _, r in ipairs(dev.trace:records{ since = since }) do
    if r.kind == "memory" then
      out[#out + 1] = "memory " .. r.detail
    elseif r.kind == "kill" then
      out[#out + 1] = "kill " .. r.app .. " " .. r.reason
    elseif r.kind == "callback" and r.callback == "applicationDidReceiveMemoryWarning:" then
      out[#out + 1] = "warn " .. r.app
    end
  end
  return out
end

lifesim.test("suspended apps keep their memory: it counts until jetsam takes it", function()
  local dev = device()
  local a = dev:install{ bundle = "a", footprint_mb = 300 }
  local b = dev:install{ bundle = "b", footprint_mb = 200 }
  use_then_leave(dev, a)
  assert(a.state == "suspended" and a.footprint_mb == 300, tostring(a))
  dev:launch(b)
  assert(dev.memory_used_mb == 500, "300 MB suspended + 200 MB in the foreground, got " .. dev.memory_used_mb)
  assert(dev.memory_level == "normal", dev.memory_level)
  assert(a.band == 0 and b.band == 10, "suspended band 0, foreground band 10")
end)

lifesim.test("the warning level: running apps are warned, suspended ones are not, nothing is killed", function()
  local dev = device()
  local a = dev:install{ bundle = "a", footprint_mb = 300 }
  local b = dev:install{ bundle = "b", footprint_mb = 100 }
  local c = dev:install{ bundle = "c", footprint_mb = 100 }
  use_then_leave(dev, a)
  -- b keeps running in the background with an open background task.
  b:on("applicationDidEnterBackground:", function(ctx) ctx:begin_background_task("upload") end)
  use_then_leave(dev, b)
  assert(b.state == "background" and b.band == 3, "b runs in the background, band 3, got " .. b.state)
  c:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(400) end)

  local m = dev:mark()
  dev:launch(c)  -- 300 + 100 + 500 = 900 MB: at least 85 %, not above 95 %

  lifesim.expect_callbacks(pressure_events(dev, m), {
    "memory warning 900/1000 MB",
    "warn b",  -- install order among the running apps
    "warn c",
  })
  assert(dev.memory_level == "warning", dev.memory_level)
  assert(a.state == "suspended" and b.state == "background" and c.state == "active", "nobody was killed")
end)

lifesim.test("critical pressure: the warning goes out before the kill, at the same time", function()
  local dev = device()
  local a = dev:install{ bundle = "a", footprint_mb = 500 }
  local c = dev:install{ bundle = "c", footprint_mb = 300 }
  use_then_leave(dev, a)
  c:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(200) end)

  local m = dev:mark()
  dev:launch(c)  -- 500 + 500 = 1000 MB > 950 MB

  lifesim.expect_callbacks(pressure_events(dev, m), {
    "memory critical 1000/1000 MB",
    "warn c",                       -- the foreground app is warned first
    "kill a vm-pageshortage",       -- then the suspended app is killed
    "memory normal 500/1000 MB",
  })
  local kill = dev.trace:records{ app = a, kind = "kill", since = m }[1]
  local warn = dev.trace:records{ app = c, kind = "callback", since = m }
  assert(kill.t == warn[#warn].t, "the kill comes at the time of the warning")
  assert(kill.code == nil, "a jetsam kill has no exception code")
  assert(a.state == "notRunning" and c.state == "active")
  assert(dev.memory_used_mb == 500, dev.memory_used_mb)
end)

lifesim.test("a warning handler that frees enough memory averts the kill", function()
  local dev = device()
  local a = dev:install{ bundle = "a", footprint_mb = 500 }
  local c = dev:install{ bundle = "c", footprint_mb = 300 }
  use_then_leave(dev, a)
  c:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(200) end)
  c:on("applicationDidReceiveMemoryWarning:", function(ctx) ctx:release(150) end)  -- drop caches

  local m = dev:mark()
  dev:launch(c)

  lifesim.expect_callbacks(pressure_events(dev, m), {
    "memory critical 1000/1000 MB",
    "warn c",
    "memory warning 850/1000 MB",  -- still high, but no longer above the jetsam level
  })
  assert(a.state == "suspended", "the suspended app survives, got " .. a.state)
  assert(c.footprint_mb == 350, c.footprint_mb)
end)

lifesim.test("suspended apps go first, least recently used first", function()
  local dev = device()
  local a = dev:install{ bundle = "a", footprint_mb = 250 }
  local b = dev:install{ bundle = "b", footprint_mb = 250 }
  local c = dev:install{ bundle = "c", footprint_mb = 250 }
  local d = dev:install{ bundle = "d", footprint_mb = 100 }
  use_then_leave(dev, a)
  use_then_leave(dev, b)
  use_then_leave(dev, c)
  use_then_leave(dev, a)  -- a used again: b is now the least recently used
  d:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(400) end)

  local m = dev:mark()
  dev:launch(d)  -- 750 + 500 = 1250 MB: one kill leaves 1000 MB, two leave 750 MB

  lifesim.expect_callbacks(pressure_events(dev, m), {
    "memory critical 1250/1000 MB",
    "warn d",
    "kill b vm-pageshortage",
    "kill c vm-pageshortage",
    "memory normal 750/1000 MB",
  })
  assert(a.state == "suspended", "the most recently used suspended app survives, got " .. a.state)
end)

lifesim.test("band before recency: a background-running app outlives an idle one used later", function()
  local dev = device()
  local a = dev:install{ bundle = "a", footprint_mb = 300 }
  local b = dev:install{ bundle = "b", footprint_mb = 300 }
  local c = dev:install{ bundle = "c", footprint_mb = 300 }
  a:on("applicationDidEnterBackground:", function(ctx) ctx:begin_background_task("export") end)
  use_then_leave(dev, a)   -- used first, but still running: band 3
  use_then_leave(dev, b)   -- used later, suspended: band 0
  assert(a.band == 3 and b.band == 0, "bands " .. a.band .. " and " .. b.band)
  c:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(100) end)

  local m = dev:mark()
  dev:launch(c)  -- 1000 MB

  lifesim.expect_callbacks(pressure_events(dev, m), {
    "memory critical 1000/1000 MB",
    "warn a",  -- a runs code, so it is warned
    "warn c",
    "kill b vm-pageshortage",
    "memory normal 700/1000 MB",
  })
  assert(a.state == "background" and b.state == "notRunning")
end)

lifesim.test("a jetsam kill is silent: no callback, no applicationWillTerminate:, even for a running app", function()
  local dev = device()
  local a = dev:install{ bundle = "a", footprint_mb = 500 }
  local c = dev:install{ bundle = "c", footprint_mb = 100 }
  local terminated = false
  a:on("applicationDidEnterBackground:", function(ctx) ctx:begin_background_task("sync") end)
  a:on("applicationWillTerminate:", function(ctx) terminated = true end)
  use_then_leave(dev, a)
  assert(a.state == "background", "a runs in the background, got " .. a.state)
  c:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(400) end)

  local m = dev:mark()
  dev:launch(c)  -- 1000 MB; a is the only app below the foreground band

  lifesim.expect_callbacks(pressure_events(dev, m), {
    "memory critical 1000/1000 MB", "warn a", "warn c", "kill a vm-pageshortage", "memory normal 500/1000 MB",
  })
  local after_kill = false
  local calls = {}
  for _, r in ipairs(dev.trace:records{ app = a, since = m }) do
    if r.kind == "kill" then after_kill = true end
    if after_kill and (r.kind == "callback" or r.kind == "notification") then calls[#calls + 1] = r.callback end
  end
  lifesim.expect_callbacks(calls, {})
  assert(not terminated, "applicationWillTerminate: must not run")
  assert(a.state == "notRunning" and a.pid == nil)
end)

lifesim.test("the per-process limit kills even the foreground app, in the middle of its handler", function()
  local dev = device()
  local c = dev:install{ bundle = "c", footprint_mb = 100 }
  assert(dev.per_process_limit_mb == 500, tostring(dev.per_process_limit_mb))
  local after_allocate = false
  c:on("applicationDidBecomeActive:", function(ctx)
    ctx:allocate(401)          -- 501 MB: over the 500 MB limit
    after_allocate = true      -- never reached: the process is gone
  end)

  local m = dev:mark()
  dev:launch(c)

  local kills = dev.trace:records{ app = c, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "per-process-limit", "one per-process-limit kill")
  assert(not after_allocate, "the handler stops at the allocation")
  assert(c.state == "notRunning" and dev.frontmost == nil, "the foreground app is gone")
  assert(dev.memory_level == "normal" and dev.memory_used_mb == 0, "the device is not under pressure")
  lifesim.expect_callbacks(pressure_events(dev, m), { "kill c per-process-limit" })  -- no warning first
end)

lifesim.test("up to the per-process limit is allowed", function()
  local dev = device()
  local c = dev:install{ bundle = "c", footprint_mb = 100 }
  c:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(400) end)  -- exactly 500 MB
  dev:launch(c)
  assert(c.state == "active" and c.footprint_mb == 500, tostring(c))
end)

lifesim.test("iPhone 11: 3844 MB of RAM and a 2068 MB per-process limit", function()
  local dev = lifesim.device{ ios = 13, model = "iPhone 11" }
  local game = dev:install{ bundle = "com.example.game", footprint_mb = 2000 }
  game:on("sceneDidBecomeActive:", function(ctx) ctx:allocate(68) end)  -- 2068 MB: at the limit
  dev:launch(game)
  assert(game.state == "active", game.state)
  game:on("sceneWillResignActive:", function(ctx) ctx:allocate(1) end)    -- 2069 MB: over it
  local m = dev:mark()
  dev:interrupt("call")
  local kills = dev.trace:records{ app = game, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "per-process-limit")
  assert(game.state == "notRunning")
end)

lifesim.test("memory_level follows the pressure, and every change is recorded", function()
  local dev = device()
  local a = dev:install{ bundle = "a", footprint_mb = 400 }
  local c = dev:install{ bundle = "c", footprint_mb = 100 }
  local b = dev:install{ bundle = "b", footprint_mb = 100 }
  use_then_leave(dev, a)
  use_then_leave(dev, b)
  dev:launch(c)
  local levels = {}
  -- Each step: an alert makes c resign active, and its handler changes its footprint.
  local function step(fn)
    c:on("applicationWillResignActive:", fn)
    dev:interrupt("alert")
    dev:end_interrupt()
    levels[#levels + 1] = string.format("%s %g", dev.memory_level, dev.memory_used_mb)
  end

  local m = dev:mark()
  step(function(ctx) ctx:allocate(100) end)   -- 700: normal
  step(function(ctx) ctx:allocate(150) end)   -- 850: warning (85 %)
  step(function(ctx) ctx:allocate(100) end)   -- 950: still a warning (jetsam is above 95 %)
  step(function(ctx) ctx:allocate(1) end)     -- 951: critical; a (least recently used) is killed: 551
  step(function(ctx) ctx:release(251) end)    -- 300: normal

  lifesim.expect_callbacks(levels, { "normal 700", "warning 850", "warning 950", "normal 551", "normal 300" })
  local memory = {}
  for _, r in ipairs(dev.trace:records{ kind = "memory", since = m }) do memory[#memory + 1] = r.detail end
  lifesim.expect_callbacks(memory, { "warning 850/1000 MB", "critical 951/1000 MB", "normal 551/1000 MB" })
  assert(a.state == "notRunning" and b.state == "suspended", "the kill at 951 MB took a, not b")
end)

lifesim.test("iOS 12: a jetsammed app relaunches cold, with a new process", function()
  local dev = device(12)
  local a = dev:install{ bundle = "a", footprint_mb = 500 }
  local c = dev:install{ bundle = "c", footprint_mb = 500 }
  use_then_leave(dev, a)
  local old_pid = a.pid
  dev:launch(c)  -- 1000 MB
  assert(a.state == "notRunning", "a was jetsammed, got " .. a.state)
  dev:kill(c)  -- make room, so that the relaunch causes no pressure
  dev:home()

  local m = dev:mark()
  dev:launch(a)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = a, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
  })
  assert(a.launches == 2 and a.pid ~= old_pid, "a second launch, a new pid")
  assert(a.footprint_mb == 500, "the footprint starts again from the installed value")
end)

lifesim.test("iOS 17: a jetsammed scene app restores its session, without a configuration request", function()
  local dev = device(17)
  local a = dev:install{ bundle = "a", footprint_mb = 500 }
  local c = dev:install{ bundle = "c", footprint_mb = 500 }
  use_then_leave(dev, a)
  local session = a.scenes[1]
  dev:launch(c)
  assert(a.state == "notRunning", "a was jetsammed, got " .. a.state)
  assert(#a.scenes == 1 and a.scenes[1] == session and session.state == "unattached",
         "the session survives the kill, unattached")
  dev:kill(c)  -- make room, so that the relaunch causes no pressure
  dev:home()

  local m = dev:mark()
  dev:launch(a)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = a, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "scene:willConnectToSession:options:",  -- no configurationForConnectingSceneSession:, no discard
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(a.scenes[1] == session and session.state == "foregroundActive", "the same session, number 1")
end)

lifesim.test("iOS 12: an app that arrives at the warning level is warned before the kill", function()
  local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
  local a = dev:install{ bundle = "com.example.a", footprint_mb = 450 }
  local b = dev:install{ bundle = "com.example.b", footprint_mb = 400 }
  local d = dev:install{ bundle = "com.example.d", footprint_mb = 100 }
  d:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(100) end)
  dev:launch(a); dev:home()
  dev:launch(b); dev:home()
  assert(dev.memory_level == "warning")

  local m = dev:mark()
  dev:launch(d)                                  -- 1050 MB: critical
  local seen = {}
  for _, r in ipairs(dev.trace:records{ since = m }) do
    if r.kind == "kill" then seen[#seen + 1] = "kill " .. r.app end
    if r.callback == "applicationDidReceiveMemoryWarning:" then seen[#seen + 1] = "warn " .. r.app end
  end
  assert(table.concat(seen, ", ") == "warn com.example.d, kill com.example.a", table.concat(seen, ", "))
end)
