-- Attacks the error reporter with an error object whose __tostring never returns.
-- expect-error: error object is a table whose __tostring failed (Scripts/bad/error_tostring_loops.lua:3: instruction limit reached in one handler call
error(setmetatable({}, { __tostring = function() while true do end end }))
