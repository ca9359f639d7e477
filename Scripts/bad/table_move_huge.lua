-- Attacks table.move with 2^63 - 1 nil slots to copy (a loop in C with no allocation).
-- expect-error: table_move_huge.lua:3: instruction limit reached for the run (--max-instructions)
table.move({}, 1, math.maxinteger, 1)
