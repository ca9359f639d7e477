/// The Lua half of lifesim's set-up, run once per state before any script.
///
/// It runs with the full standard library, keeps private references to what it
/// needs (debug.getinfo for error positions, the raw `next`), and then:
/// - makes run-to-run variation impossible to observe:
///   `pairs`/`next` in a fixed key order, a stable `table.sort`, `tostring` and
///   `print` without addresses, `string.format` without `%p`, `math.random`
///   seeded from the run;
/// - installs the sandbox unless `unsafe`: no io, os reduced to what needs
///   no outside world, no debug, text-only `load`, `require` limited to Lua files
///   beside the script and in Scripts/lib, no `__gc`/`__mode` metatables. Every
///   blocked use raises an error that names it and the flag that allows it;
/// - makes `assert` raise a lifesim expectation failure (exit 1, not 2).
///
/// Arguments: the `lifesim` table, the private host table, `unsafe`, the seed.
/// Returns: the metatable of lifesim error objects, the safe `tostring`, and the
/// function that resets a state between the runs of a batch.
let preludeSource = #"""
local lifesim, host, unsafe, seed = ...

local rawtype, rawnext, rawget, rawset, rawequal, select, error, pcall =
  type, next, rawget, rawset, rawequal, select, error, pcall
local raw_tostring, raw_setmetatable, raw_getmetatable = tostring, setmetatable, getmetatable
local getinfo, debug_getmetatable, debug_setmetatable = debug.getinfo, debug.getmetatable, debug.setmetatable
local concat, raw_sort, floor, math_tointeger = table.concat, table.sort, math.floor, math.tointeger
local raw_format, raw_load = string.format, load
-- The library functions the wrappers below call, as fields: an argument error
-- then names the function as the script knows it ('load', not 'raw_load').
local library = { load = load, randomseed = math.randomseed, collectgarbage = collectgarbage, rawset = rawset,
                  rawget = rawget }
local loaded = package.loaded
-- The host functions the prelude calls, as locals: no function holds the
-- host table itself.
local host_write, host_source_line, host_read_module, weak_mode =
  host.write, host.source_line, host.read_module, host.weak_mode

-- Error objects -------------------------------------------------------------
local ErrorMT = {
  __tostring = function(e) return rawget(e, "message") or "error" end,
  __name = "lifesim.Error",
  __metatable = "lifesim.Error",
}

-- "file:line: " of the function `level` levels up.
local function where(level)
  local info = getinfo(level + 1, "Sl")
  if info and info.currentline and info.currentline > 0 then
    return info.short_src .. ":" .. info.currentline .. ": "
  end
  return ""
end

-- tostring without addresses --------------------------------------------------
-- Tables, functions and threads get a number in order of first printing, which
-- is the same in every run of the same script.
local ids = raw_setmetatable({}, { __mode = "k", [weak_mode] = "k" })
local next_id = 0
-- The type name Lua's messages use: the metatable's __name when it is a string.
local function type_name(v)
  local mt = debug_getmetatable(v)
  local name = mt and rawget(mt, "__name")
  if rawtype(name) == "string" then return name end
  return rawtype(v)
end

-- Whether calling v can work: a function, or a value whose metatable has __call.
local function callable(v)
  if rawtype(v) == "function" then return true end
  local mt = debug_getmetatable(v)
  return mt ~= nil and rawget(mt, "__call") ~= nil
end

-- Errors name the script's line: `level` counts from this function (3 when
-- the script called the function that called this one).
local function tostring_at(v, level)
  local t = rawtype(v)
  if t == "table" or t == "userdata" or t == "function" or t == "thread" then
    local mt = debug_getmetatable(v)
    local mm = mt and rawget(mt, "__tostring")
    if mm then
      if not callable(mm) then
        error("attempt to call a " .. type_name(mm) .. " value (metamethod '__tostring')", level)
      end
      local s = mm(v)
      if rawtype(s) ~= "string" then error("'__tostring' must return a string", level) end
      return s
    end
    local id = ids[v]
    if not id then
      next_id = next_id + 1
      id = next_id
      ids[v] = id
    end
    return t .. ": #" .. id
  end
  return raw_tostring(v)
