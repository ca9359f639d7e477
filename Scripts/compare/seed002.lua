-- Seed 002's experiment, for `lifesim compare --handled --ios 12 --ios 13`: launch, Home, return, swipe away.
-- The app implements the methods the article's app logged; run on its own it checks its iOS's sequence.
local dev = lifesim.device{}   -- no ios: `lifesim compare --ios …` (or --ios) chooses it
local app = dev:install{ bundle = "com.example.lifecycle" }

local implemented = {
  "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
  "applicationWillEnterForeground:", "applicationDidBecomeActive:", "applicationWillResignActive:",
  "applicationDidEnterBackground:", "applicationWillTerminate:",
  "scene:willConnectToSession:options:", "sceneWillEnterForeground:", "sceneDidBecomeActive:",
  "sceneWillResignActive:", "sceneDidEnterBackground:", "sceneDidDisconnect:",
}
for _, selector in ipairs(implemented) do
  app:on(selector, function() end)
end

dev:launch(app)     -- 1. launch
dev:home()          -- 3. dismiss to the background
dev:launch(app)     -- 4. back from the background
dev:switcher()
dev:kill(app)       -- 2. close the app from the switcher

local handled = {}
for _, r in ipairs(dev.trace:records{ kind = "callback" }) do
  if r.handled then handled[#handled + 1] = r.callback end
end
local expected = {
  app_delegate = {
    "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
    "applicationDidBecomeActive:",
    "applicationWillResignActive:", "applicationDidEnterBackground:",
    "applicationWillEnterForeground:", "applicationDidBecomeActive:",
    "applicationWillResignActive:", "applicationDidEnterBackground:", "applicationWillTerminate:",
  },
  scene = {
    "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:",
    "scene:willConnectToSession:options:", "sceneWillEnterForeground:", "sceneDidBecomeActive:",
    "sceneWillResignActive:", "sceneDidEnterBackground:",
    "sceneWillEnterForeground:", "sceneDidBecomeActive:",
    "sceneWillResignActive:", "sceneDidDisconnect:", "applicationWillTerminate:",
  },
}
lifesim.expect_callbacks(handled, expected[app.model])
