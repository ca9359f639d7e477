-- A script saved with a UTF-8 byte-order mark (as some Windows editors do): lifesim skips the
-- mark, as the lua interpreter does, and line numbers stay those of the file.
local helper = require("utf8_bom_helper")

local ok, err = pcall(function() error("here") end)
assert(err:match(":(%d+): here$") == "5", err)
assert(helper.where():match("utf8_bom_helper.lua:(%d+): here$") == "6", helper.where())

local dev = lifesim.device{ ios = 17 }
local app = dev:install{ bundle = "com.example.notes" }
dev:launch(app)
assert(app.state ~= "notRunning", app.state)
