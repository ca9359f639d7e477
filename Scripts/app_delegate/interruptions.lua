-- Temporary interruptions make the app inactive only; dismissing them makes it active again.
local h = require "helpers"

local kinds = { "call", "alert", "control_center", "notification_center", "siri" }

for _, kind in ipairs(kinds) do
  -- On iOS 11 and 12 Notification Center pulled all the way down reactivates the
  -- app (Scripts/app_delegate/notification_center.lua); elsewhere it is like the rest.
  local ios = kind == "notification_center" and 10 or 12
  lifesim.test(("iOS %d: %s shown then dismissed"):format(ios, kind), function()
    local dev, notes = h.launched({ ios = ios })

    local m = dev:mark()
    dev:interrupt(kind)
    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
      "applicationWillResignActive:",
    })
    assert(notes.state == "inactive", kind .. ": the app stays in the foreground, inactive")

    dev:advance(5)
    m = dev:mark()
    dev:end_interrupt()
    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
      "applicationDidBecomeActive:",
    })
    assert(notes.state == "active", kind .. ": the app is active again")
  end)
end

lifesim.test("iOS 12: an incoming call that the user answers", function()
  local dev, notes = h.launched({ ios = 12 })

  local m = dev:mark()
  dev:interrupt("call")
  dev:advance(3)
  dev:end_interrupt{ accept = true }

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
  assert(notes.state == "suspended", "answering the call sends the app to the background, then suspension")
end)
