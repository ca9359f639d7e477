-- Attacks determinism by reading the wall clock.
-- expect-error: os.time is blocked in lifesim's sandbox (scripts see no wall clock; use dev.now)
print(os.time())
