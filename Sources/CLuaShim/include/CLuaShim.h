// CLuaShim: the C side of lifesim's Lua bridge.
//
// Swift must never be unwound by a Lua error. Every function
// that Lua can call is a C trampoline here; it calls Swift through one dispatch
// pointer, and only after Swift has returned does it raise an error, if Swift asked
// for one (shim.c). Behind this one header: the allocator with its memory cap (alloc.c,
// arena.c), the count hook that enforces instruction budgets and the
// message handler that captures tracebacks (shim.c), snapshots (snapshot.c)
// and write tracking (track.c) for `lifesim explore`, `dev.stats` (stats.c),
// string.format (format.c), the hardened library functions (hardening.c,
// patterns.c), and inline wrappers for the Lua macros Swift cannot import.
#ifndef LIFESIM_CLUASHIM_H
#define LIFESIM_CLUASHIM_H

#include <stddef.h>
#include <stdint.h>
#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>

// MARK: - Results a Swift host function returns to its trampoline

/// n >= 0: the function returns the n values on top of the stack.
/// LS_RAISE: raise the value on top of the stack as it is.
#define LS_RAISE (-1)
/// LS_ARGERROR: the stack top holds a message and below it an argument number;
/// the trampoline raises "bad argument #n to 'name' (message)" as luaL_argerror
/// does (adjusting for self in a method call), and names the function by its
/// lifesim name when Lua cannot tell it (a call through pcall, say).
#define LS_ARGERROR (-2)
/// LS_RAISE_WHERE: the stack top holds a message string; the trampoline prefixes the
/// caller's `file:line:` (luaL_where) and raises it.
#define LS_RAISE_WHERE (-3)

/// The one entry point from C into Swift: function_id selects the host function.
typedef int (*ls_dispatch_fn)(lua_State *L, int function_id);
void ls_set_dispatch(ls_dispatch_fn fn);

// MARK: - States, limits and hooks

/// Per-state bookkeeping, reached through LUA_EXTRASPACE.
typedef struct ls_arena ls_arena;

typedef struct ls_state {
  size_t used;                 // bytes currently allocated by this state
  size_t limit;                // memory cap in bytes; 0 means none
  size_t refused;              // size of the last allocation refused outright, or 0
  int deny;                    // 1 while Lua code runs: the allocator may refuse growth
  long long call_remaining;    // instructions left for the innermost protected call
  long long run_remaining;     // instructions left for the whole run
  long long handler_budget;    // budget given to each nested protected call
  int tripped;                 // 0, or which limit tripped (sticky until reset)
  int depth;                   // nesting of ls_pcall
  int kill_depth;              // with LS_TRIP_KILL: the depth of the killed app's handler
  lua_State *running;          // the thread of the innermost ls_pcall, or NULL
  void *host;                  // the Swift runtime (unretained)
  const void *metatables[32];  // each kind's metatable (the registry keeps it), to check userdata by pointer
  ls_arena *arena;             // the mapping every allocation comes from, or NULL (malloc)
  unsigned long long activity; // counts allocator calls and protected calls (never restored)
  int stats_field;             // the host function id of `dev.stats` + 1 (ls_set_stats_field), or 0
  int stats_kind;              // and the kind of object it is a field of
  const void *stats_key;       // and its name, the interned string (lua_topointer)
  int track;                   // the write-tracking slot + 1 (ls_snapshot_track), or 0
  char *track_base;            // the tracked base's arena bytes (a copy), or NULL
  size_t track_top;            // how many
  size_t track_used;           // and the base's header: the allocator's count
  long long track_run_remaining;  // and the run's instruction budget
  unsigned long track_restores;   // ls_snapshot_restore_tracked calls, to pace the re-arming
  unsigned char *track_differs;   // while rebasing: the pages where the new base differs from the tracked one
  size_t spilled;              // blocks of an arena state that live outside it (malloc): the arena was full
  size_t system_refused;       // size of the last allocation the system refused under the cap (ulimit -v), or 0
} ls_state;

#define LS_TRIP_NONE 0
#define LS_TRIP_CALL 1
#define LS_TRIP_RUN 2
#define LS_TRIP_INTERRUPT 3
#define LS_TRIP_MEMORY 4
/* The process whose handler runs was killed: nothing more of the handler runs,
   even under a pcall, until its protected call returns. */
#define LS_TRIP_KILL 5

