-- Attacks view-controller transitions on an app whose code cannot run (suspended).
-- expect-error: push: com.example.notes is suspended, so none of its code runs
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
dev:launch(app)
dev:home()
app:push{ class = "Detail" }
