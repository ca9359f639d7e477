-- Attacks lifesim.device with an iOS version lifesim does not model.
-- expect-error: unsupported iOS version 99
local dev = lifesim.device{ ios = 99 }
