-- Attacks the virtual clock's microsecond counter with a duration that overflows it.
-- expect-error: bad argument #1 to 'advance' (at most 3153600000 s (100 years) of virtual time expected, got 1e+300)
local dev = lifesim.device{ ios = 17 }
dev:advance(1e300)
