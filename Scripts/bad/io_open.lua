-- Attacks the sandbox by reading a file outside the script.
-- expect-error: io.open is blocked in lifesim's sandbox (no access to the outside world); lifesim run --unsafe allows it
local f = io.open("/etc/passwd")
print(f:read("a"))
