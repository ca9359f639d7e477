-- Attacks determinism by making a table weak after setmetatable: what it holds would depend on when the collector ran.
-- expect-error: weak_mode_after_setmetatable.lua:5: a metatable in use cannot gain __mode
local mt = {}
local cache = setmetatable({}, mt)
mt.__mode = "k"
cache[{}] = true
collectgarbage()
print(next(cache) == nil and "collected" or "kept")
