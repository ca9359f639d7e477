-- Attacks the error reporter with an error object whose __tostring returns a table.
-- expect-error: (error object is a table value)
error(setmetatable({}, { __tostring = function() return {} end }))
