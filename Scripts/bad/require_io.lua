-- Attacks the sandbox by asking require for the real io library.
-- expect-error: require 'io' is blocked in lifesim's sandbox
local io = require "io"
print(io.open("/etc/passwd"):read("a"))
