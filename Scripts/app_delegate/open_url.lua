-- Opening a URL: cold (in the launch options, then openURL), warm (between foreground entry and activation), refused, and iOS 8's selector.
local h = require "helpers"

local url = "notes://note/42"

lifesim.test("iOS 12: URL opens an app that is not running", function()
  local dev, notes = h.device_with_app({ ios = 12 })
  local launch_url, opened_url
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx)
    launch_url = ctx.options.url
    return true
  end)
  notes:on("application:openURL:options:", function(ctx)
    opened_url = ctx.options.url
    return true
  end)

  local m = dev:mark()
  dev:open_url(notes, url)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "application:openURL:options:",
    "applicationDidBecomeActive:",
  })
  assert(launch_url == url, "the launch options carry the URL")
  assert(opened_url == url, "openURL receives the URL")
  assert(notes.state == "active", "the app is active")
end)

lifesim.test("iOS 12: URL opens a suspended app", function()
  local dev, notes = h.launched({ ios = 12 })
  dev:home()
  dev:advance(10)

  local m = dev:mark()
  dev:launch(notes, { url = url })

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillEnterForeground:",
    "application:openURL:options:",
    "applicationDidBecomeActive:",
  })
  assert(notes.launches == 1, "a warm URL open is not a new launch")
end)

-- Either launch method returning false refuses the URL, not the launch.
for _, refusing in ipairs({
  "application:didFinishLaunchingWithOptions:", "application:willFinishLaunchingWithOptions:",
}) do
  lifesim.test("iOS 12: " .. refusing .. " returns false, so openURL is not called", function()
    local dev, notes = h.device_with_app({ ios = 12 })
    notes:on(refusing, function() return false end)

    local m = dev:mark()
    dev:open_url(notes, url)

    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
      "application:willFinishLaunchingWithOptions:",
      "application:didFinishLaunchingWithOptions:",
      "applicationDidBecomeActive:",
    })
    assert(notes.state == "active", "refusing the URL does not refuse the launch")
  end)
end

lifesim.test("iOS 8: the pre-iOS 9 openURL selector, cold and warm", function()
  local dev, notes = h.device_with_app({ ios = 8 })

  local m = dev:mark()
  dev:open_url(notes, url)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "application:openURL:sourceApplication:annotation:",
    "applicationDidBecomeActive:",
  })

  dev:home()
  m = dev:mark()
  dev:open_url(notes, url)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillEnterForeground:",
    "application:openURL:sourceApplication:annotation:",
    "applicationDidBecomeActive:",
  })
end)
