-- Attacks the instruction budget with exponential backtracking in gsub, inside C.
-- expect-error: pattern_backtracking_gsub.lua:7: instruction limit reached in one handler call (--max-handler-instructions)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
local subject, pattern = ("a"):rep(40), ("a?"):rep(40) .. "b"
app:on("applicationDidBecomeActive:", function()
  local s = subject:gsub(pattern, "")
end)
dev:launch(app)
