-- Switching apps from the switcher: the frontmost app goes to the background, the chosen one comes forward.
local h = require "helpers"

lifesim.test("iOS 12: from mail to a suspended notes app", function()
  local dev, notes = h.launched({ ios = 12 })
  local mail = dev:install{ bundle = "com.example.mail" }
  dev:home()
  dev:launch(mail)
  assert(notes.state == "suspended", "notes waits suspended while mail is in front")

  local m = dev:mark()
  dev:switcher()
  dev:switch_to(notes)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = mail, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillEnterForeground:",
    "applicationDidBecomeActive:",
  })
  assert(mail.state == "suspended", "mail is suspended after the switch")
  assert(notes.state == "active", "notes is active after the switch")
end)
