-- iOS 26 continued processing (reference §3.5): work the user starts in the
-- foreground goes on after the app leaves the screen, in a Live Activity; it
-- reports progress, the system expires one that stalls, and the user can
-- cancel it.

local EXPORT = "com.example.video.export.*"

local function video(ios)
  local dev = lifesim.device{ ios = ios or 26 }
  local app = dev:install{ bundle = "com.example.video", background_tasks = { EXPORT } }
  return dev, app
end

local error_of = require("helpers").error_of

-- An export of `steps` steps of 10 s each, reporting progress after each.
local function exporter(dev, app, id, steps, log)
  app:register_task(id, function(ctx, task)
    log[#log + 1] = ("run@%g %s"):format(dev.now, app.state)
    task.on_expire = function(_, t)
      log[#log + 1] = ("expired@%g"):format(dev.now)
      t:complete(false)
    end
    local done = 0
    local function step(c)
      if not task.running then return end
      done = done + 1
      task:progress(done / steps)
      if done == steps then
        log[#log + 1] = ("done@%g"):format(dev.now)
        task:complete(true)
      else
        c:after(10, step)
      end
    end
    ctx:after(10, step)
  end)
end

lifesim.test("a continued task starts from the foreground and goes on after the app leaves the screen", function()
  local dev, app = video()
  local log = {}
  local id = "com.example.video.export.1"
  app:on("sceneDidBecomeActive:", function(ctx)
    exporter(dev, app, id, 6, log)  -- registered when the user taps Export: exempt from the launch-time rule
    ctx:submit_task{ id = id, kind = "continued", title = "Exporting", subtitle = "clip.mov" }
  end)
  dev:launch(app)
  dev:home()
  dev:advance(120)
  assert(table.concat(log, " ") == "run@0 active done@60", table.concat(log, " "))
  assert(app.state == "suspended", app.state)
end)

lifesim.test("a task that reports no progress for 60 s is expired as stalled; the user can cancel one", function()
  local dev, app = video()
  local log = {}
  app:register_task("com.example.video.export.a", function(ctx, task)
    log[#log + 1] = "run a"
    task.on_expire = function() log[#log + 1] = ("a expired@%g"):format(dev.now); task:complete(false) end
  end)
  exporter(dev, app, "com.example.video.export.b", 100, log)
  app:on("sceneDidBecomeActive:", function(ctx)
    ctx:submit_task{ id = "com.example.video.export.a", kind = "continued", title = "A", subtitle = "a" }
    ctx:submit_task{ id = "com.example.video.export.b", kind = "continued", title = "B", subtitle = "b" }
  end)
  dev:launch(app)
  dev:home()
  dev:advance(100)
  dev:cancel_task(app, "com.example.video.export.b")
  assert(table.concat(log, " ") == "run a run@0 active a expired@60 expired@100", table.concat(log, " "))
  assert(error_of(function() dev:cancel_task(app, "com.example.video.export.b") end)
    :find("no task 'com.example.video.export.b' is running", 1, true))
end)

lifesim.test("only iOS 26 has it, only from the foreground, and only with a title", function()
  local dev, app = video(18)
  app:on("sceneDidBecomeActive:", function(ctx)
    assert(error_of(function()
      ctx:submit_task{ id = "com.example.video.export.1", kind = "continued", title = "T", subtitle = "S" }
    end):find("exists from iOS 26 (this device runs iOS 18)", 1, true))
  end)
  dev:launch(app)

  dev, app = video()
  app:register_task("com.example.video.export.1", function(_, task) task:complete(true) end)
  app:on("sceneDidEnterBackground:", function(ctx)
    assert(error_of(function()
      ctx:submit_task{ id = "com.example.video.export.1", kind = "continued", title = "T", subtitle = "S" }
    end):find("is submitted from the foreground", 1, true))
    assert(error_of(function()
      ctx:submit_task{ id = "com.example.video.export.1", kind = "continued" }
    end):find("needs a title and a subtitle", 1, true))
  end)
  app:on("sceneDidBecomeActive:", function(ctx)
    assert(error_of(function()
      ctx:submit_task{ id = "com.example.video.other", kind = "continued", title = "T", subtitle = "S" }
    end):find("not in BGTaskSchedulerPermittedIdentifiers", 1, true))
  end)
  dev:launch(app)
  dev:home()
end)

lifesim.test("a force-quit ends the task with no expiration handler; progress belongs to continued tasks", function()
  local dev, app = video()
  local log = {}
  exporter(dev, app, "com.example.video.export.1", 100, log)
  app:on("sceneDidBecomeActive:", function(ctx)
    ctx:submit_task{ id = "com.example.video.export.1", kind = "continued", title = "T", subtitle = "S" }
  end)
  dev:launch(app)
  dev:home()
  dev:advance(30)
  dev:switcher()
  dev:kill(app)
  assert(table.concat(log, " ") == "run@0 active", table.concat(log, " "))
  local w = dev.trace:records{ app = app, kind = "warning" }
  assert(w[#w].detail:find("ended with its process", 1, true), w[#w].detail)
end)

-- How many continued tasks run at once: Apple gives no number (§3.5), so a
-- script sets one with dev:policy{ continued_tasks = n } (no limit by
-- default). A request with the default strategy, "queue", waits at the back
-- of the queue; one with "fail" is refused with immediateRunIneligible.
lifesim.test("with room for one continued task, a second waits in the queue or fails, as its strategy says", function()
  local dev, app = video()
  dev:policy{ continued_tasks = 1 }
  assert(dev:policy().continued_tasks == 1)
  local log = {}
  exporter(dev, app, "com.example.video.export.a", 3, log)
  app:register_task("com.example.video.export.b", function(_, task)
    log[#log + 1] = ("b@%g"):format(dev.now)
    task:complete(true)
  end)
  app:register_task("com.example.video.export.c", function(_, task) task:complete(true) end)
  local refused
  app:on("sceneDidBecomeActive:", function(ctx)
    ctx:submit_task{ id = "com.example.video.export.a", kind = "continued", title = "A", subtitle = "a" }
    ctx:submit_task{ id = "com.example.video.export.b", kind = "continued", title = "B", subtitle = "b" }
    refused = error_of(function()
      ctx:submit_task{ id = "com.example.video.export.c", kind = "continued", title = "C", subtitle = "c", strategy = "fail" }
    end)
  end)
  dev:launch(app)
  dev:home()
  dev:advance(60)
  -- b starts when a completes, at 30 s, while the app is in the background.
  assert(table.concat(log, " ") == "run@0 active done@30 b@30", table.concat(log, " "))
  assert(refused:find("BGTaskSchedulerErrorCodeImmediateRunIneligible: the system runs at most 1 continued task at once", 1, true), refused)
  local logs = dev.trace:records{ app = app, kind = "log" }
  local queued = false
  for _, r in ipairs(logs) do queued = queued or r.detail:find("export.b, title \"B\"; queued", 1, true) ~= nil end
  assert(queued, "the trace says the request was queued")
end)

lifesim.test("a queued request goes with its process: a force-quit cancels it", function()
  local dev, app = video()
  dev:policy{ continued_tasks = 1 }
  local log = {}
  exporter(dev, app, "com.example.video.export.a", 10, log)
  app:register_task("com.example.video.export.b", function() log[#log + 1] = "b" end)
  app:on("sceneDidBecomeActive:", function(ctx)
    ctx:submit_task{ id = "com.example.video.export.a", kind = "continued", title = "A", subtitle = "a" }
    ctx:submit_task{ id = "com.example.video.export.b", kind = "continued", title = "B", subtitle = "b" }
  end)
  dev:launch(app)
  dev:home()
  dev:advance(20)
  dev:switcher()
  dev:kill(app)
  dev:advance(200)
  assert(table.concat(log, " ") == "run@0 active", table.concat(log, " "))
  assert(dev.stats.tasks.run == 1, dev.stats.tasks.run)
end)

-- Background GPU (§3.5): the request needs the Background GPU Access
-- entitlement, and a device whose supportedResources holds .gpu (the iPads;
-- developers find it false on every iPhone).
lifesim.test("a request that requires the GPU needs the entitlement and a device that supports it", function()
  local dev = lifesim.device{ ios = 26, model = "iPad Pro 11 2018" }
  assert(dev.background_gpu)
  local plain = dev:install{ bundle = "com.example.plain", background_tasks = { "com.example.plain.export.*" } }
  local gpu = dev:install{ bundle = "com.example.gpu", background_tasks = { "com.example.gpu.render.*" }, background_gpu = true }
  assert(gpu.background_gpu and not plain.background_gpu)
  local ran = false
  gpu:register_task("com.example.gpu.render.1", function(_, task) ran = true; task:complete(true) end)
  plain:register_task("com.example.plain.export.1", function(_, task) task:complete(true) end)
  local refused
  plain:on("sceneDidBecomeActive:", function(ctx)
    refused = error_of(function()
      ctx:submit_task{ id = "com.example.plain.export.1", kind = "continued", title = "T", subtitle = "S", requires_gpu = true }
    end)
  end)
  gpu:on("sceneDidBecomeActive:", function(ctx)
    ctx:submit_task{ id = "com.example.gpu.render.1", kind = "continued", title = "T", subtitle = "S", requires_gpu = true }
  end)
  dev:launch(plain)
  assert(refused:find("BGTaskSchedulerErrorCodeNotPermitted: a request that requires the GPU needs the "
    .. "com.apple.developer.background-tasks.continued-processing.gpu entitlement", 1, true), refused)
  dev:launch(gpu)
  assert(ran)

  local phone = lifesim.device{ ios = 26, model = "iPhone 16 Pro" }
  assert(not phone.background_gpu)
  local app = phone:install{ bundle = "com.example.gpu", background_tasks = { "com.example.gpu.render.*" }, background_gpu = true }
  app:register_task("com.example.gpu.render.1", function(_, task) task:complete(true) end)
  app:on("sceneDidBecomeActive:", function(ctx)
    refused = error_of(function()
      ctx:submit_task{ id = "com.example.gpu.render.1", kind = "continued", title = "T", subtitle = "S", requires_gpu = true }
    end)
  end)
  phone:launch(app)
  assert(refused:find("BGTaskSchedulerErrorCodeUnavailable: this device does not support background GPU use", 1, true), refused)
  assert(lifesim.device{ ios = 26, model = "iPhone 16 Pro", background_gpu = true }.background_gpu)
  assert(error_of(function()
    app:submit_task{ id = "com.example.gpu.render.2", kind = "refresh", requires_gpu = true }
  end):find("belong to continued requests", 1, true))
end)

lifesim.test("a change of the limit starts what now has room; a queued request that dies with its process says so", function()
  for _, raise in ipairs{ 2, math.huge } do
    local dev, app = video()
    dev:policy{ continued_tasks = 1 }
    local log = {}
    exporter(dev, app, "com.example.video.export.a", 10, log)
    app:register_task("com.example.video.export.b", function() log[#log + 1] = ("b@%g"):format(dev.now) end)
    app:on("sceneDidBecomeActive:", function(ctx)
      ctx:submit_task{ id = "com.example.video.export.a", kind = "continued", title = "A", subtitle = "a" }
      ctx:submit_task{ id = "com.example.video.export.b", kind = "continued", title = "B", subtitle = "b" }
    end)
    dev:launch(app)
    assert(error_of(function() dev:run_task(app, "com.example.video.export.b") end)
      :find("is a continued request waiting in the queue", 1, true))
    dev:advance(5)
    dev:policy{ continued_tasks = raise }
    dev:advance(1)
    assert(table.concat(log, " ") == "run@0 active b@5", table.concat(log, " "))
  end

  local dev, app = video()
  dev:policy{ continued_tasks = 1 }
  exporter(dev, app, "com.example.video.export.a", 10, {})
  app:register_task("com.example.video.export.b", function() end)
  app:on("sceneDidBecomeActive:", function(ctx)
    ctx:submit_task{ id = "com.example.video.export.a", kind = "continued", title = "A", subtitle = "a" }
    ctx:submit_task{ id = "com.example.video.export.b", kind = "continued", title = "B", subtitle = "b" }
    local pending = ctx:pending_tasks()
    assert(#pending == 2 and pending[2].id == "com.example.video.export.b" and pending[2].title == "B", #pending)
  end)
  dev:launch(app)
  dev:home()
  -- The user cancels a queued one in its Live Activity: it never runs.
  dev:cancel_task(app, "com.example.video.export.b")
  assert(dev.stats.tasks.run == 1 and #dev.trace:records{ app = app, kind = "warning" } == 0)
  app:on("sceneDidBecomeActive:", function(ctx)
    ctx:submit_task{ id = "com.example.video.export.b", kind = "continued", title = "B", subtitle = "b" }
  end)
  dev:launch(app)
  dev:home()
  dev:memory_pressure()
  local w = dev.trace:records{ app = app, kind = "warning" }
  assert(w[#w].detail:find("BGContinuedProcessingTaskRequest com.example.video.export.b waited in the queue and goes with its process", 1, true),
    w[#w].detail)
end)

lifesim.test("before iOS 26 the GPU and the limit change nothing, and the trace says so", function()
  local dev = lifesim.device{ ios = 17, background_gpu = true }
  assert(not dev.background_gpu)
  dev:install{ bundle = "com.example.gpu", background_gpu = true }
  dev:policy{ continued_tasks = 2 }
  local w = dev.trace:records{ kind = "warning" }
  assert(#w == 3, #w)
  assert(w[1].detail:find("background_gpu is BGTaskScheduler.supportedResources, from iOS 26; this device runs iOS 17", 1, true), w[1].detail)
  assert(w[2].detail:find("background_gpu is Background GPU Access", 1, true), w[2].detail)
  assert(w[3].detail:find("continued_tasks limits BGContinuedProcessingTask, from iOS 26", 1, true), w[3].detail)
end)
