-- Attacks host memory with ten million devices: each is kilobytes of Swift the Lua allocator never sees.
-- expect-error: lifesim.device: a run makes at most 10000 devices
for _ = 1, 1e7 do lifesim.device{ ios = 17 } end
