-- Attacks the handler error path with a table error value thrown from a delegate callback.
-- expect-error: error object is a table: { code = 1 }
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidBecomeActive:", function() error({ code = 1 }) end)
dev:launch(app)
