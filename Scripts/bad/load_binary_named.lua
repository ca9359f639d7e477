-- Attacks load with a binary chunk in the default mode: the refusal must name the line that called load.
-- expect-error: load_binary_named.lua:3: attempt to load a binary chunk (mode is 't')
local f, err = load("\27LuaT\0\25\147\r\n\26\n\4\8\8xV\0\0\0\0\0\0\0\0\0\0\0(w@\1")
error(err, 0)
