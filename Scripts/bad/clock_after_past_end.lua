-- Attacks the clock's range: a timer set past its end would wrap around and fire at once.
-- expect-error: dev:after: t=
local dev = lifesim.device{ ios = 17 }
local ok, err = pcall(function() for _ = 1, 3000 do dev:advance(3.1e9) end end)
assert(not ok and tostring(err):find("past the end of the virtual clock"), tostring(err))
dev:after(3.1e9, function() error("fired at once") end)
