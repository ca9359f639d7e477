-- Home and return for a scene app: the scene delegate gets the foreground/background callbacks, with no disconnect.
local h = require "helpers"

lifesim.test("iOS 17: Home, wait, then tap the icon again", function()
  local dev, notes = h.launched({ ios = 17 })

  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:",
    "sceneDidEnterBackground:",
  })
  assert(notes.state == "suspended", "the app is suspended after Home")
  assert(notes.scenes[1].state == "background", "its scene is in the background, still connected")

  dev:advance(40)
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(notes.state == "active", "the app is active again")
  assert(notes.scenes[1].state == "foregroundActive", "its scene is foregroundActive again")
end)

lifesim.test("iOS 17: lock and unlock match Home and return", function()
  local dev, notes = h.launched({ ios = 17 })

  local m = dev:mark()
  dev:lock()
  dev:advance(30)
  dev:unlock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:",
    "sceneDidEnterBackground:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
end)

lifesim.test("iOS 17: an alert only resigns and restores activity", function()
  local dev, notes = h.launched({ ios = 17 })

  local m = dev:mark()
  dev:interrupt("alert")
  assert(notes.scenes[1].state == "foregroundInactive", "behind the alert the scene is foregroundInactive")
  dev:end_interrupt()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillResignActive:",
    "sceneDidBecomeActive:",
  })
end)

lifesim.test("iOS 17: the UIApplication notifications are still posted", function()
  local dev, notes = h.launched({ ios = 17 })

  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(h.callbacks_and_notifications(dev, notes, m), {
    "sceneWillResignActive:",
    "UIApplicationWillResignActiveNotification",
    "sceneDidEnterBackground:",
    "UIApplicationDidEnterBackgroundNotification",
  })
end)
