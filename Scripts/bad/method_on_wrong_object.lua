-- Attacks the method table by calling a device method with an app as self.
-- expect-error: bad argument #1 to 'home' (device expected, got app)
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes" }
dev.home(app)
