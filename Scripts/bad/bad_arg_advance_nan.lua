-- Attacks the virtual clock with a NaN duration.
-- expect-error: bad argument #1 to 'advance' (a number of seconds expected, got nan (not a number))
local dev = lifesim.device{ ios = 17 }
dev:advance(0/0)
