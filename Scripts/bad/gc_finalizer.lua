-- Attacks the instruction limit with a __gc finalizer that would loop outside it.
-- expect-error: setmetatable: __gc finalizers are blocked in lifesim's sandbox
setmetatable({}, { __gc = function() while true do end end })
