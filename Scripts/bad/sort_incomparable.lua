-- Attacks table.sort's default comparison with values it cannot compare: the error must name the script's line.
-- expect-error: sort_incomparable.lua:4: attempt to compare
local t = { 3, "x", 1 }
table.sort(t)