end

local function safe_tostring(v)
  local s = tostring_at(v, 3)  -- (not a tail call, which would drop this frame from the count)
  return s
end

-- Deterministic iteration -------------------------------------------------------
local rank = { number = 1, string = 2, boolean = 3 }
local function key_less(a, b)
  local ta, tb = rawtype(a), rawtype(b)
  if ta ~= tb then return rank[ta] < rank[tb] end
  if ta == "boolean" then return (not a) and b end
  return a < b
end

local function sorted_keys(t, level)
  local keys, n = {}, 0
  for k in rawnext, t do
    if not rank[rawtype(k)] then
      error("pairs/next: this table has a " .. rawtype(k) .. " key; the order of such keys " ..
            "changes from run to run, so lifesim iterates only number, string and boolean " ..
            "keys (keep such objects in an array and use ipairs)", level + 1)
    end
    n = n + 1
    keys[n] = k
  end
  raw_sort(keys, key_less)  -- keys are distinct, so the result does not depend on the pivot
  return keys, n
end

local function check_table(v, fname)
  if rawtype(v) ~= "table" then
    error("bad argument #1 to '" .. fname .. "' (table expected, got " .. rawtype(v) .. ")", 3)
  end
end

-- `dev.stats` is a view (stats.c): an empty table whose metatable, marked
-- `view_mark` and shown to no script, reads from the table of the counters.
-- The host hands the same view out again while nothing was written to it;
-- the first write makes it a plain table, a copy, that is the script's own.
-- Iteration and raw reads see through a view, so that it reads as the table.
local view_mark = {}
local view_written  -- the host's: the cache at the view's metatable's [1] hands the view out no more
local function view_target(t)
  local mt = debug_getmetatable(t)
  if mt ~= nil and rawget(mt, "__metatable") == view_mark then return rawget(mt, "__index") end
  return t
end

local function view_own(v)
  local mt = debug_getmetatable(v)
  local t = rawget(mt, "__index")
  view_written(rawget(mt, 1))
  debug_setmetatable(v, nil)
  for k, x in rawnext, t do rawset(v, k, x) end
end

-- Every write to a view reaches view_own when the sandbox's rawset does
-- (below); with --unsafe, the host looks at the view before handing it out.
view_written = host.stats_views(view_mark, function(v, k, x)
  if k == nil then error("index is nil", 2) end
  if k ~= k then error("index is NaN", 2) end
  view_own(v)
  rawset(v, k, x)
end, not unsafe)

_G.rawget = function(t, ...)
  local v = library.rawget(view_target(t), ...)
  return v
end

function pairs(t)
  local mt = debug_getmetatable(t)
  if mt ~= nil and rawget(mt, "__metatable") == view_mark then
    t, mt = rawget(mt, "__index"), nil
  end
  local mm = mt and rawget(mt, "__pairs")
  if mm then
    if not callable(mm) then error("attempt to call a " .. type_name(mm) .. " value (metamethod '__pairs')", 2) end
    return mm(t)
  end
  check_table(t, "pairs")
  local keys, n = sorted_keys(t, 2)
  local i = 0
  return function()
    while i < n do
      i = i + 1
      local k = keys[i]
      local v = rawget(t, k)
      if v ~= nil then return k, v end
    end
    return nil
  end, t, nil
end

local next_cache = raw_setmetatable({}, { __mode = "k", [weak_mode] = "k" })
function next(t, k)
  check_table(t, "next")
  t = view_target(t)
  local c = next_cache[t]
  if k == nil or not c or c.pos[k] == nil then
    local keys, n = sorted_keys(t, 2)
    local pos = {}
    for i = 1, n do pos[keys[i]] = i end
    c = { keys = keys, n = n, pos = pos }
    next_cache[t] = c
    if k ~= nil and pos[k] == nil then error("invalid key to 'next'", 2) end
  end
  local i = k == nil and 0 or c.pos[k]
  while i < c.n do
    i = i + 1
    local key = c.keys[i]
    local v = rawget(t, key)
    if v ~= nil then return key, v end
  end
  return nil
