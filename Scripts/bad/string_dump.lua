-- Attacks the sandbox by dumping a function to bytecode (the first step to forged bytecode).
-- expect-error: string.dump is blocked in lifesim's sandbox
local code = string.dump(function() return 1 end)
print(#code)
