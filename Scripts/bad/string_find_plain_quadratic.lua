-- Attacks the instruction budget with a plain find whose cost is the product of two long lengths.
-- expect-error: string_find_plain_quadratic.lua:5: instruction limit reached for the run (--max-instructions)
local haystack = ("a"):rep(4000000)
local needle = ("a"):rep(2000000) .. "b"
print(string.find(haystack, needle, 1, true))
