-- Attacks app:on with a handler that is not a function.
-- expect-error: bad argument #2 to 'on' (function expected, got string)
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("sceneDidBecomeActive:", "not a function")
