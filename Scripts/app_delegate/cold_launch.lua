-- Cold launch in the app-delegate model: willFinish (iOS 6+), didFinish, didBecomeActive, never willEnterForeground.
local h = require "helpers"

lifesim.test("iOS 12: tap the icon of an app that is not running", function()
  local dev, notes = h.device_with_app({ ios = 12, seed = 1 })
  local state_in_did_finish
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx)
    state_in_did_finish = ctx.app.state
    return true
  end)
  assert(notes.state == "notRunning", "installed apps start not running")
  assert(notes.model == "app_delegate", "iOS 12 has only the app-delegate model")

  local m = dev:mark()
  dev:launch(notes)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
  })
  assert(state_in_did_finish == "inactive", "didFinishLaunching runs while the app is inactive")
  assert(notes.state == "active", "after launch the app is active")
  assert(notes.launches == 1, "one launch counted")
  assert(notes.pid ~= nil, "a running app has a pid")
end)

lifesim.test("iOS 5: no willFinishLaunching before iOS 6", function()
  local dev, notes = h.device_with_app({ ios = 5 })
  local m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
  })
  assert(notes.state == "active", "after launch the app is active")
end)

lifesim.test("iOS 17 with scenes = false keeps the app-delegate sequence", function()
  local dev, notes = h.device_with_app({ ios = 17 }, { scenes = false })
  assert(notes.model == "app_delegate", "scenes = false opts out of the scene model")
  local m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
  })
end)
