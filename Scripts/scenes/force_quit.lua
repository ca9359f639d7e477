-- Force-quit of a scene app: frontmost disconnects, discards and terminates; suspended is silent until the next launch.
local h = require "helpers"

lifesim.test("iOS 17: force-quit the frontmost scene app", function()
  local dev, notes = h.launched({ ios = 17 })
  dev:switcher()
  assert(notes.scenes[1].state == "foregroundInactive", "the switcher makes the scene inactive")

  local m = dev:mark()
  dev:kill(notes)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneDidDisconnect:",
    "application:didDiscardSceneSessions:",
    "applicationWillTerminate:",
  })
  assert(notes.state == "notRunning", "the process is gone")

  -- The session was discarded then, so the next launch does not discard it again.
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

lifesim.test("iOS 17: force-quit a suspended scene app, then launch it again", function()
  local dev, notes = h.launched({ ios = 17 })
  local mail = dev:install{ bundle = "com.example.mail" }
  dev:home()
  dev:launch(mail)
  dev:advance(60)
  assert(notes.state == "suspended", "notes is suspended behind mail")

  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
  assert(notes.state == "notRunning", "the suspended process is removed silently")

  dev:switch_to(mail)
  dev:home()
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "application:didDiscardSceneSessions:",
    "application:configurationForConnectingSceneSession:options:",
    "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(notes.launches == 2, "the relaunch is a second launch")
end)
