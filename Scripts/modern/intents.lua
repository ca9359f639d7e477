-- App Intents, Shortcuts and Siri (iOS 16+): an intent that does not open the app launches its process in the background with no scene; one that opens it launches it as a tap does.
local h = require "helpers"

local LAUNCH = { "application:willFinishLaunchingWithOptions:", "application:didFinishLaunchingWithOptions:" }

lifesim.test("iOS 17: opens_app = false launches the process in the background and creates no scene", function()
  local dev = lifesim.device{ ios = 17 }
  local notes = dev:install{ bundle = "com.example.notes" }
  local m = dev:mark()
  dev:run_intent(notes, { name = "AddNote", opens_app = false })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, LAUNCH)
  assert(notes.state == "background" and #notes.scenes == 0 and dev.frontmost == nil)
  local action = dev.trace:records{ kind = "action", since = m }[1]
  assert(action.action == "run_intent" and action.detail == "AddNote")
  dev:advance(30)   -- a background launch's window, then suspension
  assert(notes.state == "suspended")
  -- The user opens it later: the process is reused and its first scene connects.
  m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:configurationForConnectingSceneSession:options:", "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:", "sceneDidBecomeActive:",
  })
end)

lifesim.test("iOS 17: opens_app = true comes to the foreground with a scene, as a normal launch", function()
  local dev = lifesim.device{ ios = 17 }
  local notes = dev:install{ bundle = "com.example.notes" }
  dev:run_intent(notes, { name = "ShowNote", opens_app = true })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes }, {
    LAUNCH[1], LAUNCH[2],
    "application:configurationForConnectingSceneSession:options:", "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:", "sceneDidBecomeActive:",
  })
  assert(notes.state == "active" and dev.frontmost == notes)
end)

lifesim.test("iOS 17: an intent reaching a suspended app wakes it without launch methods", function()
  local dev, notes = h.launched({ ios = 17 })
  dev:home()
  local m = dev:mark()
  dev:run_intent(notes, { name = "AddNote" })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
  assert(notes.state == "background", "awake for the intent")
end)

lifesim.test("intents that open the app need the device unlocked; App Intents need iOS 16", function()
  local dev = lifesim.device{ ios = 17 }
  local notes = dev:install{ bundle = "com.example.notes" }
  dev:lock()
  local ok, err = pcall(dev.run_intent, dev, notes, { name = "ShowNote", opens_app = true })
  assert(not ok and err:find("locked", 1, true), err)
  dev:run_intent(notes, { name = "AddNote" })   -- a background intent runs while locked
  assert(notes.state == "background")
  local old = lifesim.device{ ios = 15 }
  local app = old:install{ bundle = "com.example.notes" }
  ok, err = pcall(old.run_intent, old, app, { name = "AddNote" })
  assert(not ok and err:find("App Intents exist from iOS 16", 1, true), err)
  ok, err = pcall(dev.run_intent, dev, notes, {})
  assert(not ok and err:find("'name'", 1, true), err)
end)

lifesim.test("a process killed in an intent's launch methods is gone: the rest of the launch does not run", function()
  local dev = lifesim.device{ ios = 17, memory_mb = 4000 }
  local notes = dev:install{ bundle = "com.example.notes" }
  notes:on(LAUNCH[1], function(ctx) ctx:allocate(3000) end)   -- past its own limit
  local m = dev:mark()
  dev:run_intent(notes, { name = "AddNote" })
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, { LAUNCH[1] })
  local kills = dev.trace:records{ kind = "kill", since = m }
  assert(#kills == 1 and kills[1].reason == "per-process-limit", "one kill, for its own limit")
  assert(notes.state == "notRunning" and not notes.running)
end)
