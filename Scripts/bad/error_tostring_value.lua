-- Attacks the error reporter with an error object whose __tostring gives the message.
-- expect-error: error object is a table: custom
error(setmetatable({}, { __tostring = function() return "custom" end }))
