-- The Sleep/Wake button: like Home and return from iOS 5 on; on iOS 4 only resign/become active.
local h = require "helpers"

lifesim.test("iOS 12: lock then unlock", function()
  local dev, notes = h.launched({ ios = 12 })

  local m = dev:mark()
  dev:lock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
  assert(notes.state == "suspended", "a locked app with no background work is suspended")

  dev:advance(30)
  m = dev:mark()
  dev:unlock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillEnterForeground:",
    "applicationDidBecomeActive:",
  })
  assert(notes.state == "active", "the app is active after unlock")
end)

lifesim.test("iOS 4: lock only resigns active, unlock only becomes active", function()
  local dev, notes = h.launched({ ios = 4 })

  local m = dev:mark()
  dev:lock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
  })
  assert(notes.state == "inactive", "on iOS 4 a locked app stays inactive")

  dev:advance(30)
  m = dev:mark()
  dev:unlock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationDidBecomeActive:",
  })
  assert(notes.state == "active", "the app is active after unlock")
end)
