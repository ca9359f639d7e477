-- Attacks an app's state machine by writing its state field directly.
-- expect-error: cannot set field 'state' of an app: lifesim objects are read-only
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes" }
app.state = "active"
