-- Attacks UIKit's appearance bookkeeping by starting a push from inside viewWillAppear: of another push.
-- expect-error: push: a transition of com.example.notes is still running
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
dev:launch(app)
app:push{ class = "Detail", on = { ["viewWillAppear:"] = function() app:push{ class = "Other" } end } }
