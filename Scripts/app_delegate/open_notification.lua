-- Opening a delivered notification, with and without a UNUserNotificationCenter delegate.
--
-- Sources: Apple, UserNotifications: UNUserNotificationCenterDelegate
-- (userNotificationCenter(_:didReceive:withCompletionHandler:): "Asks the delegate to process the
-- user's response to a delivered notification"; userNotificationCenter(_:willPresent:withCompletionHandler:):
-- "Asks the delegate how to handle a notification that arrived while the app was running in the
-- foreground"; assign the delegate before the app finishes launching); and a published iOS 10 log
-- (Jigar M., "Delegate methods called when opening app", Medium) of the legacy path: backgrounded,
-- applicationWillEnterForeground: then didReceiveRemoteNotification (inactive) then
-- applicationDidBecomeActive:; after a force-quit, didFinishLaunchingWithOptions: with the
-- notification in its options, then that method (inactive), then applicationDidBecomeActive:.
-- Reference §2.12.
local h = require "helpers"

local legacy = "application:didReceiveRemoteNotification:fetchCompletionHandler:"
local did_receive = "userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:"
local will_present = "userNotificationCenter:willPresentNotification:withCompletionHandler:"

lifesim.test("iOS 10, no delegate, backgrounded: foreground, the legacy method while inactive, active", function()
  local dev, notes = h.launched({ ios = 10 })
  local state
  notes:on(legacy, function(ctx) state = ctx.app.state end)
  dev:home()
  local m = dev:mark()
  dev:open_notification(notes, { remote = true })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
                           { "applicationWillEnterForeground:", legacy, "applicationDidBecomeActive:" })
  assert(state == "inactive", "the method runs while the app is inactive, got " .. tostring(state))
end)

lifesim.test("iOS 10, no delegate, after a force-quit: the launch carries it, then the method, then active", function()
  local dev, notes = h.launched({ ios = 10 })
  notes:on(legacy, function() end)
  dev:kill(notes)
  local m = dev:mark()
  dev:open_notification(notes, { remote = true })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
    legacy, "applicationDidBecomeActive:",
  })
  local launch = dev.trace:records{ app = notes, kind = "callback", since = m }[2]
  assert(launch.detail == "remote notification", "the launch options carry it: " .. tostring(launch.detail))
end)

lifesim.test("iOS 17, with a delegate: warm and cold, didReceive just before the scene becomes active", function()
  local dev, notes = h.launched({ ios = 17 })
  notes:on(did_receive, function() end)
  dev:home()
  local m = dev:mark()
  dev:open_notification(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
                           { "sceneWillEnterForeground:", did_receive, "sceneDidBecomeActive:" })
  dev:kill(notes)
  m = dev:mark()
  dev:open_notification(notes)
  local got = dev.trace:callbacks{ app = notes, since = m }
  assert(got[#got - 1] == did_receive and got[#got] == "sceneDidBecomeActive:", table.concat(got, ", "))
end)

lifesim.test("in front: willPresent on arrival, didReceive at once when tapped; a local one without a delegate reaches nothing", function()
  local dev, notes = h.launched({ ios = 17 })
  notes:on(did_receive, function() end)
  notes:on(will_present, function() end)
  local m = dev:mark()
  dev:notify(notes)
  dev:open_notification(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, { will_present, did_receive })

  local dev2, plain = h.launched({ ios = 17 })
  dev2:home()
  m = dev2:mark()
  dev2:notify(plain)   -- in the background: the system shows it
  dev2:open_notification(plain)
  lifesim.expect_callbacks(dev2.trace:callbacks{ app = plain, since = m },
                           { "sceneWillEnterForeground:", "sceneDidBecomeActive:" })
end)

lifesim.test("before iOS 10 there is no UNUserNotificationCenter: a remote notification takes the legacy path", function()
  local dev, notes = h.launched({ ios = 9 })
  notes:on(did_receive, function() end)
  dev:home()
  local m = dev:mark()
  dev:open_notification(notes, { remote = true })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
                           { "applicationWillEnterForeground:", legacy, "applicationDidBecomeActive:" })
end)
