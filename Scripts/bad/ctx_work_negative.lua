-- Attacks the virtual clock from a handler with negative work.
-- expect-error: bad argument #1 to 'work' (a time that is not negative expected, got -5.0)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidBecomeActive:", function(ctx) ctx:work(-5) end)
dev:launch(app)
