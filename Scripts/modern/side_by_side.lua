-- iPad windows side by side (Split View, Slide Over, Stage Manager): a second window opens next to the first, which stays in the foreground.
local h = require "helpers"

local CONNECT = {
  "application:configurationForConnectingSceneSession:options:",
  "scene:willConnectToSession:options:",
  "sceneWillEnterForeground:",
  "sceneDidBecomeActive:",
}

lifesim.test("iPad, iOS 17: open_scene{ beside = true } connects a second window and leaves the first in the foreground", function()
  local dev = lifesim.device{ ios = 17, model = "iPad Pro 11 2018" }
  local notes = dev:install{ bundle = "com.example.notes" }
  dev:launch(notes)
  local first = notes.scenes[1]
  local m = dev:mark()
  local second = notes:open_scene{ beside = true }
  -- Every callback belongs to the new scene: the first gets no resign and no background.
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, CONNECT)
  for _, r in ipairs(dev.trace:records{ app = notes, kind = "callback", since = m }) do
    assert(r.scene == nil or r.scene == second.id, "only the new scene hears of it, got scene " .. tostring(r.scene))
  end
  assert(first.state == "foregroundActive" and second.state == "foregroundActive", "both windows are in the foreground")
  assert(notes.state == "active")
  -- The app did not change as a whole, so no UIApplication notification was posted for the new window.
  assert(#dev.trace:records{ app = notes, kind = "notification", since = m } == 0)

  -- Home takes both windows to the background; the tap brings back the one used last.
  m = dev:mark()
  dev:home()
  assert(first.state == "background" and second.state == "background")
  lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = notes, since = m }, { "sceneDidEnterBackground:" }),
    { "sceneDidEnterBackground:", "sceneDidEnterBackground:" })
end)

lifesim.test("iPad: without beside, open_scene replaces the window on screen, as on iPhone", function()
  local dev = lifesim.device{ ios = 17, model = "iPad Pro 11 2018" }
  local notes = dev:install{ bundle = "com.example.notes" }
  dev:launch(notes)
  local m = dev:mark()
  notes:open_scene()
  local got = dev.trace:callbacks{ app = notes, since = m }
  assert(got[1] == "application:configurationForConnectingSceneSession:options:")
  assert(notes.scenes[1].state == "background", "the first window went to the background")
  lifesim.expect_callbacks(h.only(got, { "sceneWillResignActive:", "sceneDidEnterBackground:" }),
    { "sceneWillResignActive:", "sceneDidEnterBackground:" })
end)

lifesim.test("only iPad models accept beside = true", function()
  local phone = lifesim.device{ ios = 17, model = "iPhone 15" }
  local notes = phone:install{ bundle = "com.example.notes" }
  phone:launch(notes)
  local ok, err = pcall(notes.open_scene, notes, { beside = true })
  assert(not ok and err:find("needs an iPad model", 1, true), err)
  local bare = lifesim.device{ ios = 17 }
  local other = bare:install{ bundle = "com.example.other" }
  bare:launch(other)
  ok, err = pcall(other.open_scene, other, { beside = true })
  assert(not ok and err:find("a device without a model", 1, true), err)
end)

lifesim.test("iPad: beside = true needs the app active on screen", function()
  local dev = lifesim.device{ ios = 17, model = "iPad Pro 11 2018" }
  local notes = dev:install{ bundle = "com.example.notes" }
  local ok, err = pcall(notes.open_scene, notes, { beside = true })
  assert(not ok and err:find("next to an active one on screen", 1, true), err)
end)
