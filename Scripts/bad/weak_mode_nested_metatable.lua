-- Attacks the weak-table seal with a metatable that has a metatable of its own, whose __newindex would see its writes.
-- expect-error: weak_mode_nested_metatable.lua:5: setmetatable: a metatable with a metatable of its own is blocked
local outer = {}
local mt = setmetatable({}, outer)
local cache = setmetatable({}, mt)
mt.__mode = "k"
cache[{}] = true
collectgarbage()
print(next(cache) == nil and "collected" or "kept")
