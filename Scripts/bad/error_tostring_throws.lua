-- Attacks the error reporter with an error object whose __tostring itself raises an error.
-- expect-error: (error object is a table value)
error(setmetatable({}, { __tostring = function() error("boom in tostring") end }))
