-- BGTaskScheduler (reference §3.5): declare, register, submit; the system
-- runs a refresh request at its earliest time and a processing request when
-- the device is idle; a task holds its process until it completes, and one
-- that does not complete in its time is killed. The debugger's two calls are
-- dev:run_task and dev:expire_task.

local REFRESH, CLEAN = "com.example.feed.refresh", "com.example.feed.clean"

-- A feed app that declares both tasks and registers their launch handlers
-- (as its code does at every launch); `on_run[id]` is what a handler does.
local function feed(options)
  options = options or {}
  local dev = lifesim.device{ ios = options.ios or 17 }
  local app = dev:install{ bundle = "com.example.feed", background_modes = options.modes or { "fetch", "processing" },
                           background_tasks = { REFRESH, CLEAN } }
  local on_run = {}
  for _, id in ipairs{ REFRESH, CLEAN } do
    app:register_task(id, function(ctx, task)
      if on_run[id] then on_run[id](ctx, task) else task:complete(true) end
    end)
  end
  return dev, app, on_run
end

-- Submits `request` from the app's code (a handler of the scene going to the background).
local function submit_on_background(app, request)
  app:on("sceneDidEnterBackground:", function(ctx) ctx:submit_task(request) end)
end

-- The details of `kind` records since `since`, as "t detail".
local function records(dev, app, kind, since)
  local out = {}
  for _, r in ipairs(dev.trace:records{ app = app, kind = kind, since = since }) do
    out[#out + 1] = ("%g %s"):format(r.t, r.detail or r.reason or "")
  end
  return out
end

local error_of = require("helpers").error_of

lifesim.test("a refresh request runs at its earliest time: a background launch with no scene, then suspension", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 900 })
  local seen
  on_run[REFRESH] = function(ctx, task)
    seen = ("%s %s %s %s"):format(task.id, task.kind, app.state, tostring(task.running))
    ctx:work(2)
    task:complete(true)
  end
  local m = dev:mark()
  dev:run()  -- nothing: the app never ran, so nothing was submitted
  assert(seen == nil)
  dev:launch(app)
  dev:home()
  dev:advance(1000)
  assert(seen == REFRESH .. " refresh background true", seen)
  lifesim.expect_callbacks(records(dev, app, "log", m), {
    "0 BGTaskScheduler: submitted BGAppRefreshTaskRequest com.example.feed.refresh, earliest t=900",
    "900 BGTaskScheduler: runs BGAppRefreshTask com.example.feed.refresh, submitted at t=0",
    "902 BGAppRefreshTask com.example.feed.refresh: setTaskCompleted(success: true)",
  })
  assert(app.state == "suspended", app.state)
  assert(#app.scenes == 1 and app.scenes[1].state == "background", "no new scene connects for a task")
end)

lifesim.test("a cold launch for a task runs the launch methods and connects no scene", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 60 })
  dev:launch(app)
  dev:home()
  dev:at(30, function() dev:memory_pressure() end)  -- jetsam ends the suspended process
  local m
  dev:at(31, function() m = dev:mark() end)
  dev:advance(120)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = app, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
  })
  assert(app.state == "suspended", app.state)
end)

lifesim.test("the same identifier replaces the pending request; a second refresh identifier is too many", function()
  local dev, app = feed()
  local pending, too_many
  app:on("sceneDidEnterBackground:", function(ctx)
    ctx:submit_task{ id = REFRESH, kind = "refresh", earliest = 900 }
    ctx:submit_task{ id = REFRESH, kind = "refresh", earliest = 1800 }
    ctx:submit_task{ id = CLEAN, kind = "processing", earliest = 60, requires_power = true }
    pending = ctx:pending_tasks()
    -- "a total of 1 refresh task and 10 processing tasks scheduled at any time"
    ctx:cancel_task(CLEAN)
    too_many = error_of(function() ctx:submit_task{ id = CLEAN, kind = "refresh" } end)
  end)
  dev:launch(app)
  dev:home()
  assert(too_many:find("BGTaskSchedulerErrorCodeTooManyPendingTaskRequests: at most 1 refresh request may be pending", 1, true), too_many)
  assert(#pending == 2, #pending)
  assert(pending[1].id == REFRESH and pending[1].kind == "refresh" and pending[1].earliest == 1800, pending[1].earliest)
  assert(pending[2].id == CLEAN and pending[2].kind == "processing")
end)

lifesim.test("misuse is the error iOS gives", function()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.feed", background_modes = { "fetch" },
                           background_tasks = { REFRESH, CLEAN } }
  -- Not declared in BGTaskSchedulerPermittedIdentifiers.
  local err = error_of(function() app:register_task("com.example.other", function() end) end)
  assert(err:find("is not in BGTaskSchedulerPermittedIdentifiers", 1, true), err)
  app:register_task(REFRESH, function(_, task) task:complete(true) end)
  err = error_of(function() app:register_task(REFRESH, function() end) end)
  assert(err:find("has already been registered", 1, true), err)
  local errors = {}
  app:on("sceneDidEnterBackground:", function(ctx)
    -- Late: after application:didFinishLaunchingWithOptions: returned.
    errors.late = error_of(function() app:register_task(CLEAN, function() end) end)
    -- No 'processing' mode.
    errors.mode = error_of(function() ctx:submit_task{ id = CLEAN, kind = "processing" } end)
  end)
  dev:launch(app)
  dev:home()
  assert(errors.late:find("All launch handlers must be registered before application finishes launching", 1, true), errors.late)
  assert(errors.mode:find("BGTaskSchedulerErrorCodeNotPermitted: a BGProcessingTaskRequest needs the 'processing' background mode", 1, true), errors.mode)
end)

