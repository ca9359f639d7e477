-- The scheduler as a policy (reference §3.5): `dev:policy{ task_scheduler = f }`
-- decides how long after its earliest time a submitted request runs, or that
-- it never runs; the request's own conditions still hold; `dev.stats` counts
-- what the scheduler did.

local REFRESH, CLEAN = "com.example.feed.refresh", "com.example.feed.clean"

local function feed()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.feed", background_modes = { "fetch", "processing" },
                           background_tasks = { REFRESH, CLEAN } }
  local runs = {}
  for _, id in ipairs{ REFRESH, CLEAN } do
    app:register_task(id, function(ctx, task)
      runs[#runs + 1] = ("%s@%g"):format(id == REFRESH and "refresh" or "clean", dev.now)
      task:complete(true)
    end)
  end
  return dev, app, runs
end

lifesim.test("the policy's delay moves the run; what it reads describes the request and the device", function()
  local dev, app, runs = feed()
  local asked
  dev:policy{ task_scheduler = function(d, r)
    asked = r
    assert(d == dev)
    return 600
  end }
  app:on("sceneDidEnterBackground:", function(ctx) ctx:submit_task{ id = REFRESH, kind = "refresh", earliest = 60 } end)
  dev:launch(app)
  dev:advance(100)
  dev:home()
  assert(asked.app == app and asked.id == REFRESH and asked.kind == "refresh", tostring(asked.id))
  assert(asked.earliest == 160 and asked.submitted == 100, asked.earliest)
  assert(asked.last_used == 100 and asked.time_of_day == 100, asked.last_used)
  assert(asked.charging == false and asked.network == true and asked.locked == false)
  dev:advance(1000)
  assert(table.concat(runs, " ") == "refresh@760", table.concat(runs, " "))
  local s = dev.stats.tasks
  assert(s.submitted == 1 and s.run == 1 and s.completed == 1 and s.expired == 0)
  assert(s.delay == 600, s.delay)
  assert(type(dev:policy().task_scheduler) == "function")
end)

lifesim.test("nil never runs a request; the debugger still can; \"default\" puts the default back", function()
  local dev, app, runs = feed()
  dev:policy{ task_scheduler = function() return nil end }
  app:on("sceneDidEnterBackground:", function(ctx) ctx:submit_task{ id = REFRESH, kind = "refresh" } end)
  dev:launch(app)
  dev:home()
  dev:advance(86400)
  assert(#runs == 0)
  local log = dev.trace:records{ app = app, kind = "log" }
  assert(log[1].detail:find("the scheduler will not run it", 1, true), log[1].detail)
  dev:run_task(app, REFRESH)
  assert(table.concat(runs, " ") == "refresh@86400")
  dev:policy{ task_scheduler = "default" }
  assert(dev:policy().task_scheduler == nil)
  dev:launch(app)
  dev:home()
  dev:advance(1)
  assert(table.concat(runs, " ") == "refresh@86400 refresh@86400", table.concat(runs, " "))
end)

lifesim.test("a processing request the policy lets run still waits for the device to be idle and charging", function()
  local dev, app, runs = feed()
  dev:policy{ task_scheduler = function(_, r) return r.kind == "processing" and 0 or nil end }
  app:on("sceneDidEnterBackground:", function(ctx)
    ctx:submit_task{ id = CLEAN, kind = "processing", requires_power = true }
  end)
  dev:launch(app)
  dev:home()
  dev:advance(100)
  dev:lock()
  dev:advance(100)
  assert(#runs == 0)
  dev:charging(true)
  assert(table.concat(runs, " ") == "clean@200", table.concat(runs, " "))
end)

lifesim.test("a policy that returns something else is a clear error naming it", function()
  local dev, app = feed()
  dev:policy{ task_scheduler = function() return -5 end }
  app:on("sceneDidEnterBackground:", function(ctx) ctx:submit_task{ id = REFRESH, kind = "refresh" } end)
  dev:launch(app)
  local ok, err = pcall(dev.home, dev)
  assert(not ok and tostring(err):find("task_scheduler", 1, true), tostring(err))
  local bad, msg = pcall(dev.policy, dev, { task_scheduler = "eager" })
  assert(not bad and tostring(msg):find("must be a function(dev, request)", 1, true), tostring(msg))
end)
