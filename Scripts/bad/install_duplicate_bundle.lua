-- Attacks the device by installing two apps with the same bundle id.
-- expect-error: an app with bundle id 'com.example.notes' is already installed
local dev = lifesim.device{ ios = 17 }
dev:install{ bundle = "com.example.notes" }
dev:install{ bundle = "com.example.notes" }
