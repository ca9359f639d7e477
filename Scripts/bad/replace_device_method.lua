-- Attacks a lifesim object by replacing one of its methods with a Lua function.
-- expect-error: cannot set field 'launch' of a device: lifesim objects are read-only
local dev = lifesim.device{ ios = 17 }
dev.launch = function() end