lifesim.test("a submit with no registered handler is the exception iOS raises", function()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.feed", background_modes = { "fetch" }, background_tasks = { REFRESH } }
  local err
  app:on("sceneDidEnterBackground:", function(ctx)
    err = error_of(function() ctx:submit_task{ id = REFRESH, kind = "refresh" } end)
  end)
  dev:launch(app)
  dev:home()
  assert(err:find("No launch handler registered for task with identifier com.example.feed.refresh", 1, true), err)
end)

lifesim.test("a handler registered in didFinishLaunching counts for that process only", function()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.feed", background_modes = { "fetch" }, background_tasks = { REFRESH } }
  local registered = 0
  app:on("application:didFinishLaunchingWithOptions:", function()
    app:register_task(REFRESH, function(_, task) task:complete(true) end)
    registered = registered + 1
  end)
  dev:launch(app)
  dev:home()
  dev:switcher()
  dev:kill(app)
  dev:launch(app)  -- a new process registers again: no error
  assert(registered == 2, registered)
end)

lifesim.test("a task that does not complete: its expiration handler at 30 s, then a kill 5 s later", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 100 })
  local expired_at
  on_run[REFRESH] = function(ctx, task)
    ctx:dirty(2)
    task.on_expire = function() expired_at = dev.now end
  end
  dev:launch(app)
  dev:home()
  local m = dev:mark()
  dev:advance(200)
  assert(expired_at == 130, tostring(expired_at))
  lifesim.expect_callbacks(records(dev, app, "expire", m), { "130 BGAppRefreshTask com.example.feed.refresh" })
  lifesim.expect_callbacks(records(dev, app, "kill", m),
    { "135 BGAppRefreshTask com.example.feed.refresh did not call setTaskCompleted(success:) before its time ran out" })
  lifesim.expect_callbacks(records(dev, app, "data_loss", m), { "135 2 unsaved" })
end)

lifesim.test("without an expiration handler the task is marked complete and unsuccessful, with no kill", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 100 })
  on_run[REFRESH] = function() end  -- never completes, no on_expire
  dev:launch(app)
  dev:home()
  local m = dev:mark()
  dev:advance(200)
  lifesim.expect_callbacks(records(dev, app, "kill", m), {})
  lifesim.expect_callbacks(records(dev, app, "log", m), {
    "100 BGTaskScheduler: runs BGAppRefreshTask com.example.feed.refresh, submitted at t=0",
    "130 BGAppRefreshTask com.example.feed.refresh: setTaskCompleted(success: false)",
  })
  assert(app.state == "suspended", app.state)
end)

-- The app submits a refresh request for t=100 and the user swipes it away;
-- `runs()` counts the refresh tasks run since.
local function force_quit_with_refresh()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 100 })
  local n = 0
  on_run[REFRESH] = function(_, task) n = n + 1; task:complete(true) end
  dev:launch(app)
  dev:home()
  dev:switcher()
  dev:kill(app)
  return dev, app, function() return n end
end

lifesim.test("after a force-quit no refresh task runs until the user opens the app", function()
  local dev, app, runs = force_quit_with_refresh()
  dev:advance(1000)
  assert(runs() == 0, runs())
  dev:launch(app)  -- the request is overdue: it runs now
  assert(runs() == 1, runs())
end)

lifesim.test("a processing request waits for the device to be locked and charging, and expires at unlock", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = CLEAN, kind = "processing", earliest = 60, requires_power = true })
  local started, expired
  on_run[CLEAN] = function(_, task)
    started = dev.now
    task.on_expire = function() expired = dev.now; task:complete(false) end
  end
  dev:launch(app)
  dev:home()
  dev:advance(100)
  assert(started == nil, "ran unlocked")
  dev:lock()
  dev:advance(100)
  assert(started == nil, "ran without power")
  dev:charging(true)
  assert(started == 200, tostring(started))
  dev:advance(3600)
  assert(expired == nil, "a processing task has minutes, not 30 s")
  dev:unlock()
  assert(expired == 3800, tostring(expired))
  assert(app.state == "suspended", app.state)
end)

