-- Attacks the sandbox by fishing the real io library out of package.loaded.
-- expect-error: package.loaded is blocked in lifesim's sandbox
local io = package.loaded.io
print(io.open("/etc/passwd"):read("a"))
