-- Cold launches, jetsam kills and data loss over a week of use, by device memory and jetsam victim policy.
--
--   lifesim batch Scripts/experiments/coldlaunch.lua -o coldlaunch.csv --plot cold_launch_ratio
--
-- The full-lifecycle version of the standard toy experiment of mobile memory
-- management: 30 installed apps, opened with Zipf(1.1) popularity, a switch
-- every 3 minutes on average (exponential gaps), for 7 virtual days. Jetsam
-- picks its victims either by the default order (lowest band first, then least
-- recently used: reference §0, §4) or by strict LRU, which ignores bands.

local APPS = 30
local DAYS = 7

-- The catalogue is the same in every run. Footprints spread from 40 to 240 MB
-- (typical of iPhone apps, reference §4); some apps behave in ways that matter
-- to memory and data:
--   * every 10th app (4, 14, 24) plays audio in the background (band 12);
--   * apps 2, 7, 12, … sync in a 20 s background task (band 3) and save at its end;
--   * every 3rd app saves only in applicationWillTerminate:, which jetsam never
--     calls (the data-loss bug of Scripts/data_loss/);
--   * the others save in sceneDidEnterBackground:.
-- Every activation leaves one unsaved change (the user edits something).
local catalogue = {}
for k = 1, APPS do
  catalogue[k] = {
    bundle = ("com.example.app%02d"):format(k),
    footprint_mb = 40 + (k * 67) % 201,
    audio = k % 10 == 4,
    sync = k % 5 == 2,
    saves_on_terminate = k % 3 == 0,
  }
end


local function install(dev, spec)
  local app = dev:install{ bundle = spec.bundle, footprint_mb = spec.footprint_mb,
                           background_modes = spec.audio and { "audio" } or nil }
  app:on("sceneDidBecomeActive:", function(ctx) ctx:dirty(1) end)
  app:on("sceneDidEnterBackground:", function(ctx)
    if spec.audio then ctx:play_audio(true) end
    if spec.saves_on_terminate then return end
    if spec.sync then
      local task = ctx:begin_background_task("sync", function(t) t:finish() end)
      ctx:after(20, function(c)
        c:save()
        task:finish()
      end)
    else
      ctx:save()
    end
  end)
  if spec.saves_on_terminate then
    app:on("applicationWillTerminate:", function(ctx) ctx:save() end)
  end
end

local function run(p, seed)
  local dev = lifesim.device{ ios = 17, memory_mb = p.memory_mb, seed = seed, trace = false }
  -- Strict LRU: the candidate used longest ago, whatever its band. The
  -- built-in order is what Scripts/lib/policies.lua's strict_lru does in Lua,
  -- without a Lua call at every kill.
  if p.policy == "lru" then dev:policy{ choose_victim = "lru" } end
  for _, spec in ipairs(catalogue) do install(dev, spec) end
  local days = p.days or DAYS  -- the tests run shorter weeks
  local user = lifesim.workload.user{ zipf = 1.1, switch_every = 180 }
  user:drive(dev, { days = days })
  local s = dev.stats
  return {
    cold_launch_ratio = s.cold_opens / s.opens,
    kills_per_day = s.jetsam_kills / days,
    data_loss_per_day = s.data_loss / days,
  }
end

return lifesim.experiment{
  name = "coldlaunch",
  params = { memory_mb = { 1000, 1500, 2000, 3000, 4000 }, policy = { "bands", "lru" } },
  seeds = 20,
  metrics = { "cold_launch_ratio", "kills_per_day", "data_loss_per_day" },
  run = run,
}
