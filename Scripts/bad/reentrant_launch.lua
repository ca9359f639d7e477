-- Attacks the engine's cascade by starting a user action (Home) from inside a handler.
-- expect-error: dev:home cannot be called inside a handler (com.example.notes applicationDidBecomeActive:)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidBecomeActive:", function() dev:home() end)
dev:launch(app)
