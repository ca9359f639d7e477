-- Attacks the instruction budget with a pattern that backtracks exponentially inside C (string.find).
-- expect-error: pattern_backtracking.lua:6: instruction limit reached in one handler call (--max-handler-instructions)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidBecomeActive:", function()
  string.find(("a"):rep(30), ("a*"):rep(30) .. "b")
end)
dev:launch(app)
