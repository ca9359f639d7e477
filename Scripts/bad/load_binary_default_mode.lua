-- Attacks load's default mode: a binary chunk with no mode argument must still be refused.
-- expect-error: attempt to load a binary chunk (mode is 't')
local f, err = load("\27LuaT\0\25\147\r\n\26\n\4\8\8xV\0\0\0\0\0\0\0\0\0\0\0(w@\1", "evil")
if not f then error(err, 0) end
f()
