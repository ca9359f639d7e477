-- A choose_victim policy: strict least-recently-used, ignoring jetsam bands, against the default band-then-LRU order.

local strict_lru = require("policies").strict_lru

-- 1000 MB of RAM (jetsam above 950 MB, 500 MB per process). `a` is used first
-- and keeps running in the background (`a_mode`: "task" holds a background task,
-- band 3; "audio" plays audio, band 12); `b` is used next and is suspended
-- (band 0); then `c` comes to the foreground and grows to 400 MB: 1000 MB in all.
-- Returns the device, the apps, and the bundles jetsam killed, in order.
local function scenario(policy, a_mode)
  local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
  if policy then dev:policy{ choose_victim = policy } end
  local a = dev:install{ bundle = "a", footprint_mb = 300, background_modes = { "audio" } }
  local b = dev:install{ bundle = "b", footprint_mb = 300 }
  local c = dev:install{ bundle = "c", footprint_mb = 100 }
  a:on("applicationDidEnterBackground:", function(ctx)
    if a_mode == "audio" then ctx:play_audio(true) else ctx:begin_background_task("upload") end
  end)
  c:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(300) end)
  for _, app in ipairs{ a, b } do
    dev:launch(app)
    dev:advance(1)
    dev:home()
    dev:advance(1)
  end
  local m = dev:mark()
  dev:launch(c)
  local killed = {}
  for _, r in ipairs(dev.trace:records{ kind = "kill", since = m }) do
    killed[#killed + 1] = r.app .. " " .. r.reason
  end
  return dev, a, b, c, killed
end

lifesim.test("default order: the suspended app goes first, though the background one was used longer ago", function()
  local _, a, b, _, killed = scenario(nil, "task")
  assert(a.band == 3, "a runs in the background, band " .. a.band)
  lifesim.expect_callbacks(killed, { "b vm-pageshortage" })
  assert(a.state == "background")
end)

lifesim.test("strict LRU: the app used longest ago goes first, though it is still running", function()
  local _, a, b, _, killed = scenario(strict_lru, "task")
  lifesim.expect_callbacks(killed, { "a vm-pageshortage" })
  assert(b.state == "suspended", "the suspended app survives, got " .. b.state)
end)

lifesim.test("strict LRU even kills a playing audio app (band 12) that the default order protects", function()
  local _, a_default, _, _, killed_default = scenario(nil, "audio")
  assert(a_default.band == 12, "playing audio: band " .. a_default.band)
  lifesim.expect_callbacks(killed_default, { "b vm-pageshortage" })

  local _, a, _, _, killed = scenario(strict_lru, "audio")
  lifesim.expect_callbacks(killed, { "a vm-pageshortage" })
  assert(not a.playing_audio and a.state == "notRunning", "the music stops with the process")
end)

lifesim.test("the policy sees every running app, in the default order, with its band, use time and state", function()
  local seen = {}
  local function spy(dev, candidates)
    for _, c in ipairs(candidates) do
      seen[#seen + 1] = string.format("%s band=%d last_used=%g %s %gMB unsaved=%d",
                                      c.bundle, c.band, c.last_used, c.state, c.footprint_mb, c.unsaved)
    end
    return strict_lru(dev, candidates)
  end
  local dev, a, _, c, killed = scenario(spy, "task")
  lifesim.expect_callbacks(seen, {
    "b band=0 last_used=3 suspended 300MB unsaved=0",   -- band 0
    "a band=3 last_used=1 background 300MB unsaved=0",  -- band 3
    "c band=10 last_used=4 active 400MB unsaved=0",     -- band 10: the foreground app is a candidate too
  })
  lifesim.expect_callbacks(killed, { "a vm-pageshortage" })
  assert(c.state == "active" and dev.memory_level == "normal")
end)

lifesim.test("the policy is asked once per kill, with the survivors", function()
  local calls = {}
  local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
  dev:policy{ choose_victim = function(d, candidates)
    calls[#calls + 1] = #candidates
    return strict_lru(d, candidates)
  end }
  local apps = {}
  for i, name in ipairs{ "a", "b", "c" } do
    apps[i] = dev:install{ bundle = name, footprint_mb = 250 }
    dev:launch(apps[i])
    dev:home()
    dev:advance(1)
  end
  local d = dev:install{ bundle = "d", footprint_mb = 100 }
  d:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(400) end)
  dev:launch(d)  -- 750 + 500 = 1250 MB: two kills needed

  assert(table.concat(calls, ",") == "4,3", "candidates per call: " .. table.concat(calls, ","))
  assert(apps[1].state == "notRunning" and apps[2].state == "notRunning" and apps[3].state == "suspended")
end)
