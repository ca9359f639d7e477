-- Multi-window (iPad): open another scene, close one in the switcher, and let the system reclaim a background scene.
local h = require "helpers"

local function scene_states(app)
  local states = {}
  for i, scene in ipairs(app.scenes) do states[i] = scene.id .. ":" .. scene.state end
  return table.concat(states, " ")
end

lifesim.test("iOS 17: open a second window; the first goes to the background, connected", function()
  local dev, notes = h.launched({ ios = 17 })
  local first = notes.scenes[1]

  local m = dev:mark()
  local second = notes:open_scene()

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:configurationForConnectingSceneSession:options:",  -- a new session
    "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:",
    "sceneWillResignActive:",       -- the first window gives way
    "sceneDidEnterBackground:",
    "sceneDidBecomeActive:",        -- the new one
  })
  assert(scene_states(notes) == "1:background 2:foregroundActive", scene_states(notes))
  assert(notes.scenes[2] == second and notes.scenes[1] == first, "one object per scene session")
  assert(notes.state == "active", "the app is active through its second window")
end)

lifesim.test("iOS 17: scene handlers get ctx.scene, the scene that is called", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  local seen = {}
  notes:on("sceneDidBecomeActive:", function(ctx) seen[#seen + 1] = ctx.scene.id end)
  notes:on("application:configurationForConnectingSceneSession:options:", function(ctx)
    seen[#seen + 1] = "config " .. ctx.scene.id
  end)
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx)
    assert(ctx.scene == nil, "an app-level callback has no scene")
  end)

  dev:launch(notes)
  local second = notes:open_scene()
  dev:switch_to(notes)  -- the switcher shows the window used last: the second

  assert(table.concat(seen, ",") == "config 1,1,config 2,2,2", table.concat(seen, ","))
  assert(tostring(second) == "<scene 2 of com.example.notes: foregroundActive>", tostring(second))
end)

lifesim.test("iOS 17: close one of two windows; the process keeps running", function()
  local dev, notes = h.launched({ ios = 17 })
  local second = notes:open_scene()
  local pid = notes.pid

  local m = dev:mark()
  notes.scenes[1]:close()  -- the background window, closed in the switcher

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:",  -- opening the switcher makes the window on screen inactive
    "sceneDidDisconnect:",
    "application:didDiscardSceneSessions:",
  })
  assert(notes.pid == pid, "the same process")
  assert(#notes.scenes == 1 and notes.scenes[1] == second, "one window left")
  assert(#dev.trace:records{ app = notes, kind = "kill", since = m } == 0, "no kill")
end)

lifesim.test("iOS 17: close the window on screen; the app leaves the screen and suspends", function()
  local dev, notes = h.launched({ ios = 17 })
  local second = notes:open_scene()

  local m = dev:mark()
  second:close()

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:",
    "sceneDidDisconnect:",  -- closed from the switcher: no sceneDidEnterBackground:
    "application:didDiscardSceneSessions:",
  })
  assert(second.closed and second.state == "unattached", "the closed scene reads as closed")
  assert(notes.state == "suspended", "with no window on screen the app suspends, got " .. notes.state)
  assert(dev.frontmost == nil, "nothing is on screen")

  -- Tapping the icon brings back the remaining window, still connected.
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillEnterForeground:", "sceneDidBecomeActive:",
  })
end)

lifesim.test("iOS 17: closing the last window terminates the process", function()
  local dev, notes = h.launched({ ios = 17 })

  local m = dev:mark()
  notes.scenes[1]:close()

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:",
    "sceneDidDisconnect:",
    "application:didDiscardSceneSessions:",
    "applicationWillTerminate:",
  })
  assert(notes.state == "notRunning" and #notes.scenes == 0, "no process and no window left")
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "user", "a user kill")
end)

lifesim.test("iOS 17: closing a window of a suspended app runs it to deliver the disconnect", function()
  local dev, notes = h.launched({ ios = 17 })
  notes:open_scene()
  dev:home()
  assert(notes.state == "suspended")

  local m = dev:mark()
  notes.scenes[1]:close()

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneDidDisconnect:", "application:didDiscardSceneSessions:",
  })
  assert(notes.state == "suspended", "suspended again afterwards")
end)

lifesim.test("iOS 17: the system disconnects a background scene; it reconnects without a new configuration", function()
  local dev, notes = h.launched({ ios = 17 })
  local second = notes:open_scene()
  local first = notes.scenes[1]

  local m = dev:mark()
  first:disconnect()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, { "sceneDidDisconnect:" })
  assert(first.state == "unattached" and not first.connected and not first.closed,
         "disconnected, but its session lives on")
  assert(notes.state == "active" and second.state == "foregroundActive", "the other window is untouched")

  -- The user closes the second window; the first one, still a session, comes back.
  second:close()
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "scene:willConnectToSession:options:",  -- a restored session: no configuration request
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(first.state == "foregroundActive")
end)

lifesim.test("iOS 17: only a background scene can be disconnected by the system", function()
  local dev, notes = h.launched({ ios = 17 })
  local ok, err = pcall(function() notes.scenes[1]:disconnect() end)
  assert(not ok and err:find("only a background scene can be disconnected", 1, true), err)
  assert(err:find("foregroundActive", 1, true), err)
end)

lifesim.test("iOS 12: there are no scenes, so no second window", function()
  local dev, notes = h.launched({ ios = 12 })
  assert(#notes.scenes == 0)
  local ok, err = pcall(function() notes:open_scene() end)
  assert(not ok and err:find("iOS 12 has no scenes", 1, true), err)
end)

lifesim.test("iOS 17: a force-quit discards every window; the next launch asks for a new configuration", function()
  local dev, notes = h.launched({ ios = 17 })
  notes:open_scene()
  dev:switcher()

  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneDidDisconnect:",  -- scene 1, in the background
    "sceneDidDisconnect:",  -- scene 2, on screen (inactive behind the switcher)
    "application:didDiscardSceneSessions:",
    "applicationWillTerminate:",
  })
  local calls = dev.trace:records{ app = notes, kind = "callback", since = m }
  assert(calls[1].scene == 1 and calls[2].scene == 2, "scenes disconnect in session order")
  local discard = calls[3]
  assert(discard.detail == "sessions 1,2", "both sessions are reported, got " .. tostring(discard.detail))

  m = dev:mark()
  dev:switch_to(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "application:configurationForConnectingSceneSession:options:",
    "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(#notes.scenes == 1 and notes.scenes[1].id == 3, "a new session, number 3")
end)
