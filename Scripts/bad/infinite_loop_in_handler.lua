-- Attacks the per-handler instruction budget with an endless loop inside a delegate callback.
-- expect-error: instruction limit reached in one handler call (--max-handler-instructions)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidBecomeActive:", function() while true do end end)
dev:launch(app)
