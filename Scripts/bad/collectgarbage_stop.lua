-- Attacks the memory cap by turning the garbage collector off.
-- expect-error: collectgarbage('stop') is blocked in lifesim's sandbox
collectgarbage("stop")
