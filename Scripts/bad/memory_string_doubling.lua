-- Attacks the Lua state's memory cap by doubling a string until it no longer fits.
-- expect-error: memory_string_doubling.lua:4: not enough memory: the script exceeded its memory cap of 256 MB (--max-memory)
local s = "x"
while true do s = s .. s end
