-- The built-in victim orders: choose_victim = "lru" kills exactly as the Lua strict_lru
-- policy does (Scripts/lib/policies.lua), without a Lua call per kill; "bands" is the default.

local strict_lru = require("policies").strict_lru

-- An hour of Zipf(1.1) use of 10 apps on a 1,000 MB device: a few dozen
-- kills. Returns the kill records, one line each.
local function day(policy)
  local dev = lifesim.device{ ios = 17, memory_mb = 1000, seed = 11 }
  if policy then dev:policy{ choose_victim = policy } end
  for k = 1, 10 do
    local app = dev:install{ bundle = ("app%02d"):format(k), footprint_mb = 60 + (k * 53) % 180,
                             background_modes = k % 5 == 0 and { "audio" } or nil }
    app:on("sceneDidEnterBackground:", function(ctx)
      if k % 5 == 0 then ctx:play_audio(true) elseif k % 3 == 0 then ctx:begin_background_task("sync") end
    end)
  end
  lifesim.workload.user{ zipf = 1.1, switch_every = 60 }:drive(dev, { hours = 1 })
  local kills = {}
  for _, r in ipairs(dev.trace:records{ kind = "kill" }) do
    kills[#kills + 1] = string.format("%.6f %s %s", r.t, r.app, r.reason)
  end
  return kills, dev
end

lifesim.test("\"lru\" kills the same apps at the same times as the Lua strict_lru", function()
  local builtin, dev = day("lru")
  local scripted = day(strict_lru)
  assert(#builtin > 10, "the hour should kill often, got " .. #builtin)
  lifesim.expect_callbacks(builtin, scripted)
  assert(dev:policy().choose_victim == "lru", "dev:policy() names the order in force")
end)

lifesim.test("\"lru\" differs from the default band order, and \"bands\" restores it", function()
  local default = day(nil)
  local lru = day("lru")
  assert(table.concat(default, "\n") ~= table.concat(lru, "\n"), "the orders should disagree somewhere in an hour")
  local bands = day("bands")
  lifesim.expect_callbacks(bands, default)
  local dev = lifesim.device{ ios = 17 }
  dev:policy{ choose_victim = "lru" }
  dev:policy{ choose_victim = "bands" }
  assert(dev:policy().choose_victim == nil, "the default order is not listed")
end)
