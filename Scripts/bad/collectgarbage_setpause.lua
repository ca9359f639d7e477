-- Attacks the memory cap by tuning the incremental collector (Lua 5.4's "incremental" option with a huge pause).
-- expect-error: collectgarbage('incremental') is blocked in lifesim's sandbox
collectgarbage("incremental", 1000, 100)
