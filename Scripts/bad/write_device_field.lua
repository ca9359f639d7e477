-- Attacks the virtual clock by writing a read-only field of the device.
-- expect-error: cannot set field 'now' of a device: lifesim objects are read-only
local dev = lifesim.device{ ios = 17 }
dev.now = 5
