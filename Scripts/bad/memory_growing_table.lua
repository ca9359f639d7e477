-- Attacks the Lua state's memory cap (--max-memory) with a table that grows forever.
-- expect-error: memory_growing_table.lua:4: not enough memory: the script exceeded its memory cap of 256 MB (--max-memory)
local t = {}
for i = 1, 1e12 do t[i] = { i } end
