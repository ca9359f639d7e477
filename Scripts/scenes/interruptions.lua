-- Interruptions and the app switcher for a scene app: only resign and become active; an app switch never disconnects.
local h = require "helpers"

for _, kind in ipairs({ "call", "alert", "control_center", "notification_center", "siri" }) do
  lifesim.test("iOS 17: " .. kind .. " makes the scene inactive, then active again", function()
    local dev, notes = h.launched({ ios = 17 })

    local m = dev:mark()
    -- A call shows as a banner from iOS 14 (Scripts/app_delegate/calls.lua); the
    -- full-screen call interface interrupts like the rest.
    dev:interrupt(kind, kind == "call" and { style = "full_screen" } or nil)
    assert(notes.state == "inactive" and notes.scenes[1].state == "foregroundInactive")
    dev:end_interrupt()

    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
      "sceneWillResignActive:", "sceneDidBecomeActive:",
    })
  end)
end

lifesim.test("iOS 17: answering a full-screen call sends the scene to the background", function()
  local dev, notes = h.launched({ ios = 17 })

  local m = dev:mark()
  dev:interrupt("call", { style = "full_screen" })
  dev:end_interrupt{ accept = true }

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:", "sceneDidEnterBackground:",
  })
  assert(notes.state == "suspended", "suspended after the snapshot")
end)

lifesim.test("iOS 17: open the switcher, then pick the same app", function()
  local dev, notes = h.launched({ ios = 17 })

  local m = dev:mark()
  dev:switcher()
  dev:switch_to(notes)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:", "sceneDidBecomeActive:",
  })
end)

lifesim.test("iOS 17: switch to another app and back: background, never disconnected", function()
  local dev, notes = h.launched({ ios = 17 })
  local mail = dev:install{ bundle = "com.example.mail" }

  local m = dev:mark()
  dev:switch_to(mail)
  dev:advance(600)
  dev:switch_to(notes)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:",
    "sceneDidEnterBackground:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(notes.launches == 1, "the same process throughout")
end)
