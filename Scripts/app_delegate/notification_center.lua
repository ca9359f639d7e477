-- Notification Center over the app: pulled all the way down, and a partial pull that springs back.
--
-- Reference §2.4: the shade resigns the app as soon as it shows, and it becomes active again once
-- the shade is fully gone. On iOS 11 and 12 a bug report shows a template app becoming active three
-- times: at launch, when Notification Center is fully pulled down, and when it is dismissed, with
-- UIApplicationDidBecomeActiveNotification posted as often. The report logs only
-- applicationDidBecomeActive:; the resign before the dismissal's reactivation is lifesim's reading
-- (§2.4 gives the later report that sees the resign/become-active pair fire twice). The profile
-- fact notification_center_reactivates is true on iOS 11 and 12 only: the report was filed on
-- 12.1.4 and seen on 11, not on 10.
local h = require "helpers"

local count = h.count

lifesim.test("iOS 12: fully pulled down, the app becomes active again, and once more on dismissal", function()
  local dev, notes = h.launched({ ios = 12 })
  assert(dev.profile.notification_center_reactivates == true)
  local m = dev:mark()
  dev:interrupt("notification_center")
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
                           { "applicationWillResignActive:", "applicationDidBecomeActive:" })
  assert(notes.state == "active" and dev.interruption == "notification_center")
  dev:end_interrupt()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:", "applicationDidBecomeActive:",
    "applicationWillResignActive:", "applicationDidBecomeActive:",
  })
  -- Three activations in all, and as many notifications.
  local all = dev.trace:callbacks{ app = notes }
  assert(count(all, "applicationDidBecomeActive:") == 3)
  local posted = 0
  for _, r in ipairs(dev.trace:records{ app = notes, kind = "notification" }) do
    if r.callback == "UIApplicationDidBecomeActiveNotification" then posted = posted + 1 end
  end
  assert(posted == 3, "posted " .. posted)
end)

lifesim.test("iOS 11 too; iOS 10 and 13 resign once and come back once", function()
  local dev11, app11 = h.launched({ ios = 11 })
  dev11:interrupt("notification_center")
  assert(app11.state == "active")
  for _, v in ipairs{ 10, 13 } do
    local dev, notes = h.launched({ ios = v }, { scenes = false })
    assert(dev.profile.notification_center_reactivates == false)
    local m = dev:mark()
    dev:interrupt("notification_center")
    assert(notes.state == "inactive", "iOS " .. v .. ": " .. notes.state)
    dev:end_interrupt()
    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
                             { "applicationWillResignActive:", "applicationDidBecomeActive:" })
  end
end)

lifesim.test("a partial pull that springs back: resign, then active, nothing left showing", function()
  local dev, notes = h.launched({ ios = 17 })
  local m = dev:mark()
  dev:interrupt("notification_center_peek")
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
                           { "sceneWillResignActive:", "sceneDidBecomeActive:" })
  assert(dev.interruption == nil and notes.state == "active")
  assert(not pcall(dev.end_interrupt, dev), "nothing to dismiss")
end)

lifesim.test("Home while the app is active under Notification Center: the usual way out", function()
  local dev, notes = h.launched({ ios = 12 })
  dev:interrupt("notification_center")
  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
                           { "applicationWillResignActive:", "applicationDidEnterBackground:" })
  assert(dev.interruption == nil)
end)
