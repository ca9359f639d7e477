-- Attacks the sandbox by asking require for the real os library.
-- expect-error: require 'os' is blocked in lifesim's sandbox
local os = require "os"
os.execute("ls")
