-- Device models: RAM, the per-process limit and the iOS versions each model runs.
--
-- Sources: reference §4 (the measured foreground limits of Stack Overflow answer 15200855,
-- up to the iPhone 11 Pro Max); the later models' RAM from the public spec tables (Wikipedia's
-- lists of iPhone and iPad models, from teardowns: Apple publishes no RAM figures), with no
-- published limit, so the default half of RAM; the iOS ranges from Apple's compatibility lists.

lifesim.test("a measured model keeps its measured limit", function()
  local dev = lifesim.device{ ios = 13, model = "iPhone 11" }
  assert(dev.memory_mb == 3844 and dev.per_process_limit_mb == 2068, dev.memory_mb .. " " .. dev.per_process_limit_mb)
  assert(dev.limit_measured == true)
end)

lifesim.test("later models: spec-table RAM, the default limit, and they say so", function()
  for name, ram in pairs{ ["iPhone 12"] = 4096, ["iPhone 13 Pro"] = 6144, ["iPhone 15 Pro"] = 8192,
                          ["iPhone 16"] = 8192, ["iPad mini 6"] = 4096 } do
    local dev = lifesim.device{ ios = 18, model = name }
    assert(dev.memory_mb == ram, name .. ": " .. dev.memory_mb)
    assert(dev.per_process_limit_mb == ram // 2 and dev.limit_measured == false, name)
  end
end)

lifesim.test("a model that never ran the iOS asked for is an error naming its range", function()
  local ok, err = pcall(lifesim.device, { model = "iPhone 4", ios = 17 })
  assert(not ok and tostring(err):find("iPhone 4 runs iOS 4 to 7, not iOS 17", 1, true), tostring(err))
  ok, err = pcall(lifesim.device, { model = "iPhone 15", ios = 12 })
  assert(not ok and tostring(err):find("iPhone 15 runs iOS 17 and later, not iOS 12", 1, true), tostring(err))
  assert(pcall(lifesim.device, { model = "iPhone 4", ios = 7 }))
  assert(pcall(lifesim.device, { model = "iPhone XS", ios = 18 }))
  ok = pcall(lifesim.device, { model = "iPhone XS", ios = 26 })
  assert(not ok, "iOS 26 dropped the iPhone XS")
end)

lifesim.test("jetsam on a later model: a process over half of RAM dies", function()
  local dev = lifesim.device{ ios = 17, model = "iPhone 15" }
  local big = dev:install{ bundle = "com.example.big", footprint_mb = 1000 }
  big:on("sceneDidBecomeActive:", function(ctx) ctx:allocate(2200) end)  -- 3200 MB > 3072 MB
  dev:launch(big)
  local kills = dev.trace:records{ kind = "kill" }
  assert(#kills == 1 and kills[1].reason == "per-process-limit", #kills .. " kills")
end)
