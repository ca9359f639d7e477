-- Attacks a handler context by keeping it and using it after the handler has returned.
-- expect-error: this ctx belongs to a handler that has returned
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
local saved
app:on("applicationDidBecomeActive:", function(ctx) saved = ctx end)
dev:launch(app)
saved:work(100)
