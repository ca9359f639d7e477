-- Attacks the clock's range: a hundred years at a time until 64 bits of microseconds would wrap.
-- expect-error: is past the end of the virtual clock
local dev = lifesim.device{ ios = 17 }
for _ = 1, 3000 do dev:advance(3.1e9) end