/// Creates a state with lifesim's allocator, panic handler and count hook.
/// Returns NULL when out of memory.
lua_State *ls_newstate(size_t memory_limit, void *host);
void ls_close(lua_State *L);
/// Like ls_newstate, but every allocation comes from one mapping of
/// `capacity` bytes (reserved, not committed), so that the whole state can
/// be saved and restored (`lifesim explore`).
lua_State *ls_newstate_arena(size_t capacity, void *host);
/// How many allocator calls and protected calls the state has seen. Between
/// two reads that give the same count no Lua code ran and nothing was
/// allocated or freed: a caller that only read raw left the state's bytes as
/// they were (`lifesim explore` skips a restore after a refused step).
unsigned long long ls_activity(lua_State *L);
/// The bytes ls_snapshot_save writes now; 0 for a state without an arena.
size_t ls_snapshot_size(lua_State *L);
/// Copies the whole state into `dst` (ls_snapshot_size bytes). Only between
/// calls: never while Lua code runs.
void ls_snapshot_save(lua_State *L, void *dst);
/// Puts back a state saved from this same state: every object, every
/// reference and the allocator as they were. Only between calls.
void ls_snapshot_restore(lua_State *L, const void *src);
/// A smaller record of the state: what differs from `base`, a snapshot of
/// this same state saved earlier (in 64-byte blocks). Writes at most
/// ls_snapshot_delta_bound bytes to `dst` and returns how many it wrote.
size_t ls_snapshot_delta_bound(lua_State *L);
size_t ls_snapshot_delta(lua_State *L, const void *base, void *dst);
/// Puts back a state saved by ls_snapshot_delta against `base`.
void ls_snapshot_restore_delta(lua_State *L, const void *base, const void *delta);
/// Write tracking: `base` is a snapshot of this state taken just now. From
/// here on the state's whole pages below the base's top are write-protected,
/// and the first write to one makes it writable again and marks it written
/// (a SIGSEGV handler that passes every other fault on). Then
/// ls_snapshot_delta_tracked saves a delta against that base comparing only
/// the written pages (the others still hold the base's bytes), and
/// ls_snapshot_restore_tracked copies only them back. Returns 0 when the
/// state cannot be tracked (no arena, no free slot, a base over 64 MB, or
/// mprotect refused); then nothing changed. The fault handler (SIGSEGV, and
/// SIGBUS, which Darwin raises for a protected page) is installed by the
/// first call, never before: a program that never asks for tracking keeps
/// its own handlers as they are. Pages are the kernel's (sysconf). The kernel does not report a
/// protected page it was asked to write into (read(2) into a Lua buffer
/// fails with EFAULT instead), so a state whose scripts may do I/O must not
/// be tracked. Every other function here works on a tracked state as before.
int ls_snapshot_track(lua_State *L, const void *base);
/// ls_snapshot_delta against the tracked base (a tracked state only).
size_t ls_snapshot_delta_tracked(lua_State *L, void *dst);
/// Puts back the tracked base, then `delta` (saved against it) unless NULL
/// (a tracked state only). Every so many restores, the written pages that
/// hold the base's bytes again are protected again, so that a page written
/// once or rarely is not copied back at every restore.
void ls_snapshot_restore_tracked(lua_State *L, const void *delta);
/// Rebasing: tracking goes on from another base, `base`, a snapshot of this
/// state (tracked) saved whole. ls_snapshot_rebase_begin notes the pages
/// where `base` differs from the tracked base; then ls_snapshot_delta_rebased
/// saves the state now (restored from a delta against the tracked base) as a
/// delta against `base`, comparing only the pages that can differ from it;
/// then, with the state back at `base`'s bytes, ls_snapshot_rebase_finish
/// makes `base` the tracked base (the deltas against the old one no longer
/// restore). Returns 0, and changes nothing, when the state is not tracked.
/// When the kernel refuses to make a written page writable (a process has
/// only so many mapping pieces, vm.max_map_count), the whole state is made
/// writable and every page counts as written (saving and restoring copy them
/// all) until a rebase protects them again; ls_snapshot_tracks_every_page
/// says whether that happened. ls_snapshot_track_refuse makes the next
/// `faults` first writes of this state take that path, for tests.
void ls_snapshot_track_refuse(lua_State *L, int faults);
int ls_snapshot_tracks_every_page(lua_State *L);
/// For tests: takes every written page but the first for one nobody wrote,
/// without protecting it, as a write the tracking missed would: the next
/// tracked restore leaves those pages as they are, a state of another path.
void ls_snapshot_track_forget(lua_State *L);
int ls_snapshot_rebase_begin(lua_State *L, const void *base);
size_t ls_snapshot_delta_rebased(lua_State *L, const void *base, void *dst);
int ls_snapshot_rebase_finish(lua_State *L, const void *base);
ls_state *ls_getstate(lua_State *L);
void *ls_host(lua_State *L);

