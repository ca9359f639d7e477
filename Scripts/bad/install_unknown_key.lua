-- Attacks dev:install with a misspelled option that would otherwise be ignored.
-- expect-error: unknown option 'footprint_md' (did you mean 'footprint_mb'?)
local dev = lifesim.device{ ios = 17 }
dev:install{ bundle = "com.example.notes", footprint_md = 100 }
