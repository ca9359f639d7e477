-- Attacks the memory cap (--max-memory) from inside a handler, with a table that grows forever.
-- expect-error: memory_in_handler.lua:6: not enough memory: the script exceeded its memory cap of 256 MB (--max-memory)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
local keep = {}
app:on("applicationDidBecomeActive:", function() for i = 1, 1e12 do keep[i] = { i } end end)
dev:launch(app)
