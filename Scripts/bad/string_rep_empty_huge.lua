-- Attacks string.rep with an empty string repeated math.maxinteger times (a loop in C with no allocation).
-- expect-error: string_rep_empty_huge.lua:5: rep returned 0 bytes
local s = string.rep("", math.maxinteger)
local t = ("" ):rep(math.maxinteger, "")
error("rep returned " .. #s + #t .. " bytes")
