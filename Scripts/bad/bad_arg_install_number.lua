-- Attacks dev:install with a number instead of an app table.
-- expect-error: bad argument #1 to 'install' (table expected, got number)
local dev = lifesim.device{ ios = 17 }
dev:install(42)
