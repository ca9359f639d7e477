-- Attacks the run's instruction budget with an endless loop at top level.
-- expect-error: instruction limit reached for the run (--max-instructions)
while true do end
