-- After Home the app is suspended without a callback: the trace shows the snapshot, then background -> suspended.
local h = require "helpers"

lifesim.test("iOS 12: Home ends in a snapshot and a silent suspension", function()
  local dev, notes = h.launched({ ios = 12 })

  local m = dev:mark()
  dev:home()

  assert(notes.state == "suspended", "the app is suspended after Home")
  lifesim.expect_callbacks(h.record_summary(dev, notes, m), {
    "callback:applicationWillResignActive:",
    "notification:UIApplicationWillResignActiveNotification",
    "state:active->inactive",
    "state:inactive->background",
    "callback:applicationDidEnterBackground:",
    "notification:UIApplicationDidEnterBackgroundNotification",
    "snapshot",
    "state:background->suspended",
  })

  -- Nothing is delivered to the app while it stays suspended.
  m = dev:mark()
  dev:advance(600)
  lifesim.expect_callbacks(h.record_summary(dev, notes, m), {})
  assert(notes.state == "suspended", "ten minutes later the app is still suspended")
end)
