-- A choose_victim policy that spares apps holding unsaved changes: the first candidate with unsaved == 0, else the default choice.

local function protect_unsaved(dev, candidates)
  for _, c in ipairs(candidates) do
    if c.unsaved == 0 then return c end
  end
  return candidates[1]
end

-- 1000 MB of RAM (jetsam above 950 MB, 500 MB per process). The suspended apps
-- are used in the order given; `dirty[name]` unsaved changes are made by each
-- while on screen and never saved. Then "fg" comes forward, makes `dirty.fg`
-- changes and grows to `fg_mb`. Returns the kills and the data losses since then, and the apps.
local function scenario(policy, suspended, dirty, fg_mb)
  local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
  if policy then dev:policy{ choose_victim = policy } end
  local apps = {}
  for _, name in ipairs(suspended) do
    local app = dev:install{ bundle = name, footprint_mb = 250 }
    local n = dirty[name] or 0
    app:on("applicationDidBecomeActive:", function(ctx) ctx:dirty(n) end)
    apps[name] = app
    dev:launch(app)
    dev:advance(1)
    dev:home()
  end
  local fg = dev:install{ bundle = "fg", footprint_mb = 100 }
  fg:on("applicationDidBecomeActive:", function(ctx)
    ctx:dirty(dirty.fg or 0)
    ctx:allocate(fg_mb - 100)
  end)
  apps.fg = fg
  local m = dev:mark()
  dev:launch(fg)
  local kills, losses = {}, {}
  for _, r in ipairs(dev.trace:records{ kind = "kill", since = m }) do kills[#kills + 1] = r.app end
  for _, r in ipairs(dev.trace:records{ kind = "data_loss", since = m }) do
    losses[#losses + 1] = r.app .. " " .. r.detail
  end
  return kills, losses, apps
end

lifesim.test("default order: the least recently used app dies, unsaved changes and all", function()
  local kills, losses, apps = scenario(nil, { "a", "b" }, { a = 2 }, 500)  -- 1000 MB
  assert(apps.a.unsaved == 0 and apps.b.unsaved == 0, "the changes are gone or never made")
  lifesim.expect_callbacks(kills, { "a" })
  lifesim.expect_callbacks(losses, { "a 2 unsaved" })
end)

lifesim.test("protect unsaved: a clean app dies instead, and nothing is lost", function()
  local kills, losses, apps = scenario(protect_unsaved, { "a", "b" }, { a = 2 }, 500)
  lifesim.expect_callbacks(kills, { "b" })
  lifesim.expect_callbacks(losses, {})
  assert(apps.a.state == "suspended" and apps.a.unsaved == 2, "a keeps its process and its changes")
end)

lifesim.test("protect unsaved: when every candidate is clean it keeps the default order", function()
  local kills, losses = scenario(protect_unsaved, { "a", "b" }, {}, 500)
  lifesim.expect_callbacks(kills, { "a" })
  lifesim.expect_callbacks(losses, {})
end)

lifesim.test("protect unsaved, a caveat: when every background app is dirty, the clean foreground app dies", function()
  local kills, losses, apps = scenario(protect_unsaved, { "a", "b" }, { a = 1, b = 4 }, 500)
  -- The foreground app is a candidate too (band 10, last in the default order),
  -- and it is the only clean one.
  lifesim.expect_callbacks(kills, { "fg" })
  lifesim.expect_callbacks(losses, {})
  assert(apps.fg.state == "notRunning" and apps.a.state == "suspended" and apps.b.state == "suspended")
end)

lifesim.test("protect unsaved: when every candidate is dirty it falls back to the default choice", function()
  local kills, losses = scenario(protect_unsaved, { "a", "b" }, { a = 1, b = 4, fg = 1 }, 500)
  lifesim.expect_callbacks(kills, { "a" })
  lifesim.expect_callbacks(losses, { "a 1 unsaved" })
end)

lifesim.test("protect unsaved: two kills take both clean apps and spare the dirty one", function()
  local kills_default, losses_default = scenario(nil, { "a", "b", "c" }, { a = 5 }, 500)  -- 1250 MB
  lifesim.expect_callbacks(kills_default, { "a", "b" })
  lifesim.expect_callbacks(losses_default, { "a 5 unsaved" })

  local kills, losses, apps = scenario(protect_unsaved, { "a", "b", "c" }, { a = 5 }, 500)
  lifesim.expect_callbacks(kills, { "b", "c" })
  lifesim.expect_callbacks(losses, {})
  assert(apps.a.unsaved == 5)
end)
