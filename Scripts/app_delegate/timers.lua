-- App timers (ctx:after): they run on time while the app runs, wait while it is suspended, and die with the process.
local h = require "helpers"

lifesim.test("iOS 12: a timer runs on time while the app is active", function()
  local dev, notes = h.device_with_app({ ios = 12 })
  local fired_at = {}
  notes:on("applicationDidBecomeActive:", function(ctx)
    ctx:after(5, function(timer_ctx) fired_at[#fired_at + 1] = timer_ctx.now end)
  end)

  dev:launch(notes)
  dev:advance(10)

  assert(#fired_at == 1, "the timer fired once")
  assert(fired_at[1] == 5, "it fired 5 s after launch, got " .. tostring(fired_at[1]))
end)

lifesim.test("iOS 12: a timer set in didEnterBackground waits for the next launch", function()
  local dev, notes = h.launched({ ios = 12 })
  local fired_at = {}
  notes:on("applicationDidEnterBackground:", function(ctx)
    ctx:after(10, function(timer_ctx) fired_at[#fired_at + 1] = timer_ctx.now end)
  end)

  dev:home()
  dev:advance(60)
  assert(notes.state == "suspended", "the app is suspended")
  assert(#fired_at == 0, "a suspended app's timer does not fire, though it is 50 s overdue")

  dev:launch(notes)
  assert(#fired_at == 1, "the overdue timer fires as soon as the app runs again")
  assert(fired_at[1] == 60, "it fires at the relaunch time, got " .. tostring(fired_at[1]))

  dev:advance(60)
  assert(#fired_at == 1, "it fires only once")
end)

lifesim.test("iOS 12: a timer whose process was force-quit never fires", function()
  local dev, notes = h.launched({ ios = 12 })
  local fired = 0
  notes:on("applicationDidEnterBackground:", function(ctx)
    ctx:after(10, function() fired = fired + 1 end)
  end)

  dev:home()
  dev:advance(5)
  dev:kill(notes)
  assert(notes.state == "notRunning", "the app was force-quit")

  notes:on("applicationDidEnterBackground:", function() end)  -- no new timer at the next Home
  dev:launch(notes)
  dev:advance(120)
  dev:home()
  dev:advance(120)
  assert(fired == 0, "the timer belonged to the old process and never fires")
end)
