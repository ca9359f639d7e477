-- Attacks the Swift bridge by yielding from a handler through dev:launch back to a coroutine.
-- expect-error: attempt to yield
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
local co = coroutine.wrap(function()
  app:on("applicationDidBecomeActive:", function() coroutine.yield() end)
  dev:launch(app)
end)
co()
