-- UIApplicationExitsOnSuspend: on iOS 12 Home terminates the app; from iOS 13 the key is ignored.
local h = require "helpers"

lifesim.test("iOS 12: Home terminates an app that exits on suspend", function()
  local dev, notes = h.launched({ ios = 12 }, { exits_on_suspend = true })

  local m = dev:mark()
  dev:home()

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
    "applicationWillTerminate:",
  })
  assert(notes.state == "notRunning", "the app is not running after Home")

  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
  })
  assert(notes.launches == 2, "coming back is a cold launch")
end)

lifesim.test("iOS 13, scenes = false: the key is ignored and the app suspends", function()
  local dev, notes = h.launched({ ios = 13 }, { exits_on_suspend = true, scenes = false })

  local m = dev:mark()
  dev:home()

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
  assert(notes.state == "suspended", "the app is suspended, not terminated")
end)
