-- 0xdead10cc (reference §3.5.1): an app suspended while it holds a lock on a
-- shared file (an SQLite database in an App Group) is killed, with no
-- callback; one that lets go of the lock before it is suspended is not.

local function notes()
  local dev = lifesim.device{ ios = 17 }
  local app = dev:install{ bundle = "com.example.notes" }
  return dev, app
end

lifesim.test("a lock held at suspension kills the app with 0xdead10cc and loses its unsaved changes", function()
  local dev, app = notes()
  app:on("sceneDidEnterBackground:", function(ctx)
    ctx:dirty(2)
    ctx:lock_file("group.sqlite")  -- a write begins, and is not finished when the app is suspended
  end)
  dev:launch(app)
  dev:home()
  assert(app.state == "notRunning", app.state)
  local kill = dev.trace:records{ app = app, kind = "kill" }[1]
  assert(kill.reason == "file-lock" and kill.code == "0xdead10cc", tostring(kill.reason))
  assert(kill.detail:find("suspended holding a lock on 'group.sqlite'", 1, true), kill.detail)
  assert(dev.stats.kills["file-lock"] == 1 and dev.stats.data_loss == 1)
  local callbacks = dev.trace:callbacks{ app = app }
  assert(callbacks[#callbacks] == "sceneDidEnterBackground:", "no callback after " .. callbacks[#callbacks])
end)

lifesim.test("a background task around the write keeps the process until the lock goes", function()
  local dev, app = notes()
  app:on("sceneDidEnterBackground:", function(ctx)
    local task = ctx:begin_background_task("save")
    ctx:lock_file("group.sqlite")
    ctx:after(3, function(c)
      c:unlock_file("group.sqlite")
      task:finish()
    end)
  end)
  dev:launch(app)
  dev:home()
  dev:advance(10)
  assert(app.state == "suspended", app.state)
  assert(#dev.trace:records{ app = app, kind = "kill" } == 0)
end)

lifesim.test("locking twice and unlocking a file not locked are errors", function()
  local dev, app = notes()
  local errors = {}
  app:on("sceneDidBecomeActive:", function(ctx)
    ctx:lock_file("a")
    errors[1] = select(2, pcall(ctx.lock_file, ctx, "a"))
    errors[2] = select(2, pcall(ctx.unlock_file, ctx, "b"))
    ctx:unlock_file("a")
  end)
  dev:launch(app)
  assert(tostring(errors[1]):find("already holds the lock on 'a'", 1, true), tostring(errors[1]))
  assert(tostring(errors[2]):find("holds no lock on 'b'", 1, true), tostring(errors[2]))
end)