end

-- `a < b` for table.sort without a comparator. Lua would report values it
-- cannot compare at this line of the prelude; the script's line that called
-- table.sort (level 3: this function, the sort, its caller) is the one to blame.
local function default_less(a, b)
  local ta, tb = rawtype(a), rawtype(b)
  if ta == tb and (ta == "number" or ta == "string") then return a < b end
  local ma, mb = debug_getmetatable(a), debug_getmetatable(b)
  if (ma and rawget(ma, "__lt") ~= nil) or (mb and rawget(mb, "__lt") ~= nil) then return a < b end
  local na, nb = type_name(a), type_name(b)
  if na == nb then error("attempt to compare two " .. na .. " values", 3) end
  error("attempt to compare " .. na .. " with " .. nb, 3)
end

-- A stable merge sort: equal elements keep their order in every run, where
-- Lua's quicksort picks its pivot from the clock.
function table.sort(t, comp)
  check_table(t, "sort")
  if comp ~= nil and rawtype(comp) ~= "function" then
    error("bad argument #2 to 'sort' (function expected, got " .. rawtype(comp) .. ")", 2)
  end
  local lt = comp or default_less
  local n = #t
  if n < 2 then return end
  local a, b = {}, {}
  for i = 1, n do a[i] = t[i] end
  local width = 1
  while width < n do
    local i = 1
    while i <= n do
      local mid, hi = i + width, i + 2 * width
      if mid > n + 1 then mid = n + 1 end
      if hi > n + 1 then hi = n + 1 end
      local l, r, k = i, mid, i
      while l < mid and r < hi do
        if lt(a[r], a[l]) then b[k] = a[r]; r = r + 1 else b[k] = a[l]; l = l + 1 end
        k = k + 1
      end
      while l < mid do b[k] = a[l]; l = l + 1; k = k + 1 end
      while r < hi do b[k] = a[r]; r = r + 1; k = k + 1 end
      i = hi
    end
    a, b = b, a
    width = width * 2
  end
  for i = 1, n do t[i] = a[i] end
end

tostring = safe_tostring