/// Work done inside a C function that the count hook cannot see (a pattern
/// match's steps, the slots table.move copies): charged as `n` instructions
/// against the handler's and the run's budgets. When one runs out (or a limit
/// tripped already: memory, Ctrl-C) it raises that limit's error at the
/// calling line, as the hook would, and the limit stays tripped. Only from a
/// C function that Lua called.
void ls_charge(lua_State *L, long long n);
/// Replaces the library functions that can run without end or overflow the
/// C stack inside C (hardening.c): string.find, match, gmatch and gsub count
/// their matching steps as instructions (ls_charge); string.rep of nothing
/// returns at once; table.move charges its slots before it moves them;
/// coroutine.close bounds how deeply closes nest ("C stack overflow"). The
/// results are those of Lua 5.4's own functions.
void ls_harden_libs(lua_State *L);
/// Makes the table at `idx` weak (`mode` "k", "v" or "kv") for lifesim's own
/// use: its metatable (made if it has none) holds the mode under "__mode" and
/// under the private name that ls_hide_weak_mode gives the collector.
void ls_make_weak(lua_State *L, int idx, const char *mode);
/// Pushes that private name (a string), for the prelude's own weak tables.
void ls_push_weak_mode_name(lua_State *L);
/// Makes the collector of this state look for the mode of weak tables under
/// the private name instead of "__mode", so that no script table is ever
/// weak, whatever its metatable gains later (hardening.c). Returns 0, having
/// changed nothing, where Lua's global state is not laid out as expected.
int ls_hide_weak_mode(lua_State *L);
/// Sets the instruction budgets; a negative number means unlimited.
void ls_set_budgets(lua_State *L, long long per_run, long long per_call);
/// Resets the sticky limit flag and refills the run budget.
void ls_reset_budget(lua_State *L, long long per_run);
/// Asks the running Lua code to stop at the next hook (signal-safe).
void ls_interrupt(lua_State *L);
/* The running handler's process was killed: every instruction of it raises
   until the protected call of the handler at this depth returns. */
void ls_trip_kill(lua_State *L);
/// Installs the REPL's SIGINT handler. With a state, Ctrl-C interrupts it (and a
/// second Ctrl-C ends the process); with NULL, Ctrl-C is only recorded.
void ls_sigint_target(lua_State *L);
/// Whether SIGINT arrived since the last call; clears the flag.
int ls_sigint_take(void);

// MARK: - Protected execution

/// lua_pcall with lifesim's message handler. On error the error value is left
/// on the stack and the traceback is stored; ls_push_traceback pushes it.
/// `nested` gives the call the per-handler budget instead of the caller's.
int ls_pcall(lua_State *L, int nargs, int nresults, int nested);
/// Pushes the value store of device `id` (user value 1 of its userdata, and
/// held weakly by the registry table `stores` too), or nil when the device is
/// gone; returns whether it is there. Raw reads only.
int ls_push_store(lua_State *L, lua_Integer stores, lua_Integer id);

/// What a handler returned, as ls_call_handler reports it.
enum { LS_RESULT_NONE = 0, LS_RESULT_FALSE = 1, LS_RESULT_TRUE = 2 };
/// A handler call in one step: `store[fn](store[arg])` (no argument when `arg`
/// is 0) on the store of device `id`, as ls_pcall(L, 1, 1, 1) would make it,
/// with its boolean result in `*result` (`result` NULL: no result is read,
/// and Lua is asked for none). On success the stack is as it was;
/// on failure the error value is left on top (the caller pops it). A device
/// that is gone runs nothing and counts as success.
int ls_call_handler(lua_State *L, lua_Integer stores, lua_Integer id, lua_Integer fn, lua_Integer arg,
                    int *result);

/// One jetsam candidate for the `choose_victim` policy; the app object, its
/// bundle id and its state's name are slots of the device's value store.
typedef struct {
  lua_Integer app;
  lua_Integer bundle;
  lua_Integer state;
  lua_Integer band;
  lua_Integer unsaved;
  double footprint_mb;
  double last_used;
} ls_candidate;

