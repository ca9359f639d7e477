-- Attacks dev:run() with a zero-delay timer that reschedules itself without moving the clock.
-- expect-error: without the clock moving: a timer or dev:after reschedules itself with no delay (--max-events-per-instant)
local dev = lifesim.device{ ios = 17 }
local function tick() dev:after(0, tick) end
dev:after(0, tick)
dev:run()
