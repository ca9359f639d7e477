-- Attacks the virtual clock by moving it backwards.
-- expect-error: bad argument #1 to 'advance' (a time that is not negative expected, got -1.0)
local dev = lifesim.device{ ios = 17 }
dev:advance(-1)
