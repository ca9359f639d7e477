-- Opening the app switcher and picking the same app: resign active, then become active, no foreground entry.
local h = require "helpers"

lifesim.test("iOS 12: switcher opened, same app picked", function()
  local dev, notes = h.launched({ ios = 12 })

  local m = dev:mark()
  dev:switcher()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
  })
  assert(notes.state == "inactive", "while the switcher is open the app is inactive")

  dev:advance(2)
  m = dev:mark()
  dev:switch_to(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationDidBecomeActive:",
  })
  assert(notes.state == "active", "the app is active again")
end)