lifesim.test("the debugger's launch and expiration: dev:run_task and dev:expire_task", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 86400 })
  local log = {}
  on_run[REFRESH] = function(_, task)
    log[#log + 1] = "run"
    task.on_expire = function() log[#log + 1] = "expire"; task:complete(false) end
  end
  dev:launch(app)
  dev:home()
  local err = error_of(function() dev:expire_task(app, REFRESH) end)
  assert(err:find("no task 'com.example.feed.refresh' is running", 1, true), err)
  dev:run_task(app, REFRESH)
  dev:expire_task(app, REFRESH)
  assert(table.concat(log, " ") == "run expire", table.concat(log, " "))
  err = error_of(function() dev:run_task(app, REFRESH) end)
  assert(err:find("no request 'com.example.feed.refresh' is pending", 1, true), err)
end)

lifesim.test("app:submit_task: a request submitted by an earlier process, outside any handler", function()
  local dev, app, on_run = feed()
  app:submit_task{ id = REFRESH, kind = "refresh", earliest = 86400 }
  local ran
  on_run[REFRESH] = function(ctx, task)
    ran = app.state
    local err = error_of(function() app:submit_task{ id = REFRESH, kind = "refresh" } end)
    assert(err:find("in a handler, use ctx:submit_task", 1, true), err)
    task:complete(true)
  end
  dev:run_task(app, REFRESH)  -- the app never ran in this script: a launch in the background
  assert(ran == "background", tostring(ran))
  assert(app.state == "suspended", app.state)
end)

lifesim.test("a task running when its process dies is said in the trace", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 100 })
  on_run[REFRESH] = function() end
  dev:launch(app)
  dev:home()
  dev:at(110, function() dev:memory_pressure() end)
  local m = dev:mark()
  dev:advance(200)
  lifesim.expect_callbacks(records(dev, app, "warning", m),
    { "110 BGAppRefreshTask com.example.feed.refresh ended with its process, without setTaskCompleted(success:)" })
end)

lifesim.test("cancel_task removes a pending request; a running task goes on", function()
  local dev, app, on_run = feed()
  local pending
  app:on("sceneDidEnterBackground:", function(ctx)
    ctx:submit_task{ id = REFRESH, kind = "refresh", earliest = 100 }
    ctx:submit_task{ id = CLEAN, kind = "processing", earliest = 100 }
    ctx:cancel_task(CLEAN)
    pending = ctx:pending_tasks()
  end)
  local completed = false
  on_run[REFRESH] = function(ctx, task)
    ctx:cancel_all_tasks()
    task:complete(true)
    completed = true
  end
  dev:launch(app)
  dev:home()
  assert(#pending == 1 and pending[1].id == REFRESH)
  dev:advance(200)
  assert(completed)
end)

lifesim.test("an app back on screen when the grace ends is not killed: the task ends unsuccessful", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 10 })
  on_run[REFRESH] = function(_, task) task.on_expire = function() end end
  dev:launch(app)
  dev:home()
  dev:advance(12)
  dev:launch(app)  -- the user opens the app while its task runs
  local m = dev:mark()
  dev:advance(60)
  lifesim.expect_callbacks(records(dev, app, "kill", m), {})
  lifesim.expect_callbacks(records(dev, app, "log", m),
    { "45 BGAppRefreshTask com.example.feed.refresh: setTaskCompleted(success: false)" })
  assert(app.state == "active", app.state)
end)

lifesim.test("a handler registered by an earlier process does not run in a new one", function()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.feed", background_modes = { "fetch" }, background_tasks = { REFRESH } }
  local launches, runs = 0, 0
  app:on("application:didFinishLaunchingWithOptions:", function()
    launches = launches + 1
    if launches == 1 then app:register_task(REFRESH, function(_, task) runs = runs + 1; task:complete(true) end) end
  end)
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 100 })
  dev:launch(app)
  dev:home()
  dev:at(50, function() dev:memory_pressure() end)  -- the process that registered dies
  local m = dev:mark()
  dev:advance(200)
  assert(launches == 2 and runs == 0, launches .. " " .. runs)
  lifesim.expect_callbacks(records(dev, app, "warning", m),
    { "100 BGAppRefreshTask com.example.feed.refresh: this process registered no launch handler for it, so it does not run" })
end)

lifesim.test("opening the app from a notification releases a refresh request a force-quit held back", function()
  local dev, app, runs = force_quit_with_refresh()
  dev:advance(200)
  dev:notify(app)
  dev:open_notification(app)
  assert(runs() == 1, runs())
end)

lifesim.test("a task's launch starts background time: a task the handler begins expires within it", function()
  local dev, app, on_run = feed()
  submit_on_background(app, { id = REFRESH, kind = "refresh", earliest = 100 })
  on_run[REFRESH] = function(ctx, task)
    ctx:begin_background_task("extra")  -- never ended
    task:complete(true)
  end
  dev:launch(app)
  dev:home()
  dev:advance(200)
  local kill = dev.trace:records{ app = app, kind = "kill" }[1]
  assert(kill and kill.reason == "background-task" and kill.t == 130, kill and kill.t)
end)
