-- Cold launch of a scene-based app (iOS 13+): the app delegate finishes launching, then the scene connects and activates.
local h = require "helpers"

local scene_launch = {
  "application:willFinishLaunchingWithOptions:",
  "application:didFinishLaunchingWithOptions:",
  "application:configurationForConnectingSceneSession:options:",
  "scene:willConnectToSession:options:",
  "sceneWillEnterForeground:",
  "sceneDidBecomeActive:",
}

for _, ios in ipairs({ 13, 17, 26 }) do
  lifesim.test("iOS " .. ios .. ": tap the icon of a scene app that is not running", function()
    local dev, notes = h.device_with_app({ ios = ios })
    assert(notes.model == "scene", "from iOS 13 apps adopt scenes by default")

    local m = dev:mark()
    dev:launch(notes)

    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, scene_launch)
    assert(notes.state == "active", "the app is active")
    assert(notes.scenes[1].state == "foregroundActive", "its scene is foregroundActive")
  end)
end

lifesim.test("iOS 17: the app delegate gets no launch options and no foreground callbacks", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  local launch_url = "unset"
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx)
    launch_url = ctx.options.url
    return true
  end)

  dev:launch(notes)

  assert(launch_url == nil, "with scenes the launch options are nil")
  local app_level = h.only(dev.trace:callbacks{ app = notes }, {
    "applicationWillEnterForeground:", "applicationDidBecomeActive:",
  })
  lifesim.expect_callbacks(app_level, {})
end)
