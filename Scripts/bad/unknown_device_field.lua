-- Attacks a lifesim object by reading a misspelled field.
-- expect-error: device has no field 'nwo' (did you mean 'now'?)
local dev = lifesim.device{ ios = 17 }
print(dev.nwo)
