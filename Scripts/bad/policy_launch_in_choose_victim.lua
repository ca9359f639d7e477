-- Attacks jetsam by launching an app from inside a choose_victim policy (re-entrancy).
-- expect-error: dev:launch cannot be called inside a policy (choose_victim)
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
  dev:launch(apps[1])
  return candidates[1]
end }
dev:launch(d)
