-- Attacks the error reporter with an error object whose __tostring returns a table.
-- expect-error: error object is a table whose __tostring failed ('__tostring' must return a string): {}
error(setmetatable({}, { __tostring = function() return {} end }))
