-- The shipped experiments, run for a short time: their numbers move the way the literature says they should.
local coldlaunch = require "coldlaunch"
local savepolicy = require "savepolicy"
local feedscheduler = require "feedscheduler"

lifesim.test("coldlaunch: more memory, fewer cold launches and kills", function()
  local small = coldlaunch.run({ memory_mb = 1000, policy = "bands", days = 1 }, 1)
  local large = coldlaunch.run({ memory_mb = 4000, policy = "bands", days = 1 }, 1)
  assert(small.cold_launch_ratio > 0.3, "1000 MB: " .. small.cold_launch_ratio)
  assert(large.cold_launch_ratio < 0.1, "4000 MB: " .. large.cold_launch_ratio)
  assert(small.kills_per_day > large.kills_per_day)
end)

lifesim.test("coldlaunch: the same seed gives the same numbers, another seed others", function()
  local a = coldlaunch.run({ memory_mb = 1500, policy = "lru", days = 0.5 }, 3)
  local b = coldlaunch.run({ memory_mb = 1500, policy = "lru", days = 0.5 }, 3)
  local c = coldlaunch.run({ memory_mb = 1500, policy = "lru", days = 0.5 }, 4)
  assert(a.cold_launch_ratio == b.cold_launch_ratio and a.kills_per_day == b.kills_per_day)
  assert(a.cold_launch_ratio ~= c.cold_launch_ratio)
end)

lifesim.test("savepolicy: saving on the way to the background loses nothing", function()
  local never = savepolicy.run({ save = "never", days = 0.5 }, 1)
  local background = savepolicy.run({ save = "background", days = 0.5 }, 1)
  local timer = savepolicy.run({ save = "timer", days = 0.5 }, 1)
  assert(never.lost_per_day > 0, "jetsam and force-quits take unsaved edits")
  assert(background.lost_per_day == 0, "lost " .. background.lost_per_day)
  assert(timer.lost_per_day > 0 and timer.lost_per_day < never.lost_per_day)
end)

lifesim.test("feedscheduler: an hourly budget refreshes less often and shows an older feed", function()
  local default = feedscheduler.run({ scheduler = "default", days = 1 }, 1)
  local hourly = feedscheduler.run({ scheduler = "hourly", days = 1 }, 1)
  assert(default.refreshes_per_day > 0 and default.wait_min < 2, default.wait_min)
  assert(hourly.refreshes_per_day < default.refreshes_per_day,
         hourly.refreshes_per_day .. " vs " .. default.refreshes_per_day)
  assert(hourly.refreshes_per_day <= 24)
  assert(hourly.stale_min > default.stale_min, hourly.stale_min .. " vs " .. default.stale_min)
  local again = feedscheduler.run({ scheduler = "hourly", days = 1 }, 1)
  assert(again.stale_min == hourly.stale_min and again.wait_min == hourly.wait_min)
end)
