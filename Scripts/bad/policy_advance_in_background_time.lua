-- Attacks the Home cascade by moving the clock from inside a background_time policy (re-entrancy).
-- expect-error: dev:advance cannot be called inside a policy (background_time)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
dev:policy{ background_time = function(a)
  dev:advance(100)
  return 30
end }
dev:launch(app)
dev:home()
