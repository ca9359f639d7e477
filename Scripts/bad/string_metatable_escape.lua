-- Attacks the sandbox by reaching the real string library through the string metatable and _G.
-- expect-error: string.dump is blocked in lifesim's sandbox
local mt = getmetatable("")
print(mt.__index.dump(print))