/// Pushes the candidates as a new array of tables { app, bundle, band,
/// footprint_mb, last_used, state, unsaved }, in one C call (raw sets on
/// tables it made itself: no metamethod can run).
void ls_push_candidates(lua_State *L, int store, const ls_candidate *c, int n);
/// Pushes a new cache for `dev.stats` (a userdata; one per device, user value
/// 2 of the device's userdata), which ls_push_counters keeps the last table
/// it built in. The table has `ncounters` integer fields, under one more key
/// a table of the counters up to the last `ntasks`, and under one more a
/// table of those (none when `ntasks` is 0): the keys are the strings at 1,
/// 2, … of the table in registry slot `keys`.
void ls_new_stats_cache(lua_State *L, lua_Integer keys, int ncounters, int ntasks);
/// Replaces the cache at the top of the stack (from ls_new_stats_cache) with
/// `dev.stats` for the `n` counters `v`, in the order of the cache's keys. It
/// is the view the cache holds when that one shows the same values and
/// nothing has written to it since; otherwise a new one, made in one C call
/// by raw sets (no metamethod can run), which the cache then keeps (`dev.stats`,
/// read by invariants at every step of a search). A view is an empty table
/// whose locked metatable's __index is the table of the counters (stats.c);
/// the prelude's first write into it makes it a plain copy.
void ls_push_counters(lua_State *L, const lua_Integer *v, int n);
/// Pushes `host.stats_views(mark, newindex, reported)`, by which the prelude
/// hands over what a view's metatable holds: the mark under __metatable (its
/// getmetatable shows none) and the __newindex that turns a view into a
/// plain table; and says whether it calls the function returned (with the
/// cache at the view's metatable's [1]) before every write to a view, so that
/// a read need not look at the view. Until it is called, every `dev.stats`
/// is a new plain table.
void ls_push_stats_views(lua_State *L);
/// If the value at `idx` is a view (`dev.stats`), replaces it with the table
/// it shows and returns 1; else 0. For the host's raw readers of a script's
/// tables. Raw reads only.
int ls_unview(lua_State *L, int idx);
/// Writes the counters of the device whose handle (its userdata's bytes) it
/// is given into `out` (at most `capacity`), in the order of ls_new_stats_cache's
/// keys, and returns how many; -1 when it cannot (the device is gone). It runs
/// inside the `__index` trampoline and must neither call Lua nor fail otherwise.
typedef int (*ls_counters_fn)(void *host, const void *handle, lua_Integer *out, int capacity);
/// Installs the host's counters function (once, like ls_set_dispatch).
void ls_set_counters(ls_counters_fn fn);
/// Reads field `field_id`, named `name`, of objects of `kind` (`dev.stats`)
/// in C: the index trampoline knows the key by its address (no lookup), asks
/// the counters function for the counters and hands them to ls_push_counters
/// with the cache in user value 2, without dispatching to the host. When the
/// counters function returns -1, the field's host function runs as for any
/// other field. The kind's metatable must be registered already (its fields
/// table keeps the name alive), and the name must not be a method's.
void ls_set_stats_field(lua_State *L, int field_id, int kind, const char *name);
/// Pushes the traceback of the last error caught by ls_pcall (or nil).
void ls_push_traceback(lua_State *L);
/// Pushes the function the prelude makes `string.format` with:
/// `host.format(library_format, safe_tostring)` returns a C closure that
/// refuses %p, passes table, function, thread and userdata arguments through
/// `safe_tostring` (or their own `__tostring`), and runs the library's
/// format in the closure's own frame, so that its errors name the caller.
void ls_push_format_maker(lua_State *L);
/// Opens the standard libraries, protected. Returns a Lua status code.
int ls_openlibs(lua_State *L);
/// One step of a set-up plan (ls_run_setup): `a`, `b` and the string at
/// `soff` (`slen` bytes, NUL-terminated in the plan's strings) are its operands.
typedef struct {
  int op;
  long long a;
  long long b;
  int soff;
  int slen;
} ls_setup_op;
enum {
  LS_SETUP_TABLE,           /* push a new table (a array slots, b record slots) */
  LS_SETUP_STRING,          /* push the string */
  LS_SETUP_INTEGER,         /* push a */
  LS_SETUP_BOOLEAN,         /* push a != 0 */
  LS_SETUP_SETFIELD,        /* t[string] = v (raw), t below the value v, which is popped */
  LS_SETUP_SETI,            /* t[a] = v (raw), likewise */
  LS_SETUP_WEAK,            /* ls_make_weak(top, string) */
  LS_SETUP_REF,             /* refs[a] = luaL_ref(registry), popping the top */
  LS_SETUP_FUNCTION,        /* ls_push_function(a, string) */
  LS_SETUP_INDEX,           /* ls_push_index(a) */
  LS_SETUP_FINALIZER,       /* ls_push_finalizer(a) */
  LS_SETUP_METATABLE,       /* ls_register_metatable(a) */
  LS_SETUP_STATS_FIELD,     /* ls_set_stats_field(a, b, string) */
  LS_SETUP_FORMAT_MAKER,    /* ls_push_format_maker */
  LS_SETUP_WEAK_MODE_NAME,  /* ls_push_weak_mode_name */
  LS_SETUP_HIDE_WEAK_MODE,  /* ls_hide_weak_mode */
  LS_SETUP_STATS_VIEWS,     /* ls_push_stats_views */
};
/// Runs a set-up plan under lua_pcall on the `nargs` values on top, which it
/// may pop (`ref`): what is left of them and what it pushes stay on the stack.
/// Returns a Lua status (LUA_ERRMEM when an allocation was refused); on
/// failure the `nargs` values are gone.
int ls_run_setup(lua_State *L, int nargs, const ls_setup_op *ops, int count, const char *strings, int *refs);
/// Loads a text chunk (never bytecode). Leaves the function or an error message.
int ls_loadbuffer(lua_State *L, const char *buf, size_t len, const char *name);

