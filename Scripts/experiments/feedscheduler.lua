-- How fresh a news feed is when the user opens it, and how often it refreshes
-- in the background, under two BGTaskScheduler policies.
--
--   lifesim batch Scripts/experiments/feedscheduler.lua -o feedscheduler.csv --plot stale_min
--
-- 8 apps on a 4 GB iPhone, a user who switches every 5 minutes (Zipf 1.0) for a
-- week. The feed app (the most used) refreshes in a BGAppRefreshTask and asks
-- for the next one 15 minutes later, as Apple's sample does (reference §3.5).
-- Two schedulers decide when each request runs:
--   * "default": lifesim's, at its earliest time;
--   * "hourly": a budget of one refresh per hour per app, as a system that
--     spends less energy would grant, written as a `task_scheduler` policy.
-- The metrics: how old the feed is when the user opens it (minutes), how many
-- background refreshes a day it costs, and the mean wait past `earliest`.

local APPS = 8
local DAYS = 7
local FEED, REFRESH = "com.example.feed", "com.example.feed.refresh"
local EVERY = 15 * 60  -- the earliest time of the next refresh

local function install_feed(dev, stale)
  local app = dev:install{ bundle = FEED, footprint_mb = 120, background_modes = { "fetch" },
                           background_tasks = { REFRESH } }
  local fetched = 0  -- when the feed's content was last downloaded
  local function schedule(ctx) ctx:submit_task{ id = REFRESH, kind = "refresh", earliest = EVERY } end
  app:register_task(REFRESH, function(ctx, task)
    schedule(ctx)
    task.on_expire = function() task:complete(false) end
    ctx:work(2)  -- the download
    fetched = dev.now
    task:complete(true)
  end)
  app:on("sceneWillEnterForeground:", function()
    stale[#stale + 1] = dev.now - fetched
    fetched = dev.now  -- the app refreshes on screen too
  end)
  app:on("sceneDidEnterBackground:", schedule)
end

-- One refresh per hour per app: a request runs an hour after the last run
-- this policy granted, or at its earliest time if that is later. A request
-- that replaces one whose run has not come keeps that run's time.
local function hourly()
  local granted = {}
  return function(dev, r)
    local prev = granted[r.app]
    local at
    if prev and prev > dev.now then
      at = math.max(r.earliest, prev)
    else
      at = math.max(r.earliest, (prev or -math.huge) + 3600)
    end
    granted[r.app] = at
    return at - r.earliest
  end
end

local function run(p, seed)
  local dev = lifesim.device{ ios = 17, memory_mb = 4096, seed = seed, trace = false }
  if p.scheduler == "hourly" then dev:policy{ task_scheduler = hourly() } end
  local stale = {}
  install_feed(dev, stale)
  for k = 2, APPS do dev:install{ bundle = ("com.example.app%02d"):format(k), footprint_mb = 60 + (k * 37) % 181 } end
  local days = p.days or DAYS  -- the tests run shorter
  lifesim.workload.user{ zipf = 1.0, switch_every = 300 }:drive(dev, { days = days })
  local sum = 0
  for _, s in ipairs(stale) do sum = sum + s end
  local st = dev.stats
  return {
    stale_min = #stale > 0 and sum / #stale / 60 or 0,
    refreshes_per_day = st.tasks.run / days,
    wait_min = st.tasks.run > 0 and st.tasks.delay / st.tasks.run / 60 or 0,
  }
end

return lifesim.experiment{
  name = "feedscheduler",
  params = { scheduler = { "default", "hourly" } },
  seeds = 10,
  metrics = { "stale_min", "refreshes_per_day", "wait_min" },
  run = run,
}
