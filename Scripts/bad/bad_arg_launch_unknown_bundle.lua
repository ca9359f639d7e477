-- Attacks dev:launch with the bundle id of an app that is not installed.
-- expect-error: bad argument #1 to 'launch' (no app 'com.nope' is installed)
local dev = lifesim.device{ ios = 17 }
dev:launch("com.nope")
