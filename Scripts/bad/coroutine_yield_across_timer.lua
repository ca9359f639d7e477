-- Attacks the Swift bridge by yielding from a dev:after timer through dev:advance back to a coroutine.
-- expect-error: attempt to yield
local dev = lifesim.device{ ios = 17 }
local co = coroutine.wrap(function()
  dev:after(1, function() coroutine.yield("escaped") end)
  dev:advance(2)
end)
print(co())
