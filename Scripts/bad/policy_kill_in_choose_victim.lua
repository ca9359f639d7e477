-- Attacks jetsam by force-quitting the foreground app from inside a choose_victim policy (re-entrancy).
-- expect-error: dev:kill cannot be called inside a policy (choose_victim)
local dev = lifesim.device{ ios = 12, memory_mb = 1000 }
local apps = {}
for i, name in ipairs{ "a", "b", "c" } do
  apps[i] = dev:install{ bundle = name, footprint_mb = 250 }
  dev:launch(apps[i])
  dev:home()
  dev:advance(1)
end
local d = dev:install{ bundle = "d", footprint_mb = 100 }
d:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(400) end)
dev:policy{ choose_victim = function(_, candidates)
  dev:kill(d)
  return candidates[1]
end }
dev:launch(d)
