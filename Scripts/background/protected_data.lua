-- Protected data: with a passcode, applicationProtectedDataWillBecomeUnavailable: 10 s after a lock and …DidBecomeAvailable: at unlock, to running apps only.
local h = require "helpers"

local UNAVAILABLE = "applicationProtectedDataWillBecomeUnavailable:"
local AVAILABLE = "applicationProtectedDataDidBecomeAvailable:"

-- An app that keeps running in the background thanks to an open task.
local function install_worker(dev)
  local worker = dev:install{ bundle = "com.example.worker" }
  worker:on("applicationDidEnterBackground:", function(ctx) ctx:begin_background_task("sync") end)
  worker:on("sceneDidEnterBackground:", function(ctx) ctx:begin_background_task("sync") end)
  return worker
end

lifesim.test("iOS 12: 10 s after a lock a running app hears that protected data goes; a suspended one does not", function()
  local dev = lifesim.device{ ios = 12, passcode = true }
  local worker = install_worker(dev)
  local idle = dev:install{ bundle = "com.example.idle" }
  dev:launch(worker)
  dev:launch(idle)   -- the worker goes to the background with its task
  local m = dev:mark()
  dev:lock()         -- idle is suspended
  assert(worker.state == "background" and idle.state == "suspended")

  dev:advance(9.999)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = worker, since = m }, {})
  dev:advance(0.001)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = worker, since = m }, { UNAVAILABLE })
  local calls = dev.trace:records{ app = worker, kind = "callback", since = m }
  assert(calls[1].t == 10, "at 10 s")
  local names = h.callbacks_and_notifications(dev, worker, m)
  assert(names[2] == "UIApplicationProtectedDataWillBecomeUnavailable", "then its notification, got " .. tostring(names[2]))
  lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = idle, since = m }, { UNAVAILABLE, AVAILABLE }), {})
end)

lifesim.test("iOS 12: at unlock the running app hears that protected data is back; the returning app does not", function()
  local dev = lifesim.device{ ios = 12, passcode = true }
  local worker = install_worker(dev)
  local front = dev:install{ bundle = "com.example.front" }
  dev:launch(worker)
  dev:launch(front)
  dev:lock()
  dev:advance(60)    -- the worker's task is still within its 180 s
  local m = dev:mark()
  dev:unlock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = worker, since = m }, { AVAILABLE })
  -- The app on screen was suspended at the lock: it heard neither, and comes back as usual.
  lifesim.expect_callbacks(dev.trace:callbacks{ app = front, since = m }, {
    "applicationWillEnterForeground:", "applicationDidBecomeActive:",
  })
  local all = dev.trace:records{ kind = "callback", since = m }
  assert(all[1].callback == AVAILABLE, "delivered before the app on screen returns")
end)

lifesim.test("iOS 12: no passcode, no protected-data callbacks", function()
  local dev = lifesim.device{ ios = 12, passcode = false }
  local worker = install_worker(dev)
  dev:launch(worker)
  dev:home()
  local m = dev:mark()
  dev:lock()
  dev:advance(60)
  dev:unlock()
  lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = worker, since = m }, { UNAVAILABLE, AVAILABLE }), {})
  assert(worker.state == "background", "the worker was running all along")
end)

lifesim.test("iOS 12: unlocking within 10 s sends neither; a new lock restarts the 10 s", function()
  local dev = lifesim.device{ ios = 12, passcode = true }
  local worker = install_worker(dev)
  dev:launch(worker)
  dev:home()
  local m = dev:mark()
  dev:lock()
  dev:advance(5)
  dev:unlock()
  dev:advance(3)
  dev:lock()         -- t = 8
  dev:advance(9)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = worker, since = m }, {})
  dev:advance(1)
  local calls = dev.trace:records{ app = worker, kind = "callback", since = m }
  assert(#calls == 1 and calls[1].callback == UNAVAILABLE and calls[1].t == 18, "10 s after the second lock")
end)

lifesim.test("iOS 17: a scene app playing audio gets both on its app delegate", function()
  local dev = lifesim.device{ ios = 17, passcode = true }
  local player = dev:install{ bundle = "com.example.player", background_modes = { "audio" } }
  player:on("sceneDidBecomeActive:", function(ctx) ctx:play_audio(true) end)
  dev:launch(player)
  local m = dev:mark()
  dev:lock()
  dev:advance(30)
  dev:unlock()
  lifesim.expect_callbacks(h.only(dev.trace:callbacks{ app = player, since = m }, { UNAVAILABLE, AVAILABLE }), {
    UNAVAILABLE, AVAILABLE,
  })
  local calls = dev.trace:records{ app = player, kind = "callback", since = m }
  for _, r in ipairs(calls) do
    if r.callback == UNAVAILABLE or r.callback == AVAILABLE then
      assert(r.scene == nil, "an app-level callback")
    end
  end
end)

lifesim.test("iOS 4: a lock only resigns active, so the app on screen still runs and hears it", function()
  local dev = lifesim.device{ ios = 4, passcode = true }
  local notes = dev:install{ bundle = "com.example.notes" }
  dev:launch(notes)
  local m = dev:mark()
  dev:lock()
  assert(notes.state == "inactive")
  dev:advance(10)
  dev:unlock()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:",
    UNAVAILABLE,
    AVAILABLE,
    "applicationDidBecomeActive:",
  })
end)
