-- Attacks a lifesim object by rawget on its userdata, bypassing __index.
-- expect-error: bad argument #1 to 'rawget' (table expected, got lifesim.app)
local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes" }
print(rawget(app, "state"))
