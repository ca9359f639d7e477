-- Data loss by when apps save: never, in applicationWillTerminate:, in sceneDidEnterBackground:, or on a 30 s timer.
--
--   lifesim batch Scripts/experiments/savepolicy.lua -o savepolicy.csv --plot lost_per_day
--
-- 20 apps on a 2 GB device, a user who switches every 2 minutes (Zipf 1.0) and
-- swipes an app away in the switcher twice an hour, for 3 virtual days. While an
-- app is active the user edits something every 40 s on average. Jetsam kills
-- silently (no applicationWillTerminate:, reference §0), so only a save on the
-- way to the background protects against it; a force-quit of a suspended app is
-- silent too (§2.6 c).

local APPS = 20
local DAYS = 3
local EDIT_EVERY = 40    -- seconds between edits, on average, while active
local AUTOSAVE = 30      -- the timer policy's period

local function install(dev, k, save)
  local app = dev:install{ bundle = ("com.example.app%02d"):format(k), footprint_mb = 60 + (k * 37) % 181 }
  local generation = 0  -- which activation the app's timers belong to

  -- Edits while active: a chain of app timers that stops when the app resigns.
  local function edit_after(ctx, gen)
    ctx:after(-EDIT_EVERY * math.log(1 - math.random()), function(c)
      if generation ~= gen or app.state ~= "active" then return end
      c:dirty(1)
      edit_after(c, gen)
    end)
  end
  local function autosave_after(ctx, gen)
    ctx:after(AUTOSAVE, function(c)
      if generation ~= gen or app.state ~= "active" then return end
      if app.unsaved > 0 then c:save() end
      autosave_after(c, gen)
    end)
  end

  app:on("sceneDidBecomeActive:", function(ctx)
    generation = generation + 1
    edit_after(ctx, generation)
    if save == "timer" then autosave_after(ctx, generation) end
  end)
  app:on("sceneWillResignActive:", function() generation = generation + 1 end)
  if save == "background" then
    app:on("sceneDidEnterBackground:", function(ctx) ctx:save() end)
  elseif save == "terminate" then
    app:on("applicationWillTerminate:", function(ctx) ctx:save() end)
  end
end

local function run(p, seed)
  local dev = lifesim.device{ ios = 17, memory_mb = 2048, seed = seed, trace = false }
  for k = 1, APPS do install(dev, k, p.save) end
  local days = p.days or DAYS  -- the tests run shorter
  lifesim.workload.user{ zipf = 1.0, switch_every = 120, quits_per_hour = 2 }:drive(dev, { days = days })
  local s = dev.stats
  return {
    loss_events_per_day = s.data_loss / days,
    lost_per_day = s.unsaved_lost / days,
    kills_per_day = (s.jetsam_kills + s.kills.user) / days,
  }
end

return lifesim.experiment{
  name = "savepolicy",
  params = { save = { "never", "terminate", "background", "timer" } },
  seeds = 10,
  metrics = { "loss_events_per_day", "lost_per_day", "kills_per_day" },
  run = run,
}
