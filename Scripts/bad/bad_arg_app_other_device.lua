-- Attacks a device by launching an app object that belongs to another device.
-- expect-error: bad argument #1 to 'launch' (the app belongs to another device)
local a = lifesim.device{ ios = 17 }
local b = lifesim.device{ ios = 17 }
local app = a:install{ bundle = "com.example.notes" }
b:launch(app)
