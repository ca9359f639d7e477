-- Attacks the view tree by removing the same view twice.
-- expect-error: remove: this BadgeView was already removed
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
dev:launch(app)
local badge = app.top:add_view{ class = "BadgeView", from = "code" }
badge:remove()
badge:remove()
