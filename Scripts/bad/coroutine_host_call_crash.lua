-- Attacks the Lua bridge: host calls from a coroutine push their results on the main thread's stack until it overflows.
-- expect-error: survived 1000000 host calls from a coroutine
local dev = lifesim.device{ ios = 17 }
local n = coroutine.wrap(function()
  lifesim.device()               -- a device that lands on the main thread's stack, at its index 1
  local n = 0
  for i = 1, 1000000 do dev:mark() n = i end
  return n
end)()
error("survived " .. tostring(n) .. " host calls from a coroutine", 0)
