-- The device does not wait for a busy main thread (reference §3.8): while a
-- handler works (ctx:work, ctx:save{ seconds }), the user, the kernel and the
-- system act at their own times. Kills happen then and end the handler; what
-- the app is told waits for its main thread and arrives in order afterwards.
local h = require "helpers"

-- The records of `kind` since `since`, as "t detail" strings.
local function records(dev, app, kind, since)
  local out = {}
  for _, r in ipairs(dev.trace:records{ app = app, kind = kind, since = since }) do
    out[#out + 1] = ("%g %s"):format(r.t, r.detail or r.reason or "")
  end
  return out
end

lifesim.test("a swipe 4 s into an 8 s save kills at once: the save never finishes", function()
  local dev, notes = h.launched({ ios = 17 })
  local after = false
  notes:on("sceneDidEnterBackground:", function(ctx)
    ctx:dirty(3)
    ctx:save{ seconds = 8 }
    after = true  -- never runs: the process is gone
  end)
  local m = dev:mark()
  dev:at(10, function() dev:home() end)
  dev:at(14, function() dev:switcher(); dev:kill(notes) end)
  dev:run()
  assert(not after, "the rest of the handler ran after the kill")
  lifesim.expect_callbacks(records(dev, notes, "kill", m), { "14 during sceneDidEnterBackground:, 4 s into 8 s of work" })
  lifesim.expect_callbacks(records(dev, notes, "data_loss", m), { "14 3 unsaved" })
  assert(notes.state == "notRunning", notes.state)
  -- No termination callback: a main thread that is busy cannot run one.
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
    { "sceneWillResignActive:", "sceneDidEnterBackground:" })
end)

lifesim.test("a pcall in the handler does not keep it running after the kill", function()
  local dev, notes = h.launched({ ios = 17 })
  local caught, after = false, false
  notes:on("sceneDidEnterBackground:", function(ctx)
    caught = not pcall(ctx.save, ctx, { seconds = 8 })
    after = true
  end)
  dev:at(4, function() dev:switcher(); dev:kill(notes) end)
  dev:home()  -- the handler saves from t=0; the swipe comes at t=4
  dev:run()
  assert(not after, "code after the pcall ran in a killed process")
  assert(notes.state == "notRunning", notes.state)
  assert(not caught, "the handler observed the kill")
end)

lifesim.test("jetsam during work kills the working app at the moment of pressure", function()
  local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
  local a = dev:install{ bundle = "a", footprint_mb = 480 }
  local b = dev:install{ bundle = "b", footprint_mb = 100 }
  a:on("applicationDidEnterBackground:", function(ctx)
    ctx:dirty(1)
    ctx:begin_background_task("save")
    ctx:save{ seconds = 20 }
  end)
  b:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(390) end)
  dev:launch(a)
  local m = dev:mark()
  dev:at(5, function() dev:launch(b) end)  -- 480 + 490 MB of 1000: critical
  dev:home()  -- a saves for 20 s in the background, from t=0
  dev:run()
  lifesim.expect_callbacks(records(dev, a, "kill", m), { "5 during applicationDidEnterBackground:, 5 s into 20 s of work" })
  lifesim.expect_callbacks(records(dev, a, "data_loss", m), { "5 1 unsaved" })
  assert(b.state == "active", "b runs on, got " .. b.state)
end)

