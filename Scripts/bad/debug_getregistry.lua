-- Attacks lifesim's private state through the Lua registry.
-- expect-error: debug.getregistry is blocked in lifesim's sandbox
local reg = debug.getregistry()
for k, v in pairs(reg) do print(k, v) end
