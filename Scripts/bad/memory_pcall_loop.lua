-- Tries to pcall its way past the memory cap (--max-memory): the limit is sticky.
-- expect-error: memory_pcall_loop.lua:6: not enough memory: the script exceeded its memory cap of 256 MB (--max-memory)
local keep = {}
for round = 1, 1e9 do
  pcall(function() for i = 1, 1e12 do keep[#keep + 1] = { i } end end)
  keep[#keep + 1] = round
end