function print(...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = tostring_at((select(i, ...)), 3) end
  host_write(concat(parts, "\t") .. "\n")
end

-- In C (format.c, ls_format): the same checks as a Lua function made, at a
-- sixth of the cost, and the library's errors name 'format' and the caller.
string.format = host.format(raw_format, safe_tostring)

math.randomseed(seed)
local raw_randomseed = math.randomseed
function math.randomseed(...)
  if select("#", ...) == 0 then
    error("math.randomseed() without a seed reads the clock; pass a number (the run's seed is used by default)", 2)
  end
  return library.randomseed(...)
end

-- Expectations -----------------------------------------------------------------
function assert(v, message, ...)
  if v then return v, message, ... end
  if rawtype(message) == "table" then error(message, 2) end
  local text
  if message == nil then
    -- Show the line that failed, as pytest shows the failing expression.
    local info = getinfo(2, "Sl")
    local line = info and info.currentline and host_source_line(info.source, info.currentline)
    text = line and ("assertion failed: " .. line) or "assertion failed!"
  else
    text = tostring_at(message, 3)
  end
  error(raw_setmetatable({ message = where(2) .. text, expectation = true }, ErrorMT), 0)
end

-- The sandbox ----------------------------------------------------------------------
local function blocked_message(name, why)
  return name .. " is blocked in lifesim's sandbox (" .. why .. "); lifesim run --unsafe allows it"
end

local function blocked(name, why)
  return function() error(blocked_message(name, why), 2) end
end

-- Level 2 of a metamethod is the script's line that indexed the library.
local function blocked_library(name, why)
  return raw_setmetatable({}, {
    __index = function(_, k) error(blocked_message(name .. "." .. raw_tostring(k), why), 2) end,
    __newindex = function(_, k) error(blocked_message(name .. "." .. raw_tostring(k), why), 2) end,
    __metatable = false,
  })
end

local modules = { lifesim = lifesim }
local function sandbox_require(name)
  if rawtype(name) ~= "string" then
    error("bad argument #1 to 'require' (string expected, got " .. rawtype(name) .. ")", 2)
  end
  if modules[name] ~= nil then return modules[name] end
  if name == "io" or name == "os" or name == "debug" or name == "package" then
    error("require '" .. name .. "' is blocked in lifesim's sandbox (no access to the outside world); " ..
          "lifesim run --unsafe allows it", 2)
  end
  local source, chunkname = host_read_module(name)
  if not source then error(chunkname, 2) end
  -- A UTF-8 byte-order mark, which Lua's own file loader skips (no newline: lines keep their numbers).
  if source:sub(1, 3) == "\239\187\191" then source = source:sub(4) end
  local chunk, err = raw_load(source, chunkname, "t", _ENV)
  if not chunk and err:sub(1, 30) == "attempt to load a binary chunk" then
    err = chunkname:sub(2) .. ": " .. err .. "; modules load from Lua source only"  -- Lua names no file
  end
  if not chunk then error(err, 2) end
  local result = chunk(name)
  if result == nil then result = true end
  modules[name] = result
  return result
end

if not unsafe then
  local wall = "scripts see no wall clock; use dev.now"
  local world = "no access to the outside world"
  os = {
    time = blocked("os.time", wall),
    clock = blocked("os.clock", wall),
    date = blocked("os.date", wall),
    difftime = os.difftime,
    getenv = blocked("os.getenv", world),
    execute = blocked("os.execute", world),
    remove = blocked("os.remove", world),
    rename = blocked("os.rename", world),
    exit = blocked("os.exit", world),
    tmpname = blocked("os.tmpname", world),
    setlocale = blocked("os.setlocale", world),
  }
  io = blocked_library("io", world)
  debug = blocked_library("debug", "it can remove lifesim's limits")
  package = blocked_library("package", "modules load only through require")
  dofile = blocked("dofile", world .. "; use require for modules beside the script")
  loadfile = blocked("loadfile", world .. "; use require for modules beside the script")
  string.dump = blocked("string.dump", "bytecode can crash the interpreter")
  require = sandbox_require

  function load(chunk, chunkname, mode, env)
    if mode ~= nil and mode ~= "t" then
      error("load: binary chunks are blocked in lifesim's sandbox (bytecode can crash the interpreter); " ..
            "lifesim run --unsafe allows them", 2)
    end
    if select("#", chunk, chunkname, mode, env) < 4 then env = _ENV end
    local f, err = library.load(chunk, chunkname, "t", env)
    if f == nil and rawtype(err) == "string" and err:sub(1, 30) == "attempt to load a binary chunk" then
      -- Lua's message names no chunk and no line: name the line that called load.
      err = where(2) .. err .. "; binary chunks are blocked in lifesim's sandbox (bytecode can crash " ..
            "the interpreter); lifesim run --unsafe allows them"
    end
    return f, err
  end

  local raw_collect = collectgarbage
  local allowed_gc = { collect = true, count = true, step = true, isrunning = true }
  function collectgarbage(opt, ...)
    opt = opt or "collect"
    if not allowed_gc[opt] then
      error("collectgarbage('" .. raw_tostring(opt) .. "') is blocked in lifesim's sandbox " ..
            "(only collect, count, step and isrunning are allowed); lifesim run --unsafe allows it", 2)
    end
    return library.collectgarbage(opt, ...)
  end

  -- Weak tables. A metatable with __mode makes a table weak, and what a weak
  -- table holds then depends on when the collector ran, which nothing in a
  -- run decides. setmetatable refuses such a metatable; but the collector
  -- reads __mode whenever it visits the table, so a metatable could gain it
  -- later. Two guards: a metatable that setmetatable lets through is sealed
  -- (its own metatable becomes `sealed`, whose __newindex refuses the key: an
  -- assignment to a key a table lacks always reaches __newindex; rawset
  -- refuses it too), so that the usual ways fail with an error that says so;
  -- and, for what the seal cannot see (a metatable with a metatable of its
  -- own takes new keys through that one's __newindex), the collector of a
  -- sandboxed state does not read "__mode" at all (ls_hide_weak_mode in
  -- hardening.c): no script table is ever weak. getmetatable shows a sealed
  -- table as having no metatable, as before.
  local weak_why = "they make results depend on when the collector runs"
  local function weak_message(what)
    return what .. ": weak tables (__mode) are blocked in lifesim's sandbox (" .. weak_why ..
           "); lifesim run --unsafe allows them"
  end
  local seal_mark = {}
  local sealed = {
    __newindex = function(m, k, v)
      if k == "__mode" and v ~= nil then error(weak_message("a metatable in use cannot gain __mode"), 2) end
      rawset(m, k, v)
    end,
    __metatable = seal_mark,
  }
  local function is_sealed(t) return debug_getmetatable(t) == sealed end

  function getmetatable(...)
    if select("#", ...) == 0 then error("bad argument #1 to 'getmetatable' (value expected)", 2) end
    local m = raw_getmetatable((...))
    if m == seal_mark or m == view_mark then return nil end
    return m
  end

  _G.rawset = function(t, k, v)
    if k == "__mode" and v ~= nil and rawtype(t) == "table" and is_sealed(t) then
      error(weak_message("rawset: a metatable in use cannot gain __mode"), 2)
    end
    if rawtype(t) == "table" then
      local mt = debug_getmetatable(t)
      if mt ~= nil and rawget(mt, "__metatable") == view_mark and k ~= nil and k == k then view_own(t) end
    end
    return library.rawset(t, k, v)
  end

  function setmetatable(t, mt)
    if rawtype(t) ~= "table" then
      error("bad argument #1 to 'setmetatable' (table expected, got " .. type_name(t) .. ")", 2)
    end
    if mt ~= nil and rawtype(mt) ~= "table" then
      error("bad argument #2 to 'setmetatable' (nil or table expected)", 2)
    end
    if mt ~= nil then
      if rawget(mt, "__gc") ~= nil then
        error("setmetatable: __gc finalizers are blocked in lifesim's sandbox (they run outside the " ..
              "instruction limit); lifesim run --unsafe allows them", 2)
      end
      if rawget(mt, "__mode") ~= nil then error(weak_message("setmetatable"), 2) end
    end
    local old = debug_getmetatable(t)
    if old ~= nil and rawget(old, "__metatable") == view_mark then
      view_own(t)
      old = nil
    end
    if old == sealed then
      if mt == nil then return t end  -- it shows no metatable already
    elseif old ~= nil and rawget(old, "__metatable") ~= nil then
      error("cannot change a protected metatable", 2)
    end
    if mt ~= nil and not rawequal(mt, t) and debug_getmetatable(mt) == nil then debug_setmetatable(mt, sealed) end
    debug_setmetatable(t, mt)
    return t
  end
else
  require = function(name)
    if modules[name] ~= nil then return modules[name] end
    return sandbox_require(name)
  end

  -- With --unsafe the debug library is the script's, but lifesim's own state
  -- is not: the upvalues of lifesim's functions (a C function's upvalue says
  -- which host function it runs, or holds the library function it wraps),
  -- the locals of their frames (values the host pushed and reads back), the
  -- registry and the user values of lifesim's objects. The host reads these
  -- as the types it left there; a script that changed one could crash it.
  local d, co_running, pack, unpack = debug, coroutine.running, table.pack, table.unpack
  local d_getupvalue, d_setupvalue, d_upvalueid, d_upvaluejoin =
    d.getupvalue, d.setupvalue, d.upvalueid, d.upvaluejoin
  local d_getlocal, d_setlocal, d_getuservalue, d_setuservalue =
    d.getlocal, d.setlocal, d.getuservalue, d.setuservalue
  local function private_refused(name, what, level)
    error("debug." .. name .. ": " .. what .. " are lifesim's own state, which scripts cannot reach " ..
          "(not even with --unsafe)", level or 3)
  end
  -- lifesim's functions: the prelude's and every C function.
  local function private_function(f)
    if rawtype(f) ~= "function" then return false end
    local info = getinfo(f, "S")
    return info.what == "C" or info.source == "=lifesim"
  end
  local function check_function(name, f)
    if private_function(f) then private_refused(name, "the upvalues of lifesim's functions and of C functions", 4) end
  end
  function d.getupvalue(f, n)
    check_function("getupvalue", f)
    return d_getupvalue(f, n)
  end
  function d.setupvalue(f, n, v)
    check_function("setupvalue", f)
    return d_setupvalue(f, n, v)
  end
  function d.upvalueid(f, n)
    check_function("upvalueid", f)
    return d_upvalueid(f, n)
  end
  function d.upvaluejoin(f1, n1, f2, n2)
    check_function("upvaluejoin", f1)
    check_function("upvaluejoin", f2)
    return d_upvaluejoin(f1, n1, f2, n2)
  end
  -- getlocal/setlocal([thread,] f, n, ...): f is a function (its parameters'
  -- names, no frame) or a level. A level of this thread counts from the
  -- script's frame, one below the wrapper's: the wrapper passes level + 1
  -- and makes no tail call, which would drop its frame and shift the count.
  local function frame_call(name, real, ...)
    local args, n = { ... }, select("#", ...)
    local co = args[1]
    if rawtype(co) == "thread" and rawequal(co, (co_running())) then
      -- This thread's own frames: counted as without the thread.
      for i = 1, n - 1 do args[i] = args[i + 1] end
      args[n], n, co = nil, n - 1, nil
    end
    local at = rawtype(co) == "thread" and 2 or 1
    local f = args[at]
    if rawtype(f) ~= "function" then
      local level = rawtype(f) == "number" and math_tointeger(f) or nil
      if level == nil then
        error("bad argument #" .. at .. " to '" .. name .. "' (a level, an integer, expected; got " ..
              type_name(f) .. ")", 3)
      end
      local info
      if at == 2 then
        info = getinfo(co, level, "S")
      elseif level == 0 then
        info = { what = "C" }  -- getlocal itself
      elseif level > 0 then
        level = level + 2  -- below frame_call and the wrapper: the script's frame is level 1
        info = getinfo(level, "S")
      end
      if info and (info.what == "C" or info.source == "=lifesim") then
        private_refused(name, "the locals of lifesim's functions and of C functions", 4)
      end
      args[at] = level
    end
    local r = pack(real(unpack(args, 1, n)))  -- (not a tail call)
    return unpack(r, 1, r.n)
  end
  function d.getlocal(...)
    local r = pack(frame_call("getlocal", d_getlocal, ...))
    return unpack(r, 1, r.n)
  end
  function d.setlocal(...)
    local r = pack(frame_call("setlocal", d_setlocal, ...))
    return unpack(r, 1, r.n)
  end
  function d.getregistry() private_refused("getregistry", "the registry's contents") end
  function d.getuservalue(u, ...)
    if rawtype(u) == "userdata" then private_refused("getuservalue", "the user values of lifesim's objects") end
    return d_getuservalue(u, ...)
  end
  function d.setuservalue(u, ...)
    if rawtype(u) == "userdata" then private_refused("setuservalue", "the user values of lifesim's objects") end
    return d_setuservalue(u, ...)
  end
end

_G.lifesim = lifesim
loaded.lifesim = lifesim

-- Before each run of a batch: the run starts as if the state were new, so its
-- result does not depend on which runs the worker did before.
local function reset_run(run_seed)
  raw_randomseed(run_seed)
  ids = raw_setmetatable({}, { __mode = "k", [weak_mode] = "k" })
  next_id = 0
end

return ErrorMT, safe_tostring, reset_run
"""#
