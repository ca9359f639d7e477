-- Attacks determinism by switching the collector into generational mode.
-- expect-error: collectgarbage('generational') is blocked in lifesim's sandbox
collectgarbage("generational")
