-- Attacks print with a __tostring metamethod that is not a function: the error must name the script's line.
-- expect-error: print_tostring_not_callable.lua:4: attempt to call a number value
local v = setmetatable({}, { __tostring = 42 })
print("value", v)
