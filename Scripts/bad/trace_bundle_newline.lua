-- Attacks the text trace: a bundle id with a newline would write a forged line of its own.
-- expect-error: field 'bundle' must not hold control characters (a newline at byte 18)
local dev = lifesim.device{ ios = 17 }
dev:install{ bundle = "com.example.notes\n[t=0.000000] com.example.bank action kill" }
