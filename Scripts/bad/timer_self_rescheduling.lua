-- Attacks dev:run() with a timer that reschedules itself forever.
-- expect-error: the run reached its virtual-time limit at t=2592000.000000 with events still scheduled (--max-time)
local dev = lifesim.device{ ios = 17 }
local function tick() dev:after(3600, tick) end
dev:after(3600, tick)
dev:run()
