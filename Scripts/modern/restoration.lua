-- Scene state restoration: stateRestorationActivityForScene: is asked for when a scene goes to the background, and the activity comes back at the session's next connection; a force-quit keeps it on iOS 15 (FB9855914), and on iPadOS 15 the last closed window's session comes back without a configuration request.
local CONFIG = "application:configurationForConnectingSceneSession:options:"
local CONNECT = "scene:willConnectToSession:options:"

-- A scene app that saves the note it shows, and reads it back when a scene connects.
local function install(dev)
  local restored = {}
  local app = dev:install{ bundle = "com.example.notes" }
  app:on("stateRestorationActivityForScene:", function(ctx)
    return { activity_type = "com.example.notes.detail", note = "note-" .. ctx.scene.id }
  end)
  app:on(CONNECT, function(ctx)
    local a = ctx.scene.state_restoration_activity
    restored[#restored + 1] = a and a.note or "none"
  end)
  return app, restored
end

lifesim.test("iOS 17: the activity is asked for after sceneDidEnterBackground: and handed back after a jetsam", function()
  local dev = lifesim.device{ ios = 17, model = "iPhone 15" }
  local notes, restored = install(dev)
  dev:launch(notes)
  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:", "sceneDidEnterBackground:", "stateRestorationActivityForScene:",
  })
  assert(notes.scenes[1].state_restoration_activity.note == "note-1")
  dev:memory_pressure()   -- the process dies; its session survives
  assert(notes.state == "notRunning")
  m = dev:mark()
  dev:launch(notes)
  local got = dev.trace:callbacks{ app = notes, since = m }
  for _, c in ipairs(got) do assert(c ~= CONFIG, "a restored session is not configured again") end
  assert(restored[1] == "none" and restored[2] == "note-1", table.concat(restored, ","))
end)

lifesim.test("iOS 15: after a force-quit the relaunch still receives the activity (FB9855914)", function()
  local dev = lifesim.device{ ios = 15 }
  local notes, restored = install(dev)
  dev:launch(notes)
  dev:home()
  dev:kill(notes)
  dev:launch(notes)
  assert(restored[2] == "note-1", "the new session got the activity: " .. table.concat(restored, ","))
end)

lifesim.test("Apple's sample documentation (quirk): a force-quit deletes it", function()
  local dev = lifesim.device{ ios = 15, quirks = { force_quit_deletes_restoration = true } }
  local notes, restored = install(dev)
  dev:launch(notes)
  dev:home()
  dev:kill(notes)
  dev:launch(notes)
  assert(restored[2] == "none")
end)

lifesim.test("iPadOS 15: close the main window, then the detail one; the relaunch brings back the detail session unconfigured", function()
  local dev = lifesim.device{ ios = 15, model = "iPad Pro 11 2018" }
  local notes, restored = install(dev)
  dev:launch(notes)
  local main = notes.scenes[1]
  local detail = notes:open_scene{ beside = true }
  dev:home()
  main:close()
  detail:close()
  assert(notes.state == "notRunning" and #notes.scenes == 1 and notes.scenes[1] == detail)
  local m = dev:mark()
  dev:launch(notes)
  local got = dev.trace:callbacks{ app = notes, since = m }
  for _, c in ipairs(got) do assert(c ~= CONFIG, "no configuration request") end
  assert(detail.state == "foregroundActive" and detail.id == 2, "the detail window's session, by its id")
  assert(restored[#restored] == "note-2", table.concat(restored, ","))
  assert(dev.profile.last_closed_window_keeps_session == true)
end)
