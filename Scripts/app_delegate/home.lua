-- Pressing Home from the foreground: willResignActive, then didEnterBackground, then silent suspension.
local h = require "helpers"

lifesim.test("iOS 12: Home from an active app", function()
  local dev, notes = h.launched({ ios = 12 })
  local state_in_did_enter
  notes:on("applicationDidEnterBackground:", function(ctx) state_in_did_enter = ctx.app.state end)

  local m = dev:mark()
  dev:home()

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
  assert(state_in_did_enter == "background", "didEnterBackground runs in the background state")
  assert(notes.state == "suspended", "with no background work the app is suspended right away")
  assert(notes.pid ~= nil, "a suspended app keeps its process")
end)

lifesim.test("iOS 4: Home already sends didEnterBackground (multitasking arrived in iOS 4)", function()
  local dev, notes = h.launched({ ios = 4 })
  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
  assert(notes.state == "suspended", "the app is suspended after Home")
end)
