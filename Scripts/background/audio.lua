-- Audio: with the "audio" background mode, playing keeps the process running with no time limit; stopping starts a fresh budget.
local h = require "helpers"

-- How many `kind` records `app` has since `since`.
local function count(dev, app, kind, since)
  return #dev.trace:records{ app = app, kind = kind, since = since }
end

lifesim.test("iOS 17: playing audio with the audio mode keeps the app running for an hour", function()
  local dev, player = h.device_with_app({ ios = 17 }, { bundle = "com.example.player", background_modes = { "audio" } })
  local ticks = 0
  player:on("sceneDidBecomeActive:", function(ctx) ctx:play_audio(true) end)
  player:on("sceneDidEnterBackground:", function(ctx)
    ctx:after(1800, function() ticks = ticks + 1 end)
  end)
  dev:launch(player)
  assert(player.playing_audio, "playing")
  assert(player.background_time_remaining == 1.7976931348623157e308, "DBL_MAX in the foreground, audio or not")

  local m = dev:mark()
  dev:home()
  dev:advance(3600)
  assert(player.state == "background", "still running after an hour, got " .. player.state)
  assert(player.background_time_remaining == math.huge, "infinite while audio holds the process")
  assert(player.band == 12, "the audio band, got " .. tostring(player.band))
  assert(ticks == 1, "its timers run")
  assert(count(dev, player, "kill", m) == 0 and count(dev, player, "snapshot", m) == 1, "a snapshot, no kill")
end)

lifesim.test("iOS 17: the app-delegate callbacks are the usual ones; only the suspension is missing", function()
  local dev, player = h.device_with_app({ ios = 17 }, { scenes = false, background_modes = { "audio" } })
  player:on("applicationDidBecomeActive:", function(ctx) ctx:play_audio(true) end)
  dev:launch(player)
  local m = dev:mark()
  dev:home()
  lifesim.expect_callbacks(dev.trace:callbacks{ app = player, since = m }, {
    "applicationWillResignActive:", "applicationDidEnterBackground:",
  })
  local states = dev.trace:records{ app = player, kind = "state", since = m }
  assert(states[#states].to == "background", "no suspension, last state " .. states[#states].to)
end)

lifesim.test("iOS 17: tasks do not expire while audio plays", function()
  local dev, player = h.device_with_app({ ios = 17 }, { background_modes = { "audio" } })
  player:on("sceneDidEnterBackground:", function(ctx)
    ctx:play_audio(true)  -- audio may also start in the background callback
    ctx:begin_background_task("download", function() error("must not expire under audio") end)
  end)
  dev:launch(player)
  local m = dev:mark()
  dev:home()
  dev:advance(600)
  assert(player.state == "background")
  assert(count(dev, player, "expire", m) == 0, "no expiration")
  assert(count(dev, player, "kill", m) == 0, "no kill")
end)

lifesim.test("iOS 17: stopping with no task suspends the app at once", function()
  local dev, player = h.device_with_app({ ios = 17 }, { background_modes = { "audio" } })
  player:on("sceneWillResignActive:", function(ctx) ctx:play_audio(true) end)
  player:on("sceneDidEnterBackground:", function(ctx)
    ctx:after(100, function(timer) timer:play_audio(false) end)
  end)
  dev:launch(player)
  dev:home()
  dev:advance(99)
  assert(player.state == "background")
  local m = dev:mark()
  dev:advance(1)
  assert(not player.playing_audio, "stopped")
  assert(player.state == "suspended", "suspended when the music stops, got " .. player.state)
  local states = dev.trace:records{ app = player, kind = "state", since = m }
  assert(#states == 1 and states[1].t == 100, "suspended at 100 s")
end)

lifesim.test("iOS 17: stopping with a task open starts a fresh 30 s budget", function()
  local dev, player = h.device_with_app({ ios = 17 }, { background_modes = { "audio" } })
  local remaining_after_stop
  player:on("sceneWillResignActive:", function(ctx) ctx:play_audio(true) end)
  player:on("sceneDidEnterBackground:", function(ctx)
    ctx:begin_background_task("upload")
    ctx:after(100, function(timer)
      timer:play_audio(false)
      remaining_after_stop = timer.app.background_time_remaining
    end)
  end)
  dev:launch(player)
  local m = dev:mark()
  dev:home()
  dev:advance(200)
  assert(remaining_after_stop == 30, "a fresh budget, got " .. tostring(remaining_after_stop))
  local expires = dev.trace:records{ app = player, kind = "expire", since = m }
  assert(#expires == 1 and expires[1].t == 125, "expires 25 s after the stop")
  local kills = dev.trace:records{ app = player, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].t == 130 and kills[1].code == "0x2182bad2", "killed 30 s after the stop")
end)

lifesim.test("iOS 12: stopping with a task open starts a fresh 180 s budget", function()
  local dev, player = h.device_with_app({ ios = 12 }, { background_modes = { "audio" } })
  player:on("applicationDidEnterBackground:", function(ctx)
    ctx:play_audio(true)
    ctx:begin_background_task("upload")
    ctx:after(1000, function(timer) timer:play_audio(false) end)
  end)
  dev:launch(player)
  local m = dev:mark()
  dev:home()
  dev:advance(2000)
  local kills = dev.trace:records{ app = player, kind = "kill", since = m }
  assert(#kills == 1 and kills[1].t == 1180 and kills[1].code == "0x8badf00d",
         "killed 180 s after the stop, got " .. tostring(kills[1] and kills[1].t))
end)

lifesim.test("iOS 17: without the audio mode, playing does not keep the app running", function()
  local dev, player = h.device_with_app({ ios = 17 }, { background_modes = {} })
  local ticks = 0
  player:on("sceneWillResignActive:", function(ctx) ctx:play_audio(true) end)
  player:on("sceneDidEnterBackground:", function(ctx) ctx:after(10, function() ticks = ticks + 1 end) end)
  dev:launch(player)
  dev:home()
  assert(player.state == "suspended", "suspended right after the snapshot, got " .. player.state)
  dev:advance(60)
  assert(ticks == 0, "no timer runs")
end)

lifesim.test("iOS 17: audio stopped in the foreground does not hold the app at Home", function()
  local dev, player = h.device_with_app({ ios = 17 }, { background_modes = { "audio" } })
  player:on("sceneDidBecomeActive:", function(ctx) ctx:play_audio(true) end)
  player:on("sceneWillResignActive:", function(ctx) ctx:play_audio(false) end)
  dev:launch(player)
  dev:home()
  assert(player.state == "suspended", "suspended, got " .. player.state)
end)
