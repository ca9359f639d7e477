-- Attacks the interpreter with a hand-made binary chunk passed to load in mode "b".
-- expect-error: load: binary chunks are blocked in lifesim's sandbox
local f = load("\27LuaT\0\25\147\r\n\26\n\4\8\8xV\0\0\0\0\0\0\0\0\0\0\0(w@\1", "evil", "b")
f()
