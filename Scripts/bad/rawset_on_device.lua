-- Attacks a lifesim object by rawset on its userdata, bypassing __newindex.
-- expect-error: bad argument #1 to 'rawset' (table expected, got lifesim.device)
local dev = lifesim.device{ ios = 17 }
rawset(dev, "now", 5)
