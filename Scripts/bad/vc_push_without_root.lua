-- Attacks view-controller transitions on an app that has no root view controller.
-- expect-error: app:push: com.example.notes has no root view controller (give dev:install a root
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes" }
dev:launch(app)
app:push{ class = "Detail" }
