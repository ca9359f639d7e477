-- Attacks determinism with a weak table whose contents depend on when the collector runs.
-- expect-error: setmetatable: weak tables (__mode) are blocked in lifesim's sandbox
local cache = setmetatable({}, { __mode = "v" })
