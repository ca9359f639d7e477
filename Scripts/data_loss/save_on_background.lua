-- Saving only in applicationWillTerminate: loses data to jetsam; saving in …DidEnterBackground: does not, unless the save outlasts the 10 s watchdog.

-- A device with 1000 MB of RAM (jetsam above 950 MB, 500 MB per process), a notes
-- app holding 500 MB and a game that grows to 500 MB once it is on screen.
local function setup(ios)
  local dev = lifesim.device{ ios = ios, memory_mb = 1000 }
  local notes = dev:install{ bundle = "com.example.notes", footprint_mb = 500 }
  local game = dev:install{ bundle = "com.example.game", footprint_mb = 300 }
  -- The user types three changes while the notes app is on screen.
  local active = ios >= 13 and "sceneDidBecomeActive:" or "applicationDidBecomeActive:"
  notes:on(active, function(ctx) ctx:dirty(3) end)
  game:on(ios >= 13 and "sceneDidBecomeActive:" or "applicationDidBecomeActive:", function(ctx)
    ctx:allocate(200)  -- 500 + 500 = 1000 MB: jetsam must take the notes app
  end)
  return dev, notes, game
end

-- The data_loss records since `since`, as "app reason detail".
local function losses(dev, since)
  local out = {}
  for _, r in ipairs(dev.trace:records{ kind = "data_loss", since = since }) do
    out[#out + 1] = r.app .. " " .. r.reason .. " " .. r.detail
  end
  return out
end

lifesim.test("iOS 12, the bug: saving only in applicationWillTerminate: loses the changes to jetsam", function()
  local dev, notes, game = setup(12)
  local saved = false
  notes:on("applicationWillTerminate:", function(ctx) ctx:save(); saved = true end)

  dev:launch(notes)
  dev:home()
  assert(notes.state == "suspended" and notes.unsaved == 3, "suspended with 3 unsaved changes")

  local m = dev:mark()
  dev:launch(game)

  assert(notes.state == "notRunning", "jetsam took the notes app, got " .. notes.state)
  assert(not saved, "applicationWillTerminate: never ran")
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
  lifesim.expect_callbacks(losses(dev, m), { "com.example.notes vm-pageshortage 3 unsaved" })
  assert(notes.unsaved == 0, "the changes died with the process")
end)

lifesim.test("iOS 12, the bug: a force-quit of the suspended app loses them too", function()
  local dev, notes = setup(12)
  local saved = false
  notes:on("applicationWillTerminate:", function(ctx) ctx:save(); saved = true end)
  dev:launch(notes)
  dev:home()

  local m = dev:mark()
  dev:kill(notes)

  assert(not saved, "a suspended app gets no applicationWillTerminate:")
  lifesim.expect_callbacks(losses(dev, m), { "com.example.notes user 3 unsaved" })
end)

lifesim.test("iOS 12, why the bug survives testing: a force-quit from the foreground does call applicationWillTerminate:", function()
  local dev, notes = setup(12)
  notes:on("applicationWillTerminate:", function(ctx) ctx:save() end)
  dev:launch(notes)

  local m = dev:mark()
  dev:kill(notes)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",  -- the switcher opens
    "applicationDidEnterBackground:", "applicationWillTerminate:",
  })
  lifesim.expect_callbacks(losses(dev, m), {})
end)

lifesim.test("iOS 12, the fix: save in applicationDidEnterBackground:", function()
  local dev, notes, game = setup(12)
  notes:on("applicationDidEnterBackground:", function(ctx) ctx:save{ seconds = 0.2 } end)

  dev:launch(notes)
  dev:home()
  assert(notes.state == "suspended" and notes.unsaved == 0, "saved before the suspension")

  local m = dev:mark()
  dev:launch(game)

  assert(notes.state == "notRunning", "jetsam still takes the notes app, got " .. notes.state)
  assert(#dev.trace:records{ app = notes, kind = "kill", since = m } == 1, "one kill")
  lifesim.expect_callbacks(losses(dev, m), {})
end)

lifesim.test("iOS 17, the bug and the fix in the scene model", function()
  -- The bug: applicationWillTerminate: only.
  local dev, notes, game = setup(17)
  notes:on("applicationWillTerminate:", function(ctx) ctx:save() end)
  dev:launch(notes)
  dev:home()
  local m = dev:mark()
  dev:launch(game)
  lifesim.expect_callbacks(losses(dev, m), { "com.example.notes vm-pageshortage 3 unsaved" })

  -- The fix: sceneDidEnterBackground:, the scene model's save point.
  dev, notes, game = setup(17)
  notes:on("sceneDidEnterBackground:", function(ctx) ctx:save() end)
  dev:launch(notes)
  dev:home()
  assert(notes.unsaved == 0, "saved in sceneDidEnterBackground:")
  m = dev:mark()
  dev:launch(game)
  assert(notes.state == "notRunning", "jetsam took the notes app")
  lifesim.expect_callbacks(losses(dev, m), {})
end)

lifesim.test("a slow save in applicationDidEnterBackground: loses the race with the 10 s watchdog", function()
  local dev, notes = setup(12)
  local finished = false
  notes:on("applicationDidEnterBackground:", function(ctx)
    ctx:save{ seconds = 12 }
    finished = true
  end)
  dev:launch(notes)
  dev:advance(5)

  local m = dev:mark()
  dev:home()

  assert(not finished, "the save never returns")
  assert(notes.state == "notRunning", "the watchdog killed the app, got " .. notes.state)
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "watchdog" and kills[1].code == "0x8badf00d",
         "a watchdog kill with 0x8badf00d")
  assert(kills[1].detail == "background", tostring(kills[1].detail))
  assert(kills[1].t == 15, "10 s after didEnterBackground: started, got " .. kills[1].t)
  lifesim.expect_callbacks(losses(dev, m), { "com.example.notes watchdog 3 unsaved" })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:", "applicationDidEnterBackground:",  -- and no applicationWillTerminate:
  })
end)

lifesim.test("a save that fits in the watchdog's 10 s is safe", function()
  local dev, notes = setup(12)
  notes:on("applicationDidEnterBackground:", function(ctx) ctx:save{ seconds = 9.9 } end)
  dev:launch(notes)

  local m = dev:mark()
  dev:home()

  assert(notes.state == "suspended" and notes.unsaved == 0, "saved, then suspended: " .. notes.state)
  assert(#dev.trace:records{ kind = "kill", since = m } == 0, "no kill")
  lifesim.expect_callbacks(losses(dev, m), {})
end)

lifesim.test("iOS 17: a slow save in sceneDidEnterBackground: meets the same watchdog", function()
  local dev, notes = setup(17)
  notes:on("sceneDidEnterBackground:", function(ctx) ctx:save{ seconds = 12 } end)
  dev:launch(notes)

  local m = dev:mark()
  dev:home()

  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "watchdog" and kills[1].t == 10, "the watchdog at 10 s")
  lifesim.expect_callbacks(losses(dev, m), { "com.example.notes watchdog 3 unsaved" })
end)
