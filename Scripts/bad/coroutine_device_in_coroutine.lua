-- Attacks the Lua bridge by making a device inside a coroutine: the result must be a device, not the argument table.
-- expect-error: made <device iOS 17
local dev = coroutine.wrap(function() return lifesim.device{ ios = 17 } end)()
error("made " .. tostring(dev), 0)
