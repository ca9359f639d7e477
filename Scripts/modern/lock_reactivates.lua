-- Locking on some iPhone models: the side button gives willResignActive, didBecomeActive, willResignActive again, then didEnterBackground (iPhone 14 Pro on 16.5.1, iPhone 15 on 18.3); an iPhone 13 Pro Max does not.
local h = require "helpers"

local APP_LEVEL = {
  "applicationWillResignActive:", "applicationDidBecomeActive:", "applicationDidEnterBackground:",
}

local function lock_calls(model, ios, scenes)
  local dev = lifesim.device{ ios = ios, model = model }
  local app = dev:install{ bundle = "com.example.notes", scenes = scenes }
  dev:launch(app)
  local m = dev:mark()
  dev:lock()
  return dev, app, m
end

lifesim.test("iPhone 14 Pro, iOS 16: resign, become active, resign again, then the background", function()
  local dev, app, m = lock_calls("iPhone 14 Pro", 16, false)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "applicationWillResignActive:", "applicationDidBecomeActive:", "applicationWillResignActive:",
    "applicationDidEnterBackground:",
  })
  -- All at the instant of the lock: what Flutter's engine filters out.
  for _, r in ipairs(dev.trace:records{ app = app, kind = "callback", since = m }) do assert(r.t == 0) end
  assert(app.state == "suspended")
end)

lifesim.test("iPhone 15, iOS 18: the scene app's scene does the same, and so do the UIApplication notifications", function()
  local dev, app, m = lock_calls("iPhone 15", 18)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "sceneWillResignActive:", "sceneDidBecomeActive:", "sceneWillResignActive:", "sceneDidEnterBackground:",
  })
  local posted = {}
  for _, r in ipairs(dev.trace:records{ app = app, kind = "notification", since = m }) do posted[#posted + 1] = r.callback end
  lifesim.expect_callbacks(posted, {
    "UIApplicationWillResignActiveNotification", "UIApplicationDidBecomeActiveNotification",
    "UIApplicationWillResignActiveNotification", "UIApplicationDidEnterBackgroundNotification",
  })
end)

lifesim.test("iPhone 13 Pro Max, iOS 16: the usual lock", function()
  local dev, app, m = lock_calls("iPhone 13 Pro Max", 16, false)
  lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = app, since = m }, APP_LEVEL), {
    "applicationWillResignActive:", "applicationDidEnterBackground:",
  })
  assert(dev.memory_mb == 6144, "6 GB of RAM")
end)

lifesim.test("the unlock returns as usual on every model", function()
  local dev, app = lock_calls("iPhone 14 Pro", 17, false)
  local m = dev:mark()
  dev:unlock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "applicationWillEnterForeground:", "applicationDidBecomeActive:",
  })
end)
