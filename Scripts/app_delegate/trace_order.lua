-- Trace order of a force-quit, and refused actions: a force-quit's kill record comes after
-- applicationWillTerminate: has run, because the process dies after it returns; an action the
-- device refuses raises its error and leaves no action record.
--
-- Sources: reference §2.6 (force-quit from the switcher: the running app gets
-- applicationWillTerminate:, then the process is gone) and §3.3 ("approximately five seconds
-- to perform any tasks and return": the process ends after the method returns; Apple,
-- UIApplicationDelegate applicationWillTerminate:).
local h = require "helpers"

-- Every record since `m` as "kind detail", for order checks.
local function records(dev, m)
  local out = {}
  for _, r in ipairs(dev.trace:records{ since = m }) do
    if r.kind == "callback" then out[#out + 1] = r.callback
    elseif r.kind == "state" and not r.scene then out[#out + 1] = "state " .. r.from .. " -> " .. r.to
    elseif r.kind == "kill" then out[#out + 1] = "kill " .. r.reason
    elseif r.kind == "action" then out[#out + 1] = "action " .. r.action
    end
  end
  return out
end

lifesim.test("iOS 12, frontmost: the kill record follows applicationWillTerminate:", function()
  local dev, notes = h.launched({ ios = 12 })
  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(records(dev, m), {
    "action kill", "applicationWillResignActive:", "state active -> inactive",
    "state inactive -> background", "applicationDidEnterBackground:",
    "applicationWillTerminate:", "kill user", "state background -> notRunning",
  })
end)

lifesim.test("iOS 17, scenes: after the disconnect, the discard and applicationWillTerminate:", function()
  local dev, notes = h.launched({ ios = 17 })
  local m = dev:mark()
  dev:kill(notes)
  local got = records(dev, m)
  local n = #got
  lifesim.expect_callbacks({ got[n - 3], got[n - 2], got[n - 1], got[n] }, {
    "application:didDiscardSceneSessions:", "applicationWillTerminate:", "kill user", "state inactive -> notRunning",
  })
end)

lifesim.test("a suspended app: no callback, the kill record, then the state", function()
  local dev, notes = h.launched({ ios = 12 })
  dev:home()
  local m = dev:mark()
  dev:kill(notes)
  lifesim.expect_callbacks(records(dev, m), { "action kill", "kill user", "state suspended -> notRunning" })
end)

lifesim.test("a refused action raises and leaves no action record", function()
  local dev, notes = h.device_with_app({ ios = 17 })
  dev:lock()
  local m = dev:mark()
  local ok, err = pcall(dev.launch, dev, notes)
  assert(not ok and tostring(err):find("locked", 1, true), tostring(err))
  lifesim.expect_callbacks(records(dev, m), {})
  dev:unlock()
  m = dev:mark()
  ok = pcall(dev.unlock, dev)  -- not locked
  assert(not ok)
  ok = pcall(dev.end_interrupt, dev)  -- nothing showing
  assert(not ok)
  lifesim.expect_callbacks(records(dev, m), {})

  local dev2, app = h.launched({ ios = 17 }, { root = { class = "Root" } })
  m = dev2:mark()
  ok, err = pcall(app.pop, app)  -- only the root
  assert(not ok and tostring(err):find("only its root", 1, true), tostring(err))
  lifesim.expect_callbacks(records(dev2, m), {})
end)
