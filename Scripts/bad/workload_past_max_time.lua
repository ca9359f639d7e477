-- Attacks the workload driver with a drive a century long, past how far a run may take the clock.
-- expect-error: s of virtual time is more than a run may take, 2592000.000000 s (--max-time)
local dev = lifesim.device{ ios = 17 }
dev:install{ bundle = "com.example.a" }
dev:install{ bundle = "com.example.b" }
lifesim.workload.user{ switch_every = 60 }:drive(dev, { days = 36500 })
