-- Attacks the error reporter with an error object whose __tostring itself raises an error.
-- expect-error: error object is a table whose __tostring failed (Scripts/bad/error_tostring_throws.lua:3: boom in tostring): {}
error(setmetatable({}, { __tostring = function() error("boom in tostring") end }))
