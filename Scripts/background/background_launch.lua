-- Background launches and wakes (fetch, silent push): the callbacks, the 30 s window, the quirk, and the block after a force-quit.
local h = require "helpers"

local FETCH = "application:performFetchWithCompletionHandler:"
local PUSH = "application:didReceiveRemoteNotification:fetchCompletionHandler:"

-- A device with one app that declares both modes.
local function setup(device_options, app_options)
  local options = { background_modes = { "fetch", "remote-notification" } }
  for k, v in pairs(app_options or {}) do options[k] = v end
  return h.device_with_app(device_options, options)
end

-- The kinds of `app`'s records since `since`, with callbacks as selectors,
-- keeping only callbacks, snapshots and app state changes.
local function steps(dev, app, since)
  local out = {}
  for _, r in ipairs(dev.trace:records{ app = app, since = since }) do
    if r.kind == "callback" then out[#out + 1] = r.callback
    elseif r.kind == "snapshot" then out[#out + 1] = "snapshot"
    elseif r.kind == "state" and r.scene == nil then out[#out + 1] = r.from .. "->" .. r.to end
  end
  return out
end

lifesim.test("iOS 12: a fetch launches the app in the background; 30 s later the snapshot and suspension", function()
  local dev, notes = setup({ ios = 12 })
  local state_in_did_finish
  notes:on("application:didFinishLaunchingWithOptions:", function(ctx)
    state_in_did_finish = ctx.app.state
    return true
  end)
  local m = dev:mark()
  dev:background_fetch(notes)
  assert(state_in_did_finish == "background", "didFinish… runs in the background state")
  assert(notes.state == "background" and dev.frontmost == nil, "running, off screen")
  dev:advance(29.999)
  assert(notes.state == "background", "the window is still open")
  dev:advance(0.001)
  lifesim.expect_callbacks(steps(dev, notes, m), {
    "notRunning->background",
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    FETCH,                      -- no applicationDidEnterBackground:, no applicationDidBecomeActive:
    "snapshot",
    "background->suspended",
  })
  local snap = dev.trace:records{ app = notes, kind = "snapshot", since = m }
  assert(snap[1].t == 30, "the window is 30 s")
end)

lifesim.test("iOS 12: a silent push to a suspended app: the event only, then back to suspended", function()
  local dev, notes = setup({ ios = 12 })
  dev:launch(notes)
  dev:home()
  local pid = notes.pid
  local m = dev:mark()
  dev:silent_push(notes)
  assert(notes.state == "background" and notes.pid == pid, "the same process runs again")
  dev:advance(30)
  lifesim.expect_callbacks(steps(dev, notes, m), {
    "suspended->background", PUSH, "snapshot", "background->suspended",
  })
end)

lifesim.test("iOS 12: completing the work ends the window early", function()
  local dev, notes = setup({ ios = 12 })
  notes:on(FETCH, function(ctx)
    ctx:after(3, function(timer) timer:complete() end)  -- the download takes 3 s
  end)
  local m = dev:mark()
  dev:background_fetch(notes)
  dev:advance(3)
  assert(notes.state == "suspended", "suspended when the completion handler runs, got " .. notes.state)
  local snap = dev.trace:records{ app = notes, kind = "snapshot", since = m }
  assert(#snap == 1 and snap[1].t == 3, "the snapshot at 3 s")
end)

lifesim.test("iOS 12: a task begun in the fetch outlives the window, up to its budget", function()
  local dev, notes = setup({ ios = 12 })
  notes:on(FETCH, function(ctx) ctx:begin_background_task("upload") end)
  local m = dev:mark()
  dev:background_fetch(notes)
  dev:advance(31)
  assert(notes.state == "background", "the open task holds the app after the window, got " .. notes.state)
  dev:advance(200)
  local kills = dev.trace:records{ app = notes, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].t == 180 and kills[1].reason == "background-task", "killed at the 180 s limit")
end)

lifesim.test("iOS 17: a scene app launched in the background connects no scene", function()
  local dev, notes = setup({ ios = 17 })
  assert(notes.model == "scene")
  local m = dev:mark()
  dev:silent_push(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    PUSH,
  })
  assert(#notes.scenes == 0, "no scene")
  dev:advance(30)
  assert(notes.state == "suspended")
end)

lifesim.test("iOS 17: a fetch wakes a suspended scene app; its background scene gets no callback", function()
  local dev, notes = setup({ ios = 17 })
  dev:launch(notes)
  dev:home()
  local m = dev:mark()
  dev:background_fetch(notes)
  dev:advance(30)
  lifesim.expect_callbacks(steps(dev, notes, m), {
    "suspended->background", FETCH, "snapshot", "background->suspended",
  })
  assert(notes.scenes[1].state == "background", "the scene stays in the background")
end)

lifesim.test("iOS 17: an app-delegate app gets the same background launch", function()
  local dev, notes = setup({ ios = 17 }, { scenes = false })
  local m = dev:mark()
  dev:background_fetch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    FETCH,
  })
end)

lifesim.test("quirk background_launch_enters_background: iOS 12 cold and warm get applicationDidEnterBackground: first", function()
  local dev, notes = setup({ ios = 12, quirks = { background_launch_enters_background = true } })
  local m = dev:mark()
  dev:background_fetch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    "applicationDidEnterBackground:",
    FETCH,
  })
  dev:advance(30)
  assert(notes.state == "suspended")

  m = dev:mark()
  dev:silent_push(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationDidEnterBackground:", PUSH,
  })
