-- Attacks view-controller transitions on an app that has no root view controller.
-- expect-error: cannot push: it has no root view controller
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes" }
dev:launch(app)
app:push{ class = "Detail" }
