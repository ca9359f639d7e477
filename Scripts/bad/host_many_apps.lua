-- Attacks the engine's loops over apps (and host memory) with a device of a million apps.
-- expect-error: dev:install: a device holds at most 10000 apps
local dev = lifesim.device{ ios = 17 }
for i = 1, 1e6 do dev:install{ bundle = "com.example.app" .. i } end
