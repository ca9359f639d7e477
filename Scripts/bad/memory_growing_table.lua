-- Attacks the Lua state's memory cap (--max-memory) with a table that grows forever.
-- expect-error: exceeded its memory cap of 256 MB (--max-memory)
local t = {}
for i = 1, 1e12 do t[i] = { i } end
