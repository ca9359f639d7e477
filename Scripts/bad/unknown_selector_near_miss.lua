-- Attacks app:on with a misspelled selector, which would otherwise never fire.
-- expect-error: unknown callback 'applicationDidBecomeActiv:' (did you mean 'applicationDidBecomeActive:'?)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidBecomeActiv:", function() end)
