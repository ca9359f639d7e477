-- Attacks the sandbox by asking require for the real debug library.
-- expect-error: require 'debug' is blocked in lifesim's sandbox
local d = require "debug"
d.sethook()
