-- Attacks the instruction limit by replacing lifesim's hook with debug.sethook.
-- expect-error: debug.sethook is blocked in lifesim's sandbox (it can remove lifesim's limits)
debug.sethook()
while true do end
