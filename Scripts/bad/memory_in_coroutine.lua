-- Attacks the memory cap (--max-memory) from inside a coroutine; the error still names the line.
-- expect-error: memory_in_coroutine.lua:5: not enough memory: the script exceeded its memory cap of 256 MB (--max-memory)
local grow = coroutine.wrap(function()
  local t = {}
  for i = 1, 1e12 do t[i] = { i } end
end)
grow()