end)

lifesim.test("quirk background_launch_enters_background: a scene app gets the notification, not the delegate method", function()
  local dev, notes = setup({ ios = 17, quirks = { background_launch_enters_background = true } })
  local m = dev:mark()
  dev:background_fetch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:willFinishLaunchingWithOptions:",
    "application:didFinishLaunchingWithOptions:",
    FETCH,
  })
  local names = h.callbacks_and_notifications(dev, notes, m)
  assert(names[#names - 1] == "UIApplicationDidEnterBackgroundNotification" and names[#names] == FETCH,
         "the notification just before the event, got " .. table.concat(names, ", "))
end)

lifesim.test("quirk off: no UIApplicationDidEnterBackgroundNotification on a background launch", function()
  local dev, notes = setup({ ios = 17 })
  local m = dev:mark()
  dev:background_fetch(notes)
  for _, name in ipairs(h.callbacks_and_notifications(dev, notes, m)) do
    assert(name ~= "UIApplicationDidEnterBackgroundNotification", "posted without the quirk")
  end
end)

for _, ios in ipairs{ 12, 17 } do
  lifesim.test(("iOS %d: after a force-quit, no background launch until the user opens the app"):format(ios), function()
    local dev, notes = setup({ ios = ios })
    dev:launch(notes)
    dev:home()
    dev:kill(notes)

    local m = dev:mark()
    dev:background_fetch(notes)
    dev:silent_push(notes)
    dev:advance(60)
    assert(notes.state == "notRunning", "not launched, got " .. notes.state)
    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {})
    local logs = dev.trace:records{ app = notes, kind = "log", since = m }
    assert(#logs == 2, "one log per refused event, got " .. #logs)
    assert(logs[1].detail:find("force-quit", 1, true) and logs[1].detail:find("background_fetch", 1, true), logs[1].detail)
    assert(logs[2].detail:find("silent_push", 1, true), logs[2].detail)

    dev:launch(notes)   -- the user opens it
    dev:home()
    m = dev:mark()
    dev:silent_push(notes)
    lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, { PUSH })
    assert(#dev.trace:records{ app = notes, kind = "log", since = m } == 0, "no refusal")
  end)
end

lifesim.test("iOS 17: a kill at the task limit is not a force-quit; fetch still launches the app", function()
  local dev, notes = setup({ ios = 17 })
  notes:on("sceneDidEnterBackground:", function(ctx) ctx:begin_background_task("leak") end)
  dev:launch(notes)
  dev:home()
  dev:advance(30)
  assert(notes.state == "notRunning")
  local m = dev:mark()
  dev:background_fetch(notes)
  assert(notes.state == "background", "launched in the background, got " .. notes.state)
  assert(#dev.trace:records{ app = notes, kind = "log", since = m } == 0)
end)

lifesim.test("a fetch needs the fetch mode and a silent push the remote-notification mode", function()
  local dev = lifesim.device{ ios = 17 }
  local plain = dev:install{ bundle = "com.example.plain" }
  local fetcher = dev:install{ bundle = "com.example.fetcher", background_modes = { "fetch" } }
  local ok, err = pcall(function() dev:background_fetch(plain) end)
  assert(not ok and err:find("has no 'fetch' background mode", 1, true), err)
  ok, err = pcall(function() dev:silent_push(fetcher) end)
  assert(not ok and err:find("has no 'remote-notification' background mode", 1, true), err)
  assert(plain.state == "notRunning" and fetcher.state == "notRunning", "nothing launched")
end)

lifesim.test("iOS 12: the user opens a background-launched app: no second launch", function()
  local dev, notes = setup({ ios = 12 })
  dev:background_fetch(notes)
  dev:advance(10)
  local m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "applicationWillEnterForeground:", "applicationDidBecomeActive:",
  })
  assert(notes.state == "active" and notes.launches == 1, "the same process")
  dev:advance(60)
  assert(notes.state == "active", "the window's end does not touch a foreground app")
end)

lifesim.test("iOS 17: the user opens a background-launched scene app: its first scene connects", function()
  local dev, notes = setup({ ios = 17 })
  dev:silent_push(notes)
  dev:advance(40)
  assert(notes.state == "suspended")
  local m = dev:mark()
  dev:launch(notes)
  lifesim.expect_callbacks(dev.trace:callbacks{ app = notes, since = m }, {
    "application:configurationForConnectingSceneSession:options:",
    "scene:willConnectToSession:options:",
    "sceneWillEnterForeground:",
    "sceneDidBecomeActive:",
  })
  assert(notes.state == "active" and notes.launches == 1 and #notes.scenes == 1, "one process, one scene")
end)
