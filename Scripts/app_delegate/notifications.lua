-- Every app-level callback is followed at once by its UIApplication notification.
local h = require "helpers"

lifesim.test("iOS 12: launch, Home, return, memory warning, force-quit", function()
  local dev, notes = h.device_with_app({ ios = 12 })

  local m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(h.callbacks_and_notifications(dev, notes, m), {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "UIApplicationDidFinishLaunchingNotification",
    "applicationDidBecomeActive:",
    "UIApplicationDidBecomeActiveNotification",
  })

  m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(h.callbacks_and_notifications(dev, notes, m), {
    "applicationWillResignActive:",
    "UIApplicationWillResignActiveNotification",
    "applicationDidEnterBackground:",
    "UIApplicationDidEnterBackgroundNotification",
  })

  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(h.callbacks_and_notifications(dev, notes, m), {
    "applicationWillEnterForeground:",
    "UIApplicationWillEnterForegroundNotification",
    "applicationDidBecomeActive:",
    "UIApplicationDidBecomeActiveNotification",
  })

  m = dev:mark()
  dev:memory_warning()
  lifesim.expect_callbacks(h.callbacks_and_notifications(dev, notes, m), {
    "applicationDidReceiveMemoryWarning:",
    "UIApplicationDidReceiveMemoryWarningNotification",
  })

  m = dev:mark()
  dev:switcher()
  dev:kill(notes)
  lifesim.expect_callbacks(h.callbacks_and_notifications(dev, notes, m), {
    "applicationWillResignActive:",
    "UIApplicationWillResignActiveNotification",
    "applicationDidEnterBackground:",
    "UIApplicationDidEnterBackgroundNotification",
    "applicationWillTerminate:",
    "UIApplicationWillTerminateNotification",
  })
end)

lifesim.test("iOS 12: each notification record directly follows its callback record", function()
  local dev, notes = h.launched({ ios = 12 })
  dev:home()
  dev:launch(notes)
  dev:switcher()
  dev:kill(notes)

  local posted_after = {
    ["application:didFinishLaunchingWithOptions:"] = "UIApplicationDidFinishLaunchingNotification",
    ["applicationDidBecomeActive:"] = "UIApplicationDidBecomeActiveNotification",
    ["applicationWillResignActive:"] = "UIApplicationWillResignActiveNotification",
    ["applicationDidEnterBackground:"] = "UIApplicationDidEnterBackgroundNotification",
    ["applicationWillEnterForeground:"] = "UIApplicationWillEnterForegroundNotification",
    ["applicationWillTerminate:"] = "UIApplicationWillTerminateNotification",
  }
  local records = dev.trace:records{ app = notes }
  local checked = 0
  for i, record in ipairs(records) do
    local expected = record.kind == "callback" and posted_after[record.callback]
    if expected then
      local following = records[i + 1]
      assert(following and following.kind == "notification" and following.callback == expected,
             record.callback .. " at seq " .. record.seq .. " should be followed by " .. expected)
      checked = checked + 1
    end
  end
  assert(checked == 9, "nine callbacks with notifications were checked, got " .. checked)
end)

lifesim.test("iOS 12: observers hear the notifications they registered for", function()
  local dev, notes = h.device_with_app({ ios = 12 })
  local heard = {}
  local function note(ctx) heard[#heard + 1] = ctx.callback end
  notes:observe("UIApplicationDidEnterBackgroundNotification", note)
  notes:observe("UIApplicationWillEnterForegroundNotification", note)

  dev:launch(notes)
  dev:home()
  dev:launch(notes)

  lifesim.expect_callbacks(heard, {
    "UIApplicationDidEnterBackgroundNotification",
    "UIApplicationWillEnterForegroundNotification",
  })
end)
