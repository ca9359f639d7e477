-- Background tasks: the budget per backgrounding (600/180/30 s), expiration 5 s early, the silent kill, finishing, timers and background_time_remaining.
local h = require "helpers"

-- One row per iOS generation: the budget and the code of the kill at the limit (reference §0, §3.4).
local generations = {
  { ios = 6,  budget = 600, code = "0x8badf00d" },
  { ios = 12, budget = 180, code = "0x8badf00d" },
  { ios = 17, budget = 30,  code = "0x2182bad2" },
}

-- The "…DidEnterBackground:" of the app's model.
local function did_enter_background(app)
  return app.model == "scene" and "sceneDidEnterBackground:" or "applicationDidEnterBackground:"
end

-- The times of the `kind` records of `app` since `since`.
local function times(dev, app, kind, since)
  local ts = {}
  for _, r in ipairs(dev.trace:records{ app = app, kind = kind, since = since }) do ts[#ts + 1] = r.t end
  return ts
end

for _, g in ipairs(generations) do
  lifesim.test(("iOS %d: a task left open gets %d s, expires 5 s early, then a silent kill %s"):format(g.ios, g.budget, g.code), function()
    local dev, notes = h.launched({ ios = g.ios })
    local remaining_in_callback, expired_at, seen
    notes:on(did_enter_background(notes), function(ctx)
      remaining_in_callback = ctx.app.background_time_remaining
      ctx:begin_background_task("upload", function(task)
        expired_at = dev.now
        seen = { name = task.name, open = task.open, expired = task.expired }
      end)
    end)
    dev:advance(10)

    local m = dev:mark()
    dev:home()
    assert(notes.state == "background", "an open task keeps the app running, got " .. notes.state)
    assert(remaining_in_callback == g.budget,
           "the budget inside …DidEnterBackground:, got " .. tostring(remaining_in_callback))

    dev:advance(g.budget - 5 - 0.001)
    assert(expired_at == nil, "no expiration yet")
    dev:advance(0.001)
    assert(expired_at == 10 + g.budget - 5, "the handler runs 5 s before the limit, got " .. tostring(expired_at))
    assert(seen.name == "upload" and seen.open and seen.expired, "the handler gets its task, open and marked expired")
    assert(notes.state == "background", "still running after the expiration")

    local after_expire = dev:mark()
    dev:advance(5)
    assert(notes.state == "notRunning", "a task open at the limit kills the process, got " .. notes.state)
    local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
    assert(#kills == 1, "one kill")
    assert(kills[1].reason == "background-task", "reason " .. tostring(kills[1].reason))
    assert(kills[1].code == g.code, "code " .. tostring(kills[1].code))
    assert(kills[1].t == 10 + g.budget, "at the limit, got " .. tostring(kills[1].t))
    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = after_expire }, {})  -- silent
  end)
end

lifesim.test("iOS 17: an app-delegate app gets the same 30 s and the iOS 13+ code", function()
  local dev, notes = h.launched({ ios = 17 }, { scenes = false })
  assert(notes.model == "app_delegate")
  notes:on("applicationDidEnterBackground:", function(ctx) ctx:begin_background_task("sync") end)
  local m = dev:mark()
  dev:home()
  dev:advance(60)
  local expires = dev.trace:records{ app = notes, kind = "expire", since = m }
  assert(#expires == 1 and expires[1].t == 25 and expires[1].detail == "sync",
         "an expire record for the task without a handler, at 25 s")
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].t == 30 and kills[1].code == "0x2182bad2", "killed at 30 s with 0x2182bad2")
end)

