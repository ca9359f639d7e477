-- Attacks the simulated memory model with an infinite allocation from a handler.
-- expect-error: bad argument #1 to 'allocate' (MB must be a number
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidBecomeActive:", function(ctx) ctx:allocate(math.huge) end)
dev:launch(app)
