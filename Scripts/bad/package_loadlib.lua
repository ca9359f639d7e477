-- Attacks the sandbox by loading a C library through package.loadlib.
-- expect-error: package.loadlib is blocked in lifesim's sandbox
local f = package.loadlib("/lib/x86_64-linux-gnu/libc.so.6", "system")
f("ls")
