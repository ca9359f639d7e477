-- Attacks the workload driver with a user who switches apps every microsecond for a century.
-- expect-error: field 'switch_every' must be at least 0.1 seconds
local dev = lifesim.device{ ios = 17 }
dev:install{ bundle = "com.example.a" }
dev:install{ bundle = "com.example.b" }
lifesim.workload.user{ switch_every = 0.000001 }:drive(dev, { days = 36500 })
