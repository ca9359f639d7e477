-- Attacks the terminal through the text trace: a view-controller class name with an escape sequence.
-- expect-error: field 'class' must not hold control characters (an escape at byte 1)
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes", root = { class = "Root", from = "storyboard" } }
dev:launch(app)
app:push{ class = "\27[2J\27[HDetail" }
