-- Attacks the navigation stack by popping its root view controller.
-- expect-error: pop: com.example.notes's navigation stack holds only its root
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
dev:launch(app)
app:pop()
