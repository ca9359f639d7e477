-- Attacks host memory with a bundle id of four megabytes, copied into every trace the device writes.
-- expect-error: field 'bundle' is 4194304 bytes long; names are at most 4096 bytes
local dev = lifesim.device{ ios = 17 }
dev:install{ bundle = string.rep("a", 4 * 1024 * 1024) }
