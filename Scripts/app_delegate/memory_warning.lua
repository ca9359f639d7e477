-- Simulated memory warnings reach running apps only; observers hear the notification after the delegate.
local h = require "helpers"

lifesim.test("iOS 12: the frontmost app gets the warning, a suspended app does not", function()
  local dev, notes = h.launched({ ios = 12 })
  local mail = dev:install{ bundle = "com.example.mail" }
  dev:home()
  dev:launch(mail)
  assert(notes.state == "suspended", "notes is suspended behind mail")

  local m = dev:mark()
  dev:memory_warning()

  lifesim.expect_callbacks(dev.trace:callbacks{ app = mail, since = m }, {
    "applicationDidReceiveMemoryWarning:",
  })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
  assert(mail.state == "active", "a memory warning does not change the state")
  assert(notes.state == "suspended", "the suspended app stays suspended")
end)

lifesim.test("iOS 12: an observer runs after the delegate method", function()
  local dev, notes = h.launched({ ios = 12 })
  local heard = {}
  notes:on("applicationDidReceiveMemoryWarning:", function(ctx) heard[#heard + 1] = ctx.callback end)
  notes:observe("UIApplicationDidReceiveMemoryWarningNotification", function(ctx)
    heard[#heard + 1] = ctx.callback
  end)

  local m = dev:mark()
  dev:memory_warning()

  lifesim.expect_callbacks(heard, {
    "applicationDidReceiveMemoryWarning:",
    "UIApplicationDidReceiveMemoryWarningNotification",
  })
  lifesim.expect_callbacks(h.callbacks_and_notifications(dev, notes, m), {
    "applicationDidReceiveMemoryWarning:",
    "UIApplicationDidReceiveMemoryWarningNotification",
  })
end)
