-- dev:policy{ ... }: each OS policy can be overridden and the override changes behaviour; nonsense from a policy function stops with an error naming it.

-- The kill records of `app` since `since`, as "t reason [code] [detail]".
local function kills(dev, app, since)
  local out = {}
  for _, r in ipairs(dev.trace:records{ app = app, kind = "kill", since = since }) do
    local line = string.format("%g %s", r.t, r.reason)
    if r.code then line = line .. " " .. r.code end
    if r.detail then line = line .. " " .. r.detail end
    out[#out + 1] = line
  end
  return out
end

-- The times of `app`'s records of `kind` (and, if given, callback `selector`) since `since`.
local function times(dev, app, kind, selector, since)
  local out = {}
  for _, r in ipairs(dev.trace:records{ app = app, kind = kind, since = since }) do
    if selector == nil or r.callback == selector then out[#out + 1] = string.format("%g", r.t) end
  end
  return table.concat(out, ",")
end

lifesim.test("dev:policy() returns the policies in force; an override keeps the others", function()
  local dev = lifesim.device{ ios = 17 }
  local p = dev:policy()
  assert(p.background_time == 30 and p.expiration_lead == 5, "iOS 17 budget 30 s, lead 5 s")
  assert(p.watchdog.launch == 20 and p.watchdog.background == 10 and p.watchdog.terminate == 5, "watchdogs 20/10/5")
  assert(p.memory_warning_at == 0.85 and p.jetsam_at == 0.95, "memory 0.85/0.95")
  assert(p.background_window == 30 and p.protected_data_delay == 10, "window 30 s, protected data 10 s")
  assert(p.choose_victim == nil and p.reclaim_scene_mb == nil, "no victim function, no scene reclaim")
  assert(lifesim.device{ ios = 12 }:policy().background_time == 180, "iOS 12 budget 180 s")

  local chooser = function(d, candidates) return candidates[1] end
  dev:policy{ background_time = 60, watchdog = { launch = 3 }, choose_victim = chooser }
  p = dev:policy()
  assert(p.background_time == 60 and p.watchdog.launch == 3 and p.choose_victim == chooser, "overridden")
  assert(p.watchdog.background == 10 and p.expiration_lead == 5 and p.jetsam_at == 0.95, "the rest kept")
end)

-- An iOS 17 app that opens a background task when it leaves the screen and never ends it.
local function task_app(dev, bundle, on_expire)
  local app = dev:install{ bundle = bundle or "com.example.upload" }
  app:on("sceneDidEnterBackground:", function(ctx) ctx:begin_background_task("upload", on_expire) end)
  return app
end

lifesim.test("background_time = 60: the budget, the expiration and the kill move", function()
  local function run(policy)
    local dev = lifesim.device{ ios = 17 }
    if policy then dev:policy(policy) end
    local app = task_app(dev)
    dev:launch(app)
    local m = dev:mark()
    dev:home()
    local remaining = app.background_time_remaining
    dev:advance(100)
    return remaining, times(dev, app, "expire", nil, m), kills(dev, app, m)
  end
  local remaining, expired, killed = run(nil)
  assert(remaining == 30 and expired == "25", "default: 30 s, expiration at 25 s")
  lifesim.expect_callbacks(killed, { "30 background-task 0x2182bad2" })
  remaining, expired, killed = run{ background_time = 60 }
  assert(remaining == 60 and expired == "55", "override: 60 s, expiration at 55 s, got " .. remaining .. " " .. expired)
  lifesim.expect_callbacks(killed, { "60 background-task 0x2182bad2" })
end)

lifesim.test("background_time as a function: a budget per app, asked at each backgrounding", function()
  local dev = lifesim.device{ ios = 17 }
  local asked = {}
  dev:policy{ background_time = function(app)
    asked[#asked + 1] = app.bundle
    return app.bundle == "com.example.long" and 100 or 10
  end }
  local long = task_app(dev, "com.example.long")
  local short = task_app(dev, "com.example.short")
  local m = dev:mark()
  dev:launch(long)
  dev:launch(short)  -- long leaves the screen at 0
  dev:home()         -- short leaves the screen at 0
  assert(long.background_time_remaining == 100 and short.background_time_remaining == 10,
         long.background_time_remaining .. " and " .. short.background_time_remaining)
  dev:advance(200)
  assert(table.concat(asked, ",") == "com.example.long,com.example.short", table.concat(asked, ","))
  lifesim.expect_callbacks(kills(dev, long, m), { "100 background-task 0x2182bad2" })
  lifesim.expect_callbacks(kills(dev, short, m), { "10 background-task 0x2182bad2" })
end)

lifesim.test("expiration_lead = 2: the expiration handler runs 2 s before the limit instead of 5 s", function()
  local function run(policy)
    local dev = lifesim.device{ ios = 17 }
    if policy then dev:policy(policy) end
    local expired_at
    local app = task_app(dev, nil, function(task) expired_at = dev.now; task:finish() end)
    dev:launch(app)
    dev:home()
    dev:advance(100)
    assert(app.state == "suspended", "the handler ends the task, so the app is suspended, not killed")
    return expired_at
  end
  assert(run(nil) == 25, "default: 30 - 5")
  assert(run{ expiration_lead = 2 } == 28, "override: 30 - 2")
end)

lifesim.test("watchdog.launch = 3: a 4 s didFinishLaunching is killed at 3 s", function()
  local function run(policy)
    local dev = lifesim.device{ ios = 12 }
    if policy then dev:policy(policy) end
    local app = dev:install{ bundle = "com.example.slow" }
    app:on("application:didFinishLaunchingWithOptions:", function(ctx) ctx:work(4); return true end)
    local m = dev:mark()
    dev:launch(app)
    return app.state, kills(dev, app, m)
  end
  local state, killed = run(nil)
  assert(state == "active", "default: 4 s is within the 20 s launch watchdog")
  lifesim.expect_callbacks(killed, {})
  state, killed = run{ watchdog = { launch = 3 } }
  assert(state == "notRunning", state)
  lifesim.expect_callbacks(killed, { "3 watchdog 0x8badf00d launch" })
end)

lifesim.test("watchdog.background = 2: a 3 s applicationDidEnterBackground: is killed at 2 s", function()
  local function run(policy)
    local dev = lifesim.device{ ios = 12 }
    if policy then dev:policy(policy) end
    local app = dev:install{ bundle = "com.example.slow" }
    app:on("applicationDidEnterBackground:", function(ctx) ctx:work(3) end)
    dev:launch(app)
    local m = dev:mark()
    dev:home()
    return app.state, kills(dev, app, m)
  end
  local state, killed = run(nil)
  assert(state == "suspended", "default: 3 s is within the 10 s background watchdog")
  lifesim.expect_callbacks(killed, {})
  state, killed = run{ watchdog = { background = 2 } }
  assert(state == "notRunning", state)
  lifesim.expect_callbacks(killed, { "2 watchdog 0x8badf00d background" })
end)

lifesim.test("watchdog.terminate = 1: a 2 s applicationWillTerminate: is cut short at 1 s", function()
  local function run(policy)
    local dev = lifesim.device{ ios = 12 }
    if policy then dev:policy(policy) end
    local app = dev:install{ bundle = "com.example.slow" }
    local finished = false
    app:on("applicationWillTerminate:", function(ctx) ctx:work(2); finished = true end)
    dev:launch(app)
    local m = dev:mark()
    dev:kill(app)
    return finished, kills(dev, app, m)
  end
  -- The process dies when applicationWillTerminate: returns, so the force-quit's
  -- kill record carries that time; a watchdog that ends it first is
  -- the one death recorded.
  local finished, killed = run(nil)
  assert(finished, "default: 2 s is within the 5 s terminate watchdog")
  lifesim.expect_callbacks(killed, { "2 user" })
  finished, killed = run{ watchdog = { terminate = 1 } }
  assert(not finished, "the handler does not finish")
  lifesim.expect_callbacks(killed, { "1 watchdog 0x8badf00d terminate" })
end)

-- 1000 MB of RAM: a suspended app of `a_mb`, then a foreground app of `b_mb`.
-- Returns the memory records and the suspended app's state.
local function pressure(policy, a_mb, b_mb)
  local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
  if policy then dev:policy(policy) end
  local a = dev:install{ bundle = "a", footprint_mb = a_mb }
  local b = dev:install{ bundle = "b", footprint_mb = b_mb }
  dev:launch(a)
  dev:home()
  local m = dev:mark()
  dev:launch(b)
  local memory = {}
  for _, r in ipairs(dev.trace:records{ kind = "memory", since = m }) do memory[#memory + 1] = r.detail end
  return memory, a.state, dev.trace:callbacks{ app = b, since = m }
end

lifesim.test("memory_warning_at = 0.5: 600 MB of 1000 is already a warning", function()
  local memory, a_state, calls = pressure(nil, 300, 300)
  lifesim.expect_callbacks(memory, {})
  assert(a_state == "suspended")
  memory, a_state, calls = pressure({ memory_warning_at = 0.5 }, 300, 300)
  lifesim.expect_callbacks(memory, { "warning 600/1000 MB" })
  assert(calls[#calls] == "applicationDidReceiveMemoryWarning:", "the foreground app is warned")
  assert(a_state == "suspended", "a warning kills nobody")
end)

lifesim.test("jetsam_at = 0.88: 900 MB of 1000 is critical, and the suspended app is killed", function()
  local memory, a_state = pressure(nil, 400, 500)
  lifesim.expect_callbacks(memory, { "warning 900/1000 MB" })
  assert(a_state == "suspended", "default: 900 MB is only a warning")
  memory, a_state = pressure({ jetsam_at = 0.88 }, 400, 500)
  lifesim.expect_callbacks(memory, { "critical 900/1000 MB", "normal 500/1000 MB" })
  assert(a_state == "notRunning", a_state)
end)

lifesim.test("reclaim_scene_mb = 100: jetsam disconnects a background scene before it kills an app", function()
  local function run(policy)
    local dev = lifesim.device{ ios = 17, memory_mb = 1000 }
    if policy then dev:policy(policy) end
    local other = dev:install{ bundle = "com.example.other", footprint_mb = 500, scenes = false }
    local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 400 }
    notes:on("sceneDidBecomeActive:", function(ctx)
      if ctx.scene.id == 2 then ctx:allocate(100) end  -- 1000 MB with the second window
    end)
    dev:launch(other)
    dev:home()
    dev:launch(notes)
    local m = dev:mark()
    notes:open_scene()  -- scene 1 goes to the background
    local disconnects = 0
    for _, c in ipairs(dev.trace:callbacks{ app = notes, since = m }) do
      if c == "sceneDidDisconnect:" then disconnects = disconnects + 1 end
    end
    return other.state, notes.scenes[1].connected, disconnects, notes.footprint_mb
  end
  local other, connected, disconnects, footprint = run(nil)
  assert(other == "notRunning" and connected and disconnects == 0, "default: the suspended app is killed")
  other, connected, disconnects, footprint = run{ reclaim_scene_mb = 100 }
  assert(other == "suspended", "the other app survives, got " .. other)
  assert(not connected and disconnects == 1, "scene 1 was disconnected")
  assert(footprint == 400, "the scene gave back 100 MB, footprint " .. footprint)
end)

lifesim.test("background_window = 5: a background fetch runs 5 s before the app is suspended, not 30 s", function()
  local function run(policy)
    local dev = lifesim.device{ ios = 12 }
    if policy then dev:policy(policy) end
    local app = dev:install{ bundle = "com.example.news", background_modes = { "fetch" } }
    local m = dev:mark()
    dev:background_fetch(app)
    assert(app.state == "background", "launched into the background")
    dev:advance(60)
    return times(dev, app, "snapshot", nil, m), app.state
  end
  local snapshot, state = run(nil)
  assert(snapshot == "30" and state == "suspended", "default window 30 s, got " .. snapshot)
  snapshot, state = run{ background_window = 5 }
  assert(snapshot == "5" and state == "suspended", "override 5 s, got " .. snapshot)
end)

lifesim.test("protected_data_delay = 3: protected data goes 3 s after the lock instead of 10 s", function()
  local function run(policy)
    local dev = lifesim.device{ ios = 12, passcode = true }
    if policy then dev:policy(policy) end
    local app = dev:install{ bundle = "com.example.vault" }
    app:on("applicationDidEnterBackground:", function(ctx) ctx:begin_background_task("keep running") end)
    dev:launch(app)
    local m = dev:mark()
    dev:lock()
    dev:advance(30)
    return times(dev, app, "callback", "applicationProtectedDataWillBecomeUnavailable:", m)
  end
  assert(run(nil) == "10", "default: 10 s")
  assert(run{ protected_data_delay = 3 } == "3", "override: 3 s")
end)

-- Errors: a policy that returns nonsense stops the run with an error naming it.

-- 1000 MB: "a" suspended (500 MB), "idle" installed but never launched, then
-- "fg" grows to 500 MB on screen: jetsam must choose a victim.
local function needs_victim(choose_victim)
  local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
  dev:policy{ choose_victim = choose_victim }
  local a = dev:install{ bundle = "a", footprint_mb = 500 }
  dev:install{ bundle = "idle" }
  local fg = dev:install{ bundle = "fg", footprint_mb = 100 }
  fg:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(400) end)
  dev:launch(a)
  dev:home()
  return pcall(function() dev:launch(fg) end)
end

lifesim.test("choose_victim returning nil is an error naming the policy", function()
  local ok, err = needs_victim(function(dev, candidates) return nil end)
  assert(not ok, "the launch must fail")
  assert(err:find("policy 'choose_victim'", 1, true), err)
  assert(err:find("must return one of the candidates", 1, true), err)
end)

lifesim.test("choose_victim returning an app that is not a candidate is an error naming the policy", function()
  local ok, err = needs_victim(function(dev, candidates) return dev:app("idle") end)
  assert(not ok, "the launch must fail")
  assert(err:find("policy 'choose_victim'", 1, true) and err:find("candidates", 1, true), err)

  ok, err = needs_victim(function(dev, candidates) return { app = "a" } end)  -- a bundle id, not an app object
  assert(not ok and err:find("policy 'choose_victim'", 1, true), tostring(err))
end)

lifesim.test("choose_victim returning a candidate, or its app object, is accepted", function()
  local ok, err = needs_victim(function(dev, candidates) return candidates[1] end)
  assert(ok, tostring(err))
  ok, err = needs_victim(function(dev, candidates) return candidates[1].app end)
  assert(ok, tostring(err))
end)

lifesim.test("background_time returning -1 is an error naming the policy", function()
  local dev = lifesim.device{ ios = 17 }
  dev:policy{ background_time = function(app) return -1 end }
  local app = dev:install{ bundle = "com.example.notes" }
  dev:launch(app)
  local ok, err = pcall(function() dev:home() end)
  assert(not ok, "Home must fail")
  assert(err:find("policy 'background_time'", 1, true), err)
  assert(err:find("com.example.notes", 1, true), "the message names the app: " .. err)
end)

lifesim.test("background_time returning a string is an error naming the policy", function()
  local dev = lifesim.device{ ios = 17 }
  dev:policy{ background_time = function(app) return "long" end }
  local app = dev:install{ bundle = "com.example.notes" }
  dev:launch(app)
  local ok, err = pcall(function() dev:home() end)
  assert(not ok and err:find("policy 'background_time'", 1, true), tostring(err))
end)

lifesim.test("invalid overrides are refused when they are set", function()
  local dev = lifesim.device{ ios = 17 }
  local function refused(policy, text)
    local ok, err = pcall(function() dev:policy(policy) end)
    assert(not ok and err:find(text, 1, true), tostring(err))
  end
  refused({ background_time = -1 }, "policy 'background_time' must be a number of seconds")
  refused({ watchdog = { launch = -3 } }, "policy 'watchdog.launch'")
  refused({ jetsam_at = 0.5 }, "'memory_warning_at' (0.85) must not exceed 'jetsam_at' (0.5)")
  refused({ memory_warning_at = 1.5 }, "policy 'memory_warning_at' must be a fraction")
  refused({ choose_victim = "fifo" }, "policy 'choose_victim' must be a function(dev, candidates) or one of \"bands\", \"lru\", got \"fifo\"")
  refused({ choose_victim = 3 }, "policy 'choose_victim' must be a function")
  refused({ reclaim_scene_mb = 0 }, "policy 'reclaim_scene_mb' must be a number of MB > 0")
  local p = dev:policy()
  assert(p.background_time == 30 and p.jetsam_at == 0.95, "a refused override changes nothing")
end)
