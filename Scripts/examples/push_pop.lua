-- Seed 003's storyboard trace: push a view controller, then pop it (iOS 12).
-- Run: lifesim run Scripts/examples/push_pop.lua
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.sgh", root = { class = "RootViewController", from = "storyboard" } }
dev:launch(app)
local pushed = app:push{ class = "SGHPushViewController", from = "storyboard" }
assert(app.top == pushed)
app:pop()
assert(pushed.state == "deallocated" and #app.stack == 1)