lifesim.test("Home while a timer works: the screen changes now, the app hears of it when it returns", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  local seen = {}
  notes:on("sceneDidBecomeActive:", function(ctx)
    ctx:after(1, function(c) c:work(4) end)  -- busy from t=1 to t=5
  end)
  dev:launch(notes)
  local m = dev:mark()
  dev:at(3, function()
    dev:home()
    seen[#seen + 1] = notes.state .. "/" .. notes.system_state
  end)
  dev:run()
  lifesim.expect_callbacks(seen, { "active/background" })
  lifesim.expect_callbacks(records(dev, notes, "wait", m),
    { "5 leaving the screen, asked at t=3, waited 2 s for the main thread" })
  -- The callbacks come at t=5, in their usual order.
  local first = dev.trace:records{ app = notes, kind = "callback", since = m }[1]
  assert(first.callback == "sceneWillResignActive:" and first.t == 5, first.callback .. " at " .. first.t)
  assert(notes.state == "suspended", notes.state)
end)

lifesim.test("a scene update that waits starts its watchdog when the system asks", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  notes:on("sceneDidBecomeActive:", function(ctx)
    ctx:after(1, function(c) c:work(30) end)  -- busy from t=1
  end)
  dev:launch(notes)
  local m = dev:mark()
  dev:at(3, function() dev:home() end)
  dev:run()
  -- 10 s from the Home press at t=3, not from the time the callback could run.
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "watchdog" and kills[1].t == 13 and kills[1].detail == "scene-update",
    "one scene-update kill at t=13")
  assert(#dev.trace:records{ app = notes, kind = "callback", since = m } == 0, "the app never heard of Home")
end)

lifesim.test("another app comes and goes while the first one's handler works", function()
  local dev = lifesim.device{ ios = 17 }
  local a = dev:install{ bundle = "a" }
  local b = dev:install{ bundle = "b" }
  local order = {}
  a:on("sceneDidEnterBackground:", function(ctx)
    ctx:begin_background_task("t")
    ctx:work(6)
    order[#order + 1] = ("a done at %g"):format(dev.now)
  end)
  b:on("sceneDidBecomeActive:", function(ctx) order[#order + 1] = ("b active at %g"):format(dev.now) end)
  b:on("sceneWillResignActive:", function(ctx) order[#order + 1] = ("b resigns at %g"):format(dev.now) end)
  dev:launch(a)
  dev:at(2, function() dev:launch(b) end)
  dev:at(5, function() dev:home() end)
  dev:home()  -- a works in the background from t=0 to t=6
  lifesim.expect_callbacks(order, { "b active at 2", "b resigns at 5", "a done at 6" })
end)

lifesim.test("switching apps while the outgoing one works: the incoming one comes forward at once", function()
  local dev = lifesim.device{ ios = 17 }
  local a = dev:install{ bundle = "a" }
  local b = dev:install{ bundle = "b" }
  local order = {}
  a:on("sceneDidEnterBackground:", function(ctx) ctx:work(3); order[#order + 1] = ("a done at %g"):format(dev.now) end)
  b:on("sceneDidBecomeActive:", function(ctx) order[#order + 1] = ("b active at %g"):format(dev.now) end)
  dev:launch(a)
  dev:launch(b)  -- a leaves the screen and saves for 3 s; b does not wait for it
  lifesim.expect_callbacks(order, { "b active at 0", "a done at 3" })
  assert(b.state == "active" and a.state == "suspended", b.state .. " " .. a.state)
end)

lifesim.test("the user comes back while the app still saves: it is told in order, and ends in front", function()
  local dev = lifesim.device{ ios = 12 }
  local notes = dev:install{ bundle = "com.example.notes" }
  notes:on("applicationDidEnterBackground:", function(ctx) ctx:work(4) end)
  dev:launch(notes)
  local m = dev:mark()
  dev:at(0.5, function() dev:home() end)
  dev:at(2, function() dev:launch(notes) end)
  dev:run()
  assert(notes.state == "active" and dev.frontmost == notes, notes.state)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:", "applicationDidEnterBackground:",
    "applicationWillEnterForeground:", "applicationDidBecomeActive:",
  })
end)

lifesim.test("an action after one whose handler worked comes late, and the trace says how late", function()
  local dev = lifesim.device{ ios = 17 }
  local notes = dev:install{ bundle = "com.example.notes" }
  notes:on("sceneWillResignActive:", function(ctx) ctx:work(3) end)
  dev:launch(notes)
  local m = dev:mark()
  dev:at(4, function() dev:switcher(); dev:kill(notes) end)
  dev:run()
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].t == 7, "the kill comes when the switcher's action returns, at t=7")
  lifesim.expect_callbacks(records(dev, nil, "wait", m), {
    "7 kill, asked of a function due at t=4, waited 3 s: the actions before it ran a handler that worked, and an action returns when its handlers have",
  })
end)

lifesim.test("a comeback that waited is not made active behind the switcher", function()
  local dev = lifesim.device{ ios = 17 }
  local notes = dev:install{ bundle = "com.example.notes" }
  notes:on("sceneWillResignActive:", function(ctx) ctx:work(3) end)
  dev:launch(notes)
  dev:at(4, function() dev:switcher() end)      -- notes resigns, working until t=7
  dev:at(5, function() dev:launch(notes) end)   -- the user picks it again: that waits
  dev:at(6, function() dev:switcher() end)      -- and opens the switcher again
  dev:run()
  assert(notes.state == "inactive" and dev.frontmost == notes, notes.state)
end)

lifesim.test("a workload's user acts at its time while an app works", function()
  local dev = lifesim.device{ ios = 12, memory_mb = 100000 }
  local apps = {}
  for i = 1, 3 do
    apps[i] = dev:install{ bundle = "app" .. i }
    -- Each app works 8 s as it becomes active: the user's next act, drawn
    -- about 5 s after the last, falls inside that work.
    apps[i]:on("applicationDidBecomeActive:", function(ctx) ctx:work(8) end)
  end
  lifesim.workload.user{ apps = apps, switch_every = 5 }:drive(dev, { minutes = 10 })
  local working = {}
  for _, r in ipairs(dev.trace:records{ kind = "callback" }) do
    if r.duration then working[#working + 1] = r end
  end
  local during = 0
  for _, a in ipairs(dev.trace:records{ kind = "action" }) do
    for _, w in ipairs(working) do
      if w.t < a.t and a.t < w.t + w.duration then during = during + 1; break end
    end
  end
  assert(#working > 0 and during > 0, ("%d working handlers, %d actions during them"):format(#working, during))
  for _, r in ipairs(dev.trace:records{ kind = "wait" }) do
    assert(not r.detail:find("the user's action due at t=", 1, true), r.detail)
  end
end)

lifesim.test("a comeback that waited for the busy main thread is watched from the tap", function()
  -- reference §3.1, §3.8: the scene update starts when the user taps, not
  -- when the main thread is free to take it.
  local dev = lifesim.device{ ios = 12 }
  local app = dev:install{ bundle = "com.example.notes" }
  local back = false
  app:on("applicationDidEnterBackground:", function(ctx)
    back = true
    ctx:begin_background_task("sync")
    ctx:after(1, function(c) c:work(8) end)  -- busy from t=1 to t=9
  end)
  app:on("applicationWillEnterForeground:", function(ctx) ctx:work(2) end)
  app:on("applicationDidBecomeActive:", function(ctx) if back then ctx:work(3) end end)
  dev:launch(app)
  dev:home()
  dev:at(2, function() dev:launch(app) end)  -- taken at t=9, asked at t=2
  dev:run()
  local kills = dev.trace:records{ kind = "kill" }
  assert(#kills == 1 and kills[1].reason == "watchdog" and kills[1].t == 12, kills[1] and kills[1].t)
  assert(kills[1].detail:find("scene-update", 1, true), kills[1].detail)
end)

lifesim.test("a return to the foreground on unlock is one scene update", function()
  -- iOS 12 sends the app to the background on lock; the unlock brings it
  -- back, and its two callbacks share the scene update's 10 s (§3.1).
  local dev = lifesim.device{ ios = 12 }
  local app = dev:install{ bundle = "com.example.notes" }
  local locked = false
  app:on("applicationWillEnterForeground:", function(ctx) if locked then ctx:work(6) end end)
  app:on("applicationDidBecomeActive:", function(ctx) if locked then ctx:work(6) end end)
  dev:launch(app)
  dev:lock()
  locked = true
  dev:advance(30)
  dev:unlock()
  local kills = dev.trace:records{ kind = "kill" }
  assert(#kills == 1 and kills[1].reason == "watchdog" and kills[1].t == 40, kills[1] and kills[1].t)
end)

lifesim.test("a workload's user goes on when a handler catches the error of its act", function()
  local dev = lifesim.device{ ios = 12, seed = 3, debugger = true }
  local bg = dev:install{ bundle = "bg" }
  local a = dev:install{ bundle = "app1" }
  local b = dev:install{ bundle = "app2" }
  local caught
  bg:on("applicationDidEnterBackground:", function(ctx)
    ctx:begin_background_task("sync")
    ctx:after(1, function(c)
      -- The user's next act comes during this work, and its error surfaces here.
      local ok, err = pcall(function() c:work(25) end)
      caught = not ok and err
    end)
  end)
  local failed = false
  for _, app in ipairs{ a, b } do
    app:on("applicationWillResignActive:", function(ctx)
      if not failed and dev.now > 1 then failed = true; error("resign failed") end
    end)
  end
  dev:launch(bg)
  dev:home()
  local done = lifesim.workload.user{ apps = { a, b }, switch_every = 5 }:drive(dev, { minutes = 10 })
  assert(caught and tostring(caught):find("resign failed", 1, true), tostring(caught))
  assert(done.switches > 20, done.switches)
end)
