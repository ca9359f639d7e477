-- Attacks determinism by making a table weak with rawset on its metatable after setmetatable.
-- expect-error: weak_mode_rawset.lua:5: rawset: a metatable in use cannot gain __mode
local mt = {}
local cache = setmetatable({}, mt)
rawset(mt, "__mode", "v")
cache[1] = {}
collectgarbage()
print(cache[1] == nil and "collected" or "kept")
