-- Attacks the engine's cascade by advancing the clock from inside a handler (re-entrancy).
-- expect-error: dev:advance cannot be called inside a handler (com.example.notes applicationDidBecomeActive:)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidBecomeActive:", function() dev:advance(1) end)
dev:launch(app)
