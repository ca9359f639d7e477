-- Attacks the Lua state's memory cap with one 1 GB string.rep (small enough for Lua's own size check).
-- expect-error: would take the script past its memory cap of 256 MB (--max-memory)
local s = string.rep("x", 2^30)
print(#s)
