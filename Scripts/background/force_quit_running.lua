-- Force-quit of an app still running in the background (a task, audio, a fetch window): applicationWillTerminate:, after the scenes disconnect.
local h = require "helpers"

-- An app that holds a background task from its …DidEnterBackground:.
local function with_task(device_options, app_options)
  local dev, app = h.device_with_app(device_options, app_options)
  local expired = false
  local hold = function(ctx) ctx:begin_background_task("upload", function() expired = true end) end
  app:on("applicationDidEnterBackground:", hold)
  app:on("sceneDidEnterBackground:", hold)
  return dev, app, function() return expired end
end

for _, ios in ipairs{ 12, 17 } do
  lifesim.test(("iOS %d, app-delegate model: applicationWillTerminate: only"):format(ios), function()
    local dev, notes, expired = with_task({ ios = ios }, { scenes = false })
    dev:launch(notes)
    dev:home()
    dev:advance(5)
    assert(notes.state == "background", "running thanks to the task")

    local m = dev:mark()
    dev:kill(notes)
    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, { "applicationWillTerminate:" })
    assert(notes.state == "notRunning")
    local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
    assert(#kills == 1 and kills[1].reason == "user", "the user's kill")

    dev:advance(600)
    assert(not expired(), "the task died with the process: no expiration handler")
    assert(#dev.trace:records{ app = notes, kind = "expire", since = m } == 0, "no expire record")
    assert(#dev.trace:records{ app = notes, kind = "kill", since = m } == 1, "no kill at the task limit")
  end)
end

lifesim.test("iOS 17, scene model: sceneDidDisconnect: → didDiscardSceneSessions: → applicationWillTerminate:", function()
  local dev, notes = with_task({ ios = 17 })
  dev:launch(notes)
  dev:home()
  dev:advance(5)
  assert(notes.state == "background")

  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneDidDisconnect:",   -- no sceneDidEnterBackground: again, no sceneWillResignActive:
    "application:didDiscardSceneSessions:",
    "applicationWillTerminate:",
  })
  local calls = dev.trace:records{ app = notes, kind = "callback", since = m }
  assert(calls[2].detail == "sessions 1", "session 1 is discarded, got " .. tostring(calls[2].detail))
  assert(notes.state == "notRunning" and #notes.scenes == 0, "no process and no session left")

  -- The discard was delivered now, so the next launch has none to report.
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "application:configurationForConnectingSceneSession:options:",
    "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
end)

lifesim.test("iOS 17, scene model, for contrast: a suspended app hears nothing; the discard comes at the next launch", function()
  local dev, notes = h.launched({ ios = 17 })
  dev:home()
  assert(notes.state == "suspended")
  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
  m = dev:mark()
  dev:launch(notes)
  local calls = dev.trace:callbacks{ app = notes, since = m }
  assert(calls[3] == "application:didDiscardSceneSessions:", "the discard after didFinish…, got " .. tostring(calls[3]))
end)

lifesim.test("iOS 17, scene model: every window of a running app disconnects, in session order", function()
  local dev, notes = with_task({ ios = 17 })
  dev:launch(notes)
  notes:open_scene()
  dev:home()
  assert(notes.state == "background")
  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneDidDisconnect:",
    "sceneDidDisconnect:",
    "application:didDiscardSceneSessions:",
    "applicationWillTerminate:",
  })
  local calls = dev.trace:records{ app = notes, kind = "callback", since = m }
  assert(calls[1].scene == 1 and calls[2].scene == 2, "scene 1, then scene 2")
  assert(calls[3].detail == "sessions 1,2", tostring(calls[3].detail))
end)

lifesim.test("iOS 12: an app kept running by audio gets applicationWillTerminate: only", function()
  local dev, player = h.device_with_app({ ios = 12 }, { background_modes = { "audio" } })
  player:on("applicationDidBecomeActive:", function(ctx) ctx:play_audio(true) end)
  dev:launch(player)
  dev:home()
  dev:advance(1000)
  assert(player.state == "background" and player.playing_audio)
  local m = dev:mark()
  dev:kill(player)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = player, since = m }, { "applicationWillTerminate:" })
  assert(not player.playing_audio, "the music stops with the process")
end)

lifesim.test("iOS 17: a scene app in its fetch window, never opened, has no scene: applicationWillTerminate: only", function()
  local dev, notes = h.device_with_app({ ios = 17 }, { background_modes = { "fetch" } })
  dev:background_fetch(notes)
  dev:advance(10)
  assert(notes.state == "background" and #notes.scenes == 0)
  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, { "applicationWillTerminate:" })
end)
