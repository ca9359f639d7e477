-- Attacks string.rep with a 2^40-byte request, beyond what Lua 5.4 lets one string hold.
-- expect-error: resulting string too large
local s = string.rep("x", 2^40)
print(#s)
