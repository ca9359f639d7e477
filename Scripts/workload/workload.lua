-- lifesim.workload: the simulated user (Zipf popularity, switches, locks, notifications, quits) and the replay of a usage CSV.
local function device(seed)
  local dev = lifesim.device{ ios = 17, seed = seed, memory_mb = 1500 }
  local apps = {}
  for i, name in ipairs{ "mail", "maps", "chat", "news", "photos", "music" } do
    apps[i] = dev:install{ bundle = "com.example." .. name, footprint_mb = 150 }
  end
  return dev, apps
end

lifesim.test("the user opens popular apps more often, from the seeded generator", function()
  local dev, apps = device(1)
  local opened = {}
  for _, a in ipairs(apps) do opened[a.bundle] = 0 end
  -- Count opens through the trace: launch actions.
  local done = lifesim.workload.user{ zipf = 1.2, switch_every = 60 }:drive(dev, { hours = 12 })
  for _, r in ipairs(dev.trace:records{ kind = "action" }) do
    if r.detail == nil and r.app and opened[r.app] then opened[r.app] = opened[r.app] + 1 end
  end
  assert(done.switches > 500, "about 720 switches in 12 h, got " .. done.switches)
  assert(opened["com.example.mail"] > opened["com.example.news"], "rank 1 beats rank 4")
  assert(opened["com.example.maps"] > opened["com.example.music"], "rank 2 beats rank 6")
  assert(dev.stats.opens == done.switches + 1, "every switch opens an app, plus the first")
  assert(dev.now == 12 * 3600)
end)

lifesim.test("the same seed gives the same week; the trace can be off and stats still count", function()
  local a = device(7)
  local b = lifesim.device{ ios = 17, seed = 7, memory_mb = 1500, trace = false }
  for _, name in ipairs{ "mail", "maps", "chat", "news", "photos", "music" } do
    b:install{ bundle = "com.example." .. name, footprint_mb = 150 }
  end
  local user = lifesim.workload.user{ zipf = 1.0, switch_every = 90, session = 600, idle = 1800,
                                      notifications_per_hour = 3, quits_per_hour = 1, switcher_share = 0.3 }
  local da = user:drive(a, { days = 1 })
  local db = user:drive(b, { days = 1 })
  assert(da.switches == db.switches and da.locks == db.locks and da.notifications == db.notifications)
  assert(da.locks > 0 and da.notifications > 0 and da.quits > 0)
  assert(a.stats.opens == b.stats.opens and a.stats.cold_opens == b.stats.cold_opens)
  assert(a.stats.kills.user == da.quits, "each quit is a user kill")
  assert(a.trace.count > 1000 and b.trace.count == 0 and not b.records_trace)
end)

lifesim.test("a usage CSV replays at its times", function()
  local dev, apps = device(1)
  local rows = lifesim.workload.read_csv("usage.csv")
  assert(#rows == 7 and rows[2].app == "com.example.maps" and rows[2].t == 45 and rows[3].event == "home")
  lifesim.workload.replay(rows):drive(dev)
  assert(dev.now == 800)
  local launches = {}
  for _, r in ipairs(dev.trace:records{ kind = "action" }) do
    if r.app then launches[#launches + 1] = ("%g %s"):format(r.t, r.app) end
  end
  lifesim.expect_callbacks(launches, { "0 com.example.mail", "45 com.example.maps", "700 com.example.chat",
                                       "760 com.example.mail", "800 com.example.chat" })
  assert(apps[3].state == "notRunning", "chat was swiped away")
  assert(dev.frontmost == apps[1], "mail came back from the switcher")
  assert(dev.stats.opens == 4, "mail, maps, chat, mail: " .. dev.stats.opens)
  assert(dev.stats.kills.user == 1)
end)

lifesim.test("replay straight from the file name", function()
  local dev = device(2)
  lifesim.workload.replay("usage.csv"):drive(dev)
  assert(dev.stats.cold_opens == 3)
end)

lifesim.test("bad workloads get clear errors", function()
  local dev = device(1)
  local function fails(f, text)
    local ok, err = pcall(f)
    assert(not ok, "expected an error containing " .. text)
    assert(tostring(err):find(text, 1, true), tostring(err))
  end
  fails(function() lifesim.workload.user{ zipff = 1 } end, "zipf")
  fails(function() lifesim.workload.user{ switch_every = -1 } end, "'switch_every' must be a number of seconds > 0")
  fails(function() lifesim.workload.user{}:drive(dev) end, "{ days = 7 }")
  fails(function() lifesim.workload.user{}:drive(dev, { weeks = 1 }) end, "weeks")
  fails(function() lifesim.workload.replay{ { t = 1, event = "opne", app = "x" } } end, "did you mean 'open'")
  fails(function() lifesim.workload.replay{ { t = 1, event = "open" } } end, "needs an app")
  fails(function() lifesim.workload.replay{ { t = 1, event = "open", app = "com.example.nope" } }:drive(dev) end,
        "no app 'com.example.nope'")
  fails(function() lifesim.workload.replay{ { t = 5, event = "home" }, { t = 1, event = "home" } }:drive(dev) end,
        "row 2 goes back in time")
  fails(function() lifesim.workload.read_csv("/etc/passwd") end, "beside the script")
  fails(function() lifesim.workload.read_csv("missing.csv") end, "cannot read")
end)