// MARK: - Functions and objects

/// Pushes a C closure that dispatches to host function `function_id`; `name`
/// is how argument errors name it when Lua's debug information cannot.
void ls_push_function(lua_State *L, int function_id, const char *name);
/// Pops a fields table (name -> host function id) and, below it, a methods table
/// (name -> function), and pushes an __index closure: a method if there is one,
/// else the field's host function, else host function `fallback_id`. Only raw
/// reads are made, so no script code runs to find a member.
void ls_push_index(lua_State *L, int fallback_id);
/// Pushes a closure for __gc that calls host function `function_id` and never raises.
void ls_push_finalizer(lua_State *L, int function_id);
/// Stores the table on top as the metatable of kind `kind` (0..31). Pops it.
void ls_register_metatable(lua_State *L, int kind);
/// Pushes the metatable of kind `kind`.
void ls_push_metatable(lua_State *L, int kind);
/// Returns the userdata at idx if its metatable is that of `kind`, else NULL.
void *ls_touserdata_kind(lua_State *L, int idx, int kind);
/// Returns the kind of the lifesim userdata at idx, or -1.
int ls_userdata_kind(lua_State *L, int idx);

// MARK: - Benchmarks

/// The floor a handler call is measured against (`lifesim bench`): calls the
/// function on top of the stack `n` times with lua_pcall, from C, and leaves
/// the stack as it was. Returns the number of calls that failed.
long long ls_bench_pcall_loop(lua_State *L, long long n);

// MARK: - Macros Swift cannot import

static inline int ls_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline int ls_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline void ls_pop(lua_State *L, int n) { lua_settop(L, -(n)-1); }
static inline void ls_newtable(lua_State *L) { lua_createtable(L, 0, 0); }
static inline int ls_isnoneornil(lua_State *L, int i) { return lua_type(L, i) <= 0; }
static inline void ls_insert(lua_State *L, int i) { lua_rotate(L, i, 1); }
static inline void ls_remove(lua_State *L, int i) { lua_rotate(L, i, -1); lua_settop(L, -2); }
static inline lua_Number ls_tonumber(lua_State *L, int i, int *isnum) { return lua_tonumberx(L, i, isnum); }
static inline lua_Integer ls_tointeger(lua_State *L, int i, int *isnum) { return lua_tointegerx(L, i, isnum); }
static inline void ls_replace(lua_State *L, int i) { lua_copy(L, -1, i); lua_settop(L, -2); }
/// lua_gc is variadic, which Swift cannot call: the options that take one integer.
static inline int ls_gc(lua_State *L, int what, int arg) { return lua_gc(L, what, arg); }
static inline void ls_pushglobaltable(lua_State *L) { lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_GLOBALS); }

#endif