lifesim.test("iOS 17: every open task expires at the same moment, one record each", function()
  local dev, notes = h.launched({ ios = 17 })
  local handled = {}
  notes:on("sceneDidEnterBackground:", function(ctx)
    for _, name in ipairs{ "a", "b" } do
      ctx:begin_background_task(name, function(task)
        handled[#handled + 1] = ("%s@%g"):format(task.name, dev.now)
        task:finish()
      end)
    end
  end)
  local m = dev:mark()
  dev:home()
  dev:advance(60)

  assert(table.concat(handled, ",") == "a@25,b@25", table.concat(handled, ","))
  local expires = dev.trace:records{ app = notes, kind = "expire", since = m }
  assert(#expires == 2 and expires[1].detail == "a" and expires[2].detail == "b", "one expire record per task")
  assert(#dev.trace:records{ app = notes, kind = "kill", since = m } == 0, "both finished in time: no kill")
  assert(notes.state == "suspended", "suspended once the last task ends, got " .. notes.state)
  local suspended = dev.trace:records{ app = notes, kind = "state", since = m }
  assert(suspended[#suspended].to == "suspended" and suspended[#suspended].t == 25, "suspended at 25 s")
end)

lifesim.test("iOS 17: finishing one of two tasks in the expiration handler still ends in the kill", function()
  local dev, notes = h.launched({ ios = 17 })
  notes:on("sceneDidEnterBackground:", function(ctx)
    ctx:begin_background_task("a", function(task) task:finish() end)
    ctx:begin_background_task("b", function() end)
  end)
  local m = dev:mark()
  dev:home()
  dev:advance(60)
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].t == 30 and kills[1].reason == "background-task", "task b was open at 30 s")
end)

lifesim.test("iOS 12: finishing the task suspends the app at once", function()
  local dev, notes = h.launched({ ios = 12 })
  local task
  notes:on("applicationDidEnterBackground:", function(ctx)
    task = ctx:begin_background_task("save", function() error("must not expire") end)
    ctx:after(20, function() task:finish() end)
  end)
  local m = dev:mark()
  dev:home()
  dev:advance(19)
  assert(notes.state == "background" and task.open, "running while the task is open")
  dev:advance(1)
  assert(notes.state == "suspended", "suspended as the task ends, got " .. notes.state)
  assert(not task.open, "the task is closed")
  dev:advance(300)
  assert(#dev.trace:records{ app = notes, kind = "expire", since = m } == 0, "nothing expires")
  assert(#dev.trace:records{ app = notes, kind = "kill", since = m } == 0, "no kill")
  assert(notes.pid ~= nil, "the suspended process lives on")
end)

lifesim.test("iOS 12: finishing a task twice records a warning", function()
  local dev, notes = h.launched({ ios = 12 })
  notes:on("applicationDidEnterBackground:", function(ctx)
    local task = ctx:begin_background_task("save")
    task:finish()
    task:finish()
  end)
  local m = dev:mark()
  dev:home()
  assert(#dev.trace:records{ app = notes, kind = "warning", since = m } == 1, "one warning")
  assert(notes.state == "suspended")
end)

lifesim.test("iOS 17: with no task the app suspends right after the snapshot", function()
  local dev, notes = h.launched({ ios = 17 })
  local m = dev:mark()
  dev:home()
  assert(notes.state == "suspended")
  local kinds = {}
  for _, r in ipairs(dev.trace:records{ app = notes, since = m }) do
    if r.kind == "snapshot" then kinds[#kinds + 1] = "snapshot" end
    if r.kind == "state" and r.scene == nil then kinds[#kinds + 1] = r.from .. "->" .. r.to end
  end
  assert(table.concat(kinds, " ") == "active->inactive inactive->background snapshot background->suspended",
         table.concat(kinds, " "))
end)

lifesim.test("iOS 17: the budget runs from each backgrounding", function()
  local dev, notes = h.launched({ ios = 17 })
  notes:on("sceneDidBecomeActive:", function(ctx)
    if #ctx.app.tasks == 0 then ctx:begin_background_task("long") end  -- begun in the foreground
  end)
  dev:home()
  dev:advance(4)
  dev:launch(notes)   -- back before any deadline, still holding the task
  dev:advance(100)
  assert(notes.state == "active", "in the foreground a task never runs out")
  local m = dev:mark()
  dev:home()          -- t = 104
  dev:advance(29)
  assert(notes.state == "background", "a fresh 30 s, not what was left")
  dev:advance(1)
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].t == 134, "killed 30 s after the second Home")
end)

lifesim.test("iOS 17: a background task keeps timers running; a suspended app's timers wait", function()
  local dev, notes = h.launched({ ios = 17 })
  local fired = {}
  local hold = true
  notes:on("sceneDidEnterBackground:", function(ctx)
    local task = hold and ctx:begin_background_task("t") or nil
    ctx:after(10, function(timer)
      fired[#fired + 1] = timer.now
      if task then task:finish() end
    end)
  end)

  dev:home()          -- t = 0, with a task
  dev:advance(20)
  assert(fired[1] == 10, "on time while the task runs, got " .. tostring(fired[1]))
  assert(notes.state == "suspended")

  hold = false
  dev:launch(notes)
  dev:home()          -- t = 20, no task
  dev:advance(30)
  assert(#fired == 1, "no fire while suspended")
  dev:launch(notes)   -- t = 50
  assert(fired[2] == 50, "the overdue timer fires when the app runs again, got " .. tostring(fired[2]))
end)

lifesim.test("iOS 17: timers die with a process killed at the limit", function()
  local dev, notes = h.launched({ ios = 17 })
  local fired = 0
  notes:on("sceneDidEnterBackground:", function(ctx)
    ctx:begin_background_task("leak")
    ctx:after(45, function() fired = fired + 1 end)
  end)
  dev:home()
  dev:advance(31)
  assert(notes.state == "notRunning")
  notes:on("sceneDidEnterBackground:", function() end)
  dev:launch(notes)
  dev:advance(60)
  assert(fired == 0, "the timer belonged to the killed process")
end)

lifesim.test("iOS 12: background_time_remaining: DBL_MAX in front, the budget, then counting down", function()
  local dev, notes = h.launched({ ios = 12 })
  local readings = {}
  notes:on("applicationDidEnterBackground:", function(ctx)
    readings.inside = ctx.app.background_time_remaining
    local task = ctx:begin_background_task("t")
    ctx:after(60, function(timer)
      readings.later = timer.app.background_time_remaining
      task:finish()
    end)
  end)
  assert(notes.background_time_remaining == 1.7976931348623157e308, "DBL_MAX in the foreground")
  assert(notes.background_time_remaining ~= math.huge, "finite, not infinity")
  dev:advance(5)
  dev:home()
  assert(readings.inside == 180, "the whole budget inside …DidEnterBackground:")
  assert(notes.background_time_remaining == 180, "the budget starts at the snapshot")
  dev:advance(100)
  assert(readings.later == 120, "60 s into the budget, 120 s left, got " .. tostring(readings.later))
end)
