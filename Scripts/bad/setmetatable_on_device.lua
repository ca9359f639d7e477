-- Attacks a lifesim object by giving the device userdata a new metatable.
-- expect-error: (table expected, got lifesim.device)
local dev = lifesim.device{ ios = 17 }
setmetatable(dev, {})
