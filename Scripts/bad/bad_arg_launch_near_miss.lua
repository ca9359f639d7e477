-- Attacks dev:launch with a misspelled bundle id of an installed app.
-- expect-error: (no app 'com.example.note' is installed (did you mean 'com.example.notes'?))
local dev = lifesim.device{ ios = 17 }
dev:install{ bundle = "com.example.notes" }
dev:launch("com.example.note")
