-- Seed 002's four comparisons (launch, terminate via the switcher, background, return) on iOS 12 and iOS 13.
local h = require "helpers"

-- The methods the article's sample app implemented; anything else is not printed.
local implemented = {
  "application:willFinishLaunchingWithOptions:",
  "application:didFinishLaunchingWithOptions:",
  "applicationWillEnterForeground:",
  "applicationDidBecomeActive:",
  "applicationWillResignActive:",
  "applicationDidEnterBackground:",
  "applicationWillTerminate:",
  "scene:willConnectToSession:options:",
  "sceneWillEnterForeground:",
  "sceneDidBecomeActive:",
  "sceneWillResignActive:",
  "sceneDidEnterBackground:",
  "sceneDidDisconnect:",
}

-- What the article printed for each step, per iOS version.
local printed = {
  [12] = {
    launch = {
      "application:willFinishLaunchingWithOptions:",
      "application:didFinishLaunchingWithOptions:",
      "applicationDidBecomeActive:",
    },
    terminate = {
      "applicationWillResignActive:",
      "applicationDidEnterBackground:",
      "applicationWillTerminate:",
    },
    background = {
      "applicationWillResignActive:",
      "applicationDidEnterBackground:",
    },
    back = {
      "applicationWillEnterForeground:",
      "applicationDidBecomeActive:",
    },
  },
  [13] = {
    launch = {
      "application:willFinishLaunchingWithOptions:",
      "application:didFinishLaunchingWithOptions:",
      "scene:willConnectToSession:options:",
      "sceneWillEnterForeground:",
      "sceneDidBecomeActive:",
    },
    terminate = {
      "sceneWillResignActive:",
      "sceneDidDisconnect:",
      "applicationWillTerminate:",
    },
    background = {
      "sceneWillResignActive:",
      "sceneDidEnterBackground:",
    },
    back = {
      "sceneWillEnterForeground:",
      "sceneDidBecomeActive:",
    },
  },
}

for _, ios in ipairs({ 12, 13 }) do
  local expected = printed[ios]

  lifesim.test("iOS " .. ios .. ": launch, then close from the app switcher", function()
    local dev, app = h.device_with_app({ ios = ios })
    local function printed_since(m)
      return h.only(dev.trace:callbacks{ app = app, since = m }, implemented)
    end

    local m = dev:mark()
    dev:launch(app)
    lifesim.expect_callbacks(printed_since(m), expected.launch)

    m = dev:mark()
    dev:switcher()
    dev:kill(app)
    lifesim.expect_callbacks(printed_since(m), expected.terminate)
    assert(app.state == "notRunning", "the app is closed")
  end)

  lifesim.test("iOS " .. ios .. ": send to the background, then bring back", function()
    local dev, app = h.launched({ ios = ios })
    local function printed_since(m)
      return h.only(dev.trace:callbacks{ app = app, since = m }, implemented)
    end

    local m = dev:mark()
    dev:home()
    lifesim.expect_callbacks(printed_since(m), expected.background)

    m = dev:mark()
    dev:launch(app)
    lifesim.expect_callbacks(printed_since(m), expected.back)
  end)
end
