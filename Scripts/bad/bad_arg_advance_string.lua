-- Attacks dev:advance with a string instead of a number of seconds.
-- expect-error: bad argument #1 to 'advance' (number expected, got string)
local dev = lifesim.device{ ios = 17 }
dev:advance("soon")
