-- The callback traces printed in seeds 000 (§3.1–3.6) and 003 (§1.3.2.1), reproduced exactly.
local h = require "helpers"

-- Seed 000 §3.1–3.4: an iOS 6+ app that logs every app-delegate method.
lifesim.test("seed 000 §3.1 launch", function()
  local dev, app = h.device_with_app({ ios = 12 })
  local m = dev:mark()
  dev:launch(app)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
  })
end)

lifesim.test("seed 000 §3.2 Home or lock", function()
  local dev, app = h.launched({ ios = 12 })
  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
  dev:launch(app)
  m = dev:mark()
  dev:lock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
end)

lifesim.test("seed 000 §3.3 back to the foreground", function()
  local dev, app = h.launched({ ios = 12 })
  dev:home()
  local m = dev:mark()
  dev:launch(app)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "applicationWillEnterForeground:",
    "applicationDidBecomeActive:",
  })
end)

lifesim.test("seed 000 §3.4 double-click Home and swipe the app away", function()
  local dev, app = h.launched({ ios = 12 })
  local m = dev:mark()
  dev:switcher()
  dev:kill(app)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
    "applicationWillTerminate:",
  })
end)

-- Seed 000 §3.5–3.6 list no willFinishLaunching and the sourceApplication form of
-- openURL: the pre-iOS 6 sequence, so these run on iOS 5.
lifesim.test("seed 000 §3.5 URL arrives, app not running (iOS 5)", function()
  local dev, app = h.device_with_app({ ios = 5 })
  local m = dev:mark()
  dev:open_url(app, "notes://new")
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "application:didFinishLaunchingWithOptions:",
    "application:openURL:sourceApplication:annotation:",
    "applicationDidBecomeActive:",
  })
end)

lifesim.test("seed 000 §3.6 URL arrives, app suspended (iOS 5)", function()
  local dev, app = h.launched({ ios = 5 })
  dev:home()
  local m = dev:mark()
  dev:open_url(app, "notes://new")
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "applicationWillEnterForeground:",
    "application:openURL:sourceApplication:annotation:",
    "applicationDidBecomeActive:",
  })
end)

-- Seed 003 §1.3.2.1: an iOS 11-era AppDelegate that logs only these seven methods.
local seed_003_logged = {
  "application:didFinishLaunchingWithOptions:",
  "applicationWillResignActive:",
  "applicationDidEnterBackground:",
  "applicationWillEnterForeground:",
  "applicationDidBecomeActive:",
  "applicationDidReceiveMemoryWarning:",
  "applicationWillTerminate:",
}

lifesim.test("seed 003 §1.3.2.1 launch, Home, return, memory warning", function()
  local dev, app = h.device_with_app({ ios = 11 })
  local function logged_since(m)
    return h.only(dev.trace:callbacks{ app = app, since = m }, seed_003_logged)
  end

  local m = dev:mark()
  dev:launch(app)
  lifesim.expect_callbacks(logged_since(m), {
    "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
  })

  m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(logged_since(m), {
    "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })

  m = dev:mark()
  dev:launch(app)
  lifesim.expect_callbacks(logged_since(m), {
    "applicationWillEnterForeground:",
    "applicationDidBecomeActive:",
  })

  m = dev:mark()
  dev:memory_warning()
  lifesim.expect_callbacks(logged_since(m), {
    "applicationDidReceiveMemoryWarning:",
  })
end)
