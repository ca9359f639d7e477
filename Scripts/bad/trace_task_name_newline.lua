-- Attacks the text trace through a background task's name with a carriage return.
-- expect-error: the task name must not hold control characters (a carriage return at byte 5)
local dev = lifesim.device{ ios = 12 }
local app = dev:install{ bundle = "com.example.notes" }
app:on("applicationDidEnterBackground:", function(ctx) ctx:begin_background_task("sync\rforged") end)
dev:launch(app)
dev:home()
