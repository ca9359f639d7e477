-- Attacks the clock by calling dev:run() from inside a dev:after timer.
-- expect-error: dev:run cannot be called inside a dev:at/dev:after function
local dev = lifesim.device{ ios = 17 }
dev:after(1, function() dev:run() end)
dev:run()
