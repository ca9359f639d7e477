-- Attacks the Lua bridge by calling a device method from inside a coroutine (host calls must read the coroutine's stack).
-- expect-error: reached the end: dev.now = 5.0
local dev = lifesim.device{ ios = 17 }
coroutine.wrap(function() dev:advance(5) end)()
error("reached the end: dev.now = " .. dev.now, 0)
