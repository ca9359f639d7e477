-- Coming back to a suspended app: willEnterForeground then didBecomeActive, same process, no new launch.
local h = require "helpers"

lifesim.test("iOS 12: tap the icon of a suspended app", function()
  local dev, notes = h.launched({ ios = 12 })
  local pid = notes.pid
  dev:home()
  dev:advance(40)
  assert(notes.state == "suspended", "40 s after Home the app is still suspended")

  local m = dev:mark()
  dev:launch(notes)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillEnterForeground:",
    "applicationDidBecomeActive:",
  })
  assert(notes.state == "active", "the app is active again")
  assert(notes.pid == pid, "a warm return keeps the same process")
  assert(notes.launches == 1, "a warm return is not a new launch")
end)
