-- Attacks the error reporter with an error object whose __tostring never returns.
-- expect-error: (error object is a table value)
error(setmetatable({}, { __tostring = function() while true do end end }))
