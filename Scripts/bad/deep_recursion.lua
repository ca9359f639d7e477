-- Attacks the C and Lua stacks with unbounded (non-tail) recursion.
-- expect-error: deep_recursion.lua:3: stack overflow
local function f(n) return 1 + f(n + 1) end
f(1)
