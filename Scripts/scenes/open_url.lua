-- URLs in the scene model: cold in the willConnect options (no openURLContexts), warm through scene:openURLContexts:.
local h = require "helpers"

local url = "notes://note/42"

lifesim.test("iOS 17: URL opens a scene app that is not running", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  local launch_url, connect_url = "unset", nil
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx)
    launch_url = ctx.options.url
    return true
  end)
  notes:on("scene:willConnectToSession:options:", function(ctx) connect_url = ctx.options.url end)

  local m = dev:mark()
  dev:open_url(notes, url)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "application:configurationForConnectingSceneSession:options:",
    "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(launch_url == nil, "with scenes the launch options are nil")
  assert(connect_url == url, "the URL arrives in the connection options")
end)

lifesim.test("iOS 17: URL opens a suspended scene app", function()
  local dev, notes = h.launched({ ios = 17 })
  local opened_url
  notes:on("scene:openURLContexts:", function(ctx) opened_url = ctx.options.url end)
  dev:home()
  dev:advance(10)

  local m = dev:mark()
  dev:open_url(notes, url)

  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "sceneWillEnterForeground:",
    "scene:openURLContexts:",
    "sceneDidBecomeActive:",
  })
  assert(opened_url == url, "scene:openURLContexts: receives the URL")
end)
