-- Incoming calls: the iOS 14 compact banner, the full-screen call interface, and the return to
-- the app when an answered call ends.
--
-- Sources: reference §2.4 (a full-screen interruption resigns the app; answering switches away,
-- applicationDidEnterBackground:); from iOS 14 incoming calls show as a compact banner on an
-- unlocked iPhone, and indirect reports say the app under it stays active (no published callback
-- log: reference §2.4 names the sources); after
-- an answered call ends, iOS returns to the app that was in front. The profile fact call_style
-- is "banner" from iOS 14 and "full_screen" before.
local h = require "helpers"

lifesim.test("iOS 17: a call shows as a banner; the app stays active, declined or answered", function()
  local dev, notes = h.launched({ ios = 17 })
  assert(dev.profile.call_style == "banner")
  local m = dev:mark()
  dev:interrupt("call")
  assert(dev.interruption == "call" and notes.state == "active")
  dev:end_interrupt()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
  dev:interrupt("call")
  dev:end_interrupt{ accept = true }
  assert(notes.state == "active", "answered from the banner, the call stays compact")
  dev:end_call()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
end)

lifesim.test("iOS 17, full screen: resign; declined, active again", function()
  local dev, notes = h.launched({ ios = 17 })
  local m = dev:mark()
  dev:interrupt("call", { style = "full_screen" })
  assert(notes.state == "inactive")
  dev:end_interrupt()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m },
                           { "sceneWillResignActive:", "sceneDidBecomeActive:" })
end)

lifesim.test("iOS 12: answered, the app goes to the background; when the call ends, iOS returns to it", function()
  local dev, notes = h.launched({ ios = 12 })
  assert(dev.profile.call_style == "full_screen")
  local m = dev:mark()
  dev:interrupt("call")
  dev:end_interrupt{ accept = true }
  assert(notes.state == "suspended")
  dev:advance(300)
  local back = dev:mark()
  dev:end_call()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = back },
                           { "applicationWillEnterForeground:", "applicationDidBecomeActive:" })
  assert(notes.state == "active")
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillResignActive:", "applicationDidEnterBackground:",
    "applicationWillEnterForeground:", "applicationDidBecomeActive:",
  })
end)

lifesim.test("ending a call that is not in progress is refused, and leaves no record", function()
  local dev = h.launched({ ios = 17 })
  local m = dev:mark()
  local ok, err = pcall(dev.end_call, dev)
  assert(not ok and tostring(err):find("no answered call", 1, true), tostring(err))
  assert(#dev.trace:records{ since = m } == 0)
  ok, err = pcall(dev.interrupt, dev, "alert", { style = "banner" })
  assert(not ok and tostring(err):find("only a call has a style", 1, true), tostring(err))
end)
