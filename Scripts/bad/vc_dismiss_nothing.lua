-- Attacks modal presentation by dismissing when nothing is presented.
-- expect-error: dismiss: com.example.notes has no view controller presented
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes", root = { class = "Root" } }
dev:launch(app)
app:dismiss()
