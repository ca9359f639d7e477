// The C side of lifesim's Lua bridge that Lua calls into: the trampolines
// through which every host function is reached and which raise its errors
// only after Swift has returned, the count hook and the limits it enforces,
// protected calls with their message handler and tracebacks, the handler
// call of the hot path, userdata kinds, and Ctrl-C. See CLuaShim.h for the
// contract; the allocator, snapshots, write tracking, dev.stats and
// string.format each have their own file.
#include "shim_internal.h"
#include <string.h>
#include <signal.h>

static ls_dispatch_fn dispatch;
static char traceback_key;          // registry key of the last traceback
static char metatable_keys[32];     // registry keys of the userdata metatables


void ls_set_dispatch(ls_dispatch_fn fn) { dispatch = fn; }

ls_state *ls_getstate(lua_State *L) { return *(ls_state **)lua_getextraspace(L); }
void *ls_host(lua_State *L) { return ls_getstate(L)->host; }

/* Pushes the memory-cap message, prefixed with the location at `level`. */
static void ls_push_memory_error(lua_State *L, ls_state *S, int level) {
  luaL_where(L, level);
  lua_pushfstring(L, "not enough memory: the script exceeded its memory cap of %d MB (--max-memory)",
                  (int)(S->limit >> 20));
  lua_concat(L, 2);
}

/* {====================================================================
** Count hook. It never calls Swift. Once tripped it re-arms itself to
** fire on every instruction, so a script cannot pcall its way past a limit.
** ===================================================================== */
static void ls_raise_limit(lua_State *L, ls_state *S, int level);

void ls_hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  ls_state *S = ls_getstate(L);
  if (S->tripped == LS_TRIP_NONE) {
    if (S->call_remaining >= 0) {
      S->call_remaining -= HOOK_STEP;
      if (S->call_remaining < 0) S->tripped = LS_TRIP_CALL;
    }
    if (S->run_remaining >= 0) {
      S->run_remaining -= HOOK_STEP;
      if (S->run_remaining < 0 && S->tripped == LS_TRIP_NONE) S->tripped = LS_TRIP_RUN;
    }
    if (S->tripped == LS_TRIP_NONE) return;
  }
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, 1);  // sticky from now on
  ls_raise_limit(L, S, 0);  /* in a hook, level 0 is the running function */
}

/* Raises the error of the limit that tripped, located at `level`. */
static void ls_raise_limit(lua_State *L, ls_state *S, int level) {
  if (S->tripped == LS_TRIP_MEMORY) {
    ls_push_memory_error(L, S, level);
    lua_error(L);
  }
  const char *what;
  switch (S->tripped) {
    case LS_TRIP_CALL:
      what = "instruction limit reached in one handler call (--max-handler-instructions)";
      break;
    case LS_TRIP_RUN:
      what = "instruction limit reached for the run (--max-instructions)";
      break;
    case LS_TRIP_KILL: what = "the app's process was killed (SIGKILL): nothing more of this handler runs"; break;
    default:
      what = "interrupted (Ctrl-C)";
  }
  luaL_where(L, level);
  lua_pushstring(L, what);
  lua_concat(L, 2);
  lua_error(L);
}

void ls_charge(lua_State *L, long long n) {
  ls_state *S = ls_getstate(L);
  if (S->tripped == LS_TRIP_NONE) {
    if (S->call_remaining >= 0) {
      S->call_remaining -= n;
      if (S->call_remaining < 0) S->tripped = LS_TRIP_CALL;
    }
    if (S->run_remaining >= 0) {
      S->run_remaining -= n;
      if (S->run_remaining < 0 && S->tripped == LS_TRIP_NONE) S->tripped = LS_TRIP_RUN;
    }
    if (S->tripped == LS_TRIP_NONE) return;
  }
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, 1);  /* sticky, as in the hook */
  ls_raise_limit(L, S, 1);  /* level 1: the caller of the C function */
}


void ls_set_budgets(lua_State *L, long long per_run, long long per_call) {
  ls_state *S = ls_getstate(L);
  S->run_remaining = per_run;
  S->handler_budget = per_call;
}

void ls_reset_budget(lua_State *L, long long per_run) {
  ls_state *S = ls_getstate(L);
  S->run_remaining = per_run;
  S->call_remaining = -1;
  S->tripped = LS_TRIP_NONE;
  S->refused = 0;
  S->system_refused = 0;
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, HOOK_STEP);
}

void ls_trip_kill(lua_State *L) {
  ls_state *S = ls_getstate(L);
  if (S->tripped != LS_TRIP_NONE) return;
  S->tripped = LS_TRIP_KILL;
  S->kill_depth = S->depth;
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, 1);  /* and the handler's own thread, from a coroutine: */
  if (S->running != NULL && S->running != L) lua_sethook(S->running, ls_hook, LUA_MASKCOUNT, 1);
}

void ls_interrupt(lua_State *L) {
  ls_state *S = ls_getstate(L);
  S->tripped = LS_TRIP_INTERRUPT;
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, 1);  // lua.c's lstop idea: signal-safe
}

/* {====================================================================
** Protected calls and tracebacks
** ===================================================================== */
/* An error that Lua located in the prelude (chunk "=lifesim": the wrappers of
** table.sort, print, require...) was caused by what the script handed them:
** the message names the script's innermost line instead, "file:line:" of the
** nearest Lua function on the stack that is not the prelude's. */
static void ls_blame_script(lua_State *L) {
  static const char prefix[] = "lifesim:";
  size_t len;
  const char *msg = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &len) : NULL;
  if (msg == NULL || len < sizeof prefix || memcmp(msg, prefix, sizeof prefix - 1) != 0) return;
  size_t i = sizeof prefix - 1;
  while (i < len && msg[i] >= '0' && msg[i] <= '9') i++;
  if (i == sizeof prefix - 1 || i + 1 >= len || msg[i] != ':' || msg[i + 1] != ' ') return;
  lua_Debug ar;
  for (int level = 1; lua_getstack(L, level, &ar); level++) {
    lua_getinfo(L, "Sl", &ar);
    if (ar.currentline > 0 && strcmp(ar.source, "=lifesim") != 0) {
      lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
      lua_pushlstring(L, msg + i + 2, len - i - 2);
      lua_concat(L, 2);
      lua_replace(L, 1);
      return;
    }
  }
}

static int ls_msghandler(lua_State *L) {
  // Keep the error value itself (it may be a structured expectation failure);
  // store the traceback beside it.
  //
  // Lua reports a yield it cannot make without a position: the C function
  // coroutine.yield raised it. Level 1 is that function; level 2 is the script
  // line that called it, which is what the author needs.
  if (lua_type(L, 1) == LUA_TSTRING && strncmp(lua_tostring(L, 1), "attempt to yield", 16) == 0) {
    luaL_where(L, 2);
    lua_pushvalue(L, 1);
    lua_pushliteral(L, " (lifesim calls handlers, timers and policies from the host, so they "
                       "cannot yield; finish the coroutine's work inside the function)");
    lua_concat(L, 3);
    lua_replace(L, 1);
  }
  ls_blame_script(L);
  luaL_traceback(L, L, NULL, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &traceback_key);
  return 1;
}

/* The protected call both entry points make: the function and its arguments
** are on the stack above the message handler at `msgh`. Code runs denied
** growth past the cap, a nested call runs under the handler budget, and a
** handler whose own budget tripped leaves its caller running under its own. */
static int ls_protected(lua_State *L, int nargs, int nresults, int msgh, int nested) {
  ls_state *S = ls_getstate(L);
  S->activity++;
  int saved_deny = S->deny;
  long long saved_call = S->call_remaining;
  if (nested) S->call_remaining = S->handler_budget;
  S->deny = 1;
  S->depth++;
  lua_State *saved_running = S->running;
  S->running = L;
  int status = lua_pcall(L, nargs, nresults, msgh);
  S->running = saved_running;
  S->depth--;
  S->deny = saved_deny;
  if (nested) S->call_remaining = saved_call;
  if ((S->tripped == LS_TRIP_CALL && nested) || (S->tripped == LS_TRIP_KILL && S->depth < S->kill_depth)) {
    S->tripped = LS_TRIP_NONE;
    lua_sethook(L, ls_hook, LUA_MASKCOUNT, HOOK_STEP);
  }
  return status;
}

int ls_pcall(lua_State *L, int nargs, int nresults, int nested) {
  int base = lua_gettop(L) - nargs;  // the function's index
  lua_pushcfunction(L, ls_msghandler);
  lua_rotate(L, base, 1);
  int status = ls_protected(L, nargs, nresults, base, nested);
  lua_rotate(L, base, -1);  // drop the handler
  lua_settop(L, -2);
  return status;
}

int ls_push_store(lua_State *L, lua_Integer stores, lua_Integer id) {
  lua_rawgeti(L, LUA_REGISTRYINDEX, stores);
  int found = lua_rawgeti(L, -1, id) == LUA_TTABLE;
  lua_replace(L, -2);
  return found;
}

/* The hot path of a handler call: one C call per handler. It
** finds the device's value store, calls store[fn](store[arg]) protected and
** under the handler budget as ls_pcall(.., nested = 1) does, and reads the
** result, so that Swift crosses into C once. The message handler goes below
** the function instead of being rotated into place. A call whose result
** nobody reads (`result` NULL) asks Lua for none, which spares the result's
** slot and the call that reads its type. */
int ls_call_handler(lua_State *L, lua_Integer stores, lua_Integer id, lua_Integer fn, lua_Integer arg,
                    int *result) {
  int top = lua_gettop(L);
  if (result != NULL) *result = LS_RESULT_NONE;
  lua_pushcfunction(L, ls_msghandler);  /* top + 1 */
  lua_rawgeti(L, LUA_REGISTRYINDEX, stores);
  if (lua_rawgeti(L, -1, id) != LUA_TTABLE) {  /* the device is gone */
    lua_settop(L, top);
    return LUA_OK;
  }
  /* the store, at top + 3 */
  lua_rawgeti(L, top + 3, fn);
  int nargs = 0;
  if (arg != 0) {
    lua_rawgeti(L, top + 3, arg);
    nargs = 1;
  }
  int status = ls_protected(L, nargs, result != NULL, top + 1, 1);
  if (status == LUA_OK) {
    if (result != NULL && lua_type(L, -1) == LUA_TBOOLEAN)
      *result = lua_toboolean(L, -1) ? LS_RESULT_TRUE : LS_RESULT_FALSE;
    lua_settop(L, top);
  } else {
    lua_replace(L, top + 1);  /* the error value, alone above `top` */
    lua_settop(L, top + 1);
  }
  return status;
}

void ls_push_candidates(lua_State *L, int store, const ls_candidate *c, int n) {
  // The seven keys are pushed once and copied for each candidate: pushing a
  // literal looks it up in Lua's string cache, with a strcmp, every time.
  static const char *const keys[] = {
    "app", "bundle", "band", "footprint_mb", "last_used", "state", "unsaved"
  };
  int k0 = lua_gettop(L) + 1;
  for (int k = 0; k < 7; k++) lua_pushstring(L, keys[k]);
  lua_createtable(L, n, 0);
  for (int i = 0; i < n; i++) {
    lua_createtable(L, 0, 7);
    lua_pushvalue(L, k0);
    lua_rawgeti(L, store, c[i].app);
    lua_rawset(L, -3);
    lua_pushvalue(L, k0 + 1);
    lua_rawgeti(L, store, c[i].bundle);
    lua_rawset(L, -3);
    lua_pushvalue(L, k0 + 2);
    lua_pushinteger(L, c[i].band);
    lua_rawset(L, -3);
    lua_pushvalue(L, k0 + 3);
    lua_pushnumber(L, c[i].footprint_mb);
    lua_rawset(L, -3);
    lua_pushvalue(L, k0 + 4);
    lua_pushnumber(L, c[i].last_used);
    lua_rawset(L, -3);
    lua_pushvalue(L, k0 + 5);
    lua_rawgeti(L, store, c[i].state);
    lua_rawset(L, -3);
    lua_pushvalue(L, k0 + 6);
    lua_pushinteger(L, c[i].unsaved);
    lua_rawset(L, -3);
    lua_rawseti(L, -2, i + 1);
  }
  lua_replace(L, k0);  /* the array goes where the first key was */
  lua_settop(L, k0);   /* and the other keys go */
}

void ls_push_traceback(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &traceback_key);
}

static int ls_openlibs_body(lua_State *L) {
  luaL_openlibs(L);
  ls_harden_libs(L);
  return 0;
}

int ls_openlibs(lua_State *L) {
  lua_pushcfunction(L, ls_openlibs_body);
  return ls_pcall(L, 0, 0, 0);
}

/* {====================================================================
** Set-up plans: the host describes the tables it builds at start-up as a
** list of steps, and they run here under lua_pcall, so a refused allocation
** (an address space limited by ulimit -v) ends the set-up with a status
** instead of unwinding through Swift frames or reaching the panic function.
** ===================================================================== */
typedef struct {
  const ls_setup_op *ops;
  int count;
  const char *strings;
  int *refs;
} ls_setup_plan;

static int ls_setup_body(lua_State *L) {
  const ls_setup_plan *P = (const ls_setup_plan *)lua_touserdata(L, 1);
  lua_remove(L, 1);
  for (int i = 0; i < P->count; i++) {
    const ls_setup_op *o = &P->ops[i];
    const char *s = P->strings + o->soff;
    luaL_checkstack(L, 4, "set-up");
    switch (o->op) {
      case LS_SETUP_TABLE: lua_createtable(L, (int)o->a, (int)o->b); break;
      case LS_SETUP_STRING: lua_pushlstring(L, s, (size_t)o->slen); break;
      case LS_SETUP_INTEGER: lua_pushinteger(L, (lua_Integer)o->a); break;
      case LS_SETUP_BOOLEAN: lua_pushboolean(L, o->a != 0); break;
      case LS_SETUP_SETFIELD:
        lua_pushlstring(L, s, (size_t)o->slen);
        lua_rotate(L, -2, 1);
        lua_rawset(L, -3);
        break;
      case LS_SETUP_SETI: lua_rawseti(L, -2, (lua_Integer)o->a); break;
      case LS_SETUP_WEAK: ls_make_weak(L, -1, s); break;
      case LS_SETUP_REF: P->refs[o->a] = luaL_ref(L, LUA_REGISTRYINDEX); break;
      case LS_SETUP_FUNCTION: ls_push_function(L, (int)o->a, s); break;
      case LS_SETUP_INDEX: ls_push_index(L, (int)o->a); break;
      case LS_SETUP_FINALIZER: ls_push_finalizer(L, (int)o->a); break;
      case LS_SETUP_METATABLE: ls_register_metatable(L, (int)o->a); break;
      case LS_SETUP_STATS_FIELD: ls_set_stats_field(L, (int)o->a, (int)o->b, s); break;
      case LS_SETUP_FORMAT_MAKER: ls_push_format_maker(L); break;
      case LS_SETUP_WEAK_MODE_NAME: ls_push_weak_mode_name(L); break;
      case LS_SETUP_HIDE_WEAK_MODE: (void)ls_hide_weak_mode(L); break;
      case LS_SETUP_STATS_VIEWS: ls_push_stats_views(L); break;
      default: return luaL_error(L, "unknown set-up step %d", o->op);
    }
  }
  return lua_gettop(L);
}

int ls_run_setup(lua_State *L, int nargs, const ls_setup_op *ops, int count, const char *strings, int *refs) {
  ls_setup_plan P = { ops, count, strings, refs };
  if (!lua_checkstack(L, 2)) return LUA_ERRMEM;
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, ls_setup_body);
  lua_pushlightuserdata(L, &P);
  lua_rotate(L, base + 1, 2);  /* the function and the plan below the values it is given */
  int status = lua_pcall(L, 1 + nargs, LUA_MULTRET, 0);
  if (status != LUA_OK) lua_settop(L, base);
  return status;
}

int ls_loadbuffer(lua_State *L, const char *buf, size_t len, const char *name) {
  ls_state *S = ls_getstate(L);
  int saved = S->deny;
  S->deny = 1;
  int status = luaL_loadbufferx(L, buf, len, name, "t");
  S->deny = saved;
  return status;
}

/* {====================================================================
** Trampolines: Swift runs with the allocator in counting mode and
** reports failure by its return value; only this C frame raises.
** ===================================================================== */
/* Raises "WHERE" .. head .. the message at `msg` .. ")", keeping every byte of
   the message (a %s would stop at a NUL a script put in it). */
static int ls_raise_around(lua_State *L, int msg, const char *head) {
  msg = lua_absindex(L, msg);
  luaL_where(L, 1);
  lua_pushstring(L, head);
  lua_pushvalue(L, msg);
  lua_pushliteral(L, ")");
  lua_concat(L, 4);
  return lua_error(L);
}

/* luaL_argerror's message (the one at -1), with `fallback` as the name when Lua has none. */
static int ls_argerror(lua_State *L, int arg, const char *fallback) {
  lua_Debug ar;
  const char *name = NULL;
  if (lua_getstack(L, 0, &ar)) {
    lua_getinfo(L, "n", &ar);
    if (ar.namewhat != NULL && strcmp(ar.namewhat, "method") == 0) {
      arg--;  /* do not count self */
      if (arg == 0) {
        lua_pushfstring(L, "calling '%s' on bad self (", ar.name);
        return ls_raise_around(L, -2, lua_tostring(L, -1));
      }
    }
    if (ar.namewhat != NULL && strcmp(ar.namewhat, "metamethod") != 0) name = ar.name;
  }
  /* Lua says "?" for a callee it cannot name (a computed key, a tail call). */
  if ((name == NULL || strcmp(name, "?") == 0) && fallback != NULL) name = fallback;
  if (name == NULL) name = "?";
  lua_pushfstring(L, "bad argument #%d to '%s' (", arg, name);
  return ls_raise_around(L, -2, lua_tostring(L, -1));
}

static int ls_finish(lua_State *L, ls_state *S, int saved_deny, int r, const char *name) {
  if (r >= 0 && ((S->limit != 0 && S->used > S->limit) || S->tripped == LS_TRIP_MEMORY)) {
    lua_settop(L, 0);
    if (S->tripped == LS_TRIP_NONE) S->tripped = LS_TRIP_MEMORY;
    ls_push_memory_error(L, S, 1);
    S->deny = saved_deny;
    return lua_error(L);
  }
  S->deny = saved_deny;
  switch (r) {
    case LS_RAISE:
      return lua_error(L);
    case LS_ARGERROR: {
      int arg = (int)lua_tointeger(L, -2);
      return ls_argerror(L, arg, name);
    }
    case LS_RAISE_WHERE:
      luaL_where(L, 1);
      lua_rotate(L, -2, 1);
      lua_concat(L, 2);
      return lua_error(L);
    default:
      return r;
  }
}

/* Code of a killed handler that escaped the hook (a coroutine it resumed, a
   message handler) reaches nothing of lifesim. */
static void ls_refuse_after_kill(lua_State *L, ls_state *S) {
  if (S->tripped == LS_TRIP_KILL) { lua_sethook(L, ls_hook, LUA_MASKCOUNT, 1); ls_raise_limit(L, S, 1); }
}

static int ls_trampoline(lua_State *L) {
  ls_state *S = ls_getstate(L);
  ls_refuse_after_kill(L, S);
  int id = (int)lua_tointeger(L, lua_upvalueindex(1));
  int saved = S->deny;
  S->deny = 0;
  int r = dispatch(L, id);
  // The function's name is read only for an argument error (it is a fallback
  // for Lua's own; most calls succeed and need none).
  return ls_finish(L, S, saved, r, r == LS_ARGERROR ? lua_tostring(L, lua_upvalueindex(2)) : NULL);
}

void ls_push_function(lua_State *L, int function_id, const char *name) {
  lua_pushinteger(L, function_id);
  lua_pushstring(L, name);
  lua_pushcclosure(L, ls_trampoline, 2);
}

static int ls_index_trampoline(lua_State *L) {
  // (object, key): a method, else a field's getter, else the fallback.
  lua_settop(L, 2);
  ls_state *S = ls_getstate(L);
  ls_refuse_after_kill(L, S);
  /* dev.stats is a field, never a method: known by its key's address. */
  const void *device = S->stats_key != NULL && lua_topointer(L, 2) == S->stats_key
    ? ls_touserdata_kind(L, 1, S->stats_kind) : NULL;
  int id;
  if (device != NULL) {
    id = S->stats_field - 1;
  } else {
    lua_pushvalue(L, 2);
    if (lua_rawget(L, lua_upvalueindex(1)) != LUA_TNIL) return 1;
    lua_settop(L, 2);
    lua_pushvalue(L, 2);
    id = lua_rawget(L, lua_upvalueindex(2)) == LUA_TNUMBER
      ? (int)lua_tointeger(L, -1)
      : (int)lua_tointeger(L, lua_upvalueindex(3));
    lua_settop(L, 2);
  }
  int saved = S->deny;
  S->deny = 0;
  int r = device != NULL ? ls_stats_field(L, S, device) : -1;
  if (r < 0) r = dispatch(L, id);
  return ls_finish(L, S, saved, r, NULL);
}

void ls_push_index(lua_State *L, int fallback_id) {
  lua_pushinteger(L, fallback_id);
  lua_pushcclosure(L, ls_index_trampoline, 3);
}

static int ls_gc_trampoline(lua_State *L) {
  ls_state *S = ls_getstate(L);
  int id = (int)lua_tointeger(L, lua_upvalueindex(1));
  int saved = S->deny;
  S->deny = 0;
  int top = lua_gettop(L);
  (void)dispatch(L, id);  // finalizers never raise
  lua_settop(L, top);
  S->deny = saved;
  return 0;
}

void ls_push_finalizer(lua_State *L, int function_id) {
  lua_pushinteger(L, function_id);
  lua_pushcclosure(L, ls_gc_trampoline, 1);
}

void ls_register_metatable(lua_State *L, int kind) {
  // Lua never moves an object, and the registry keeps this one: its address
  // identifies it for as long as the state lives.
  ls_getstate(L)->metatables[kind & 31] = lua_topointer(L, -1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &metatable_keys[kind & 31]);
}

void ls_push_metatable(lua_State *L, int kind) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &metatable_keys[kind & 31]);
}

void *ls_touserdata_kind(lua_State *L, int idx, int kind) {
  void *p = lua_touserdata(L, idx);
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  const void *mt = lua_topointer(L, -1);
  lua_settop(L, -2);
  const void *want = ls_getstate(L)->metatables[kind & 31];
  return want != NULL && mt == want ? p : NULL;
}

int ls_userdata_kind(lua_State *L, int idx) {
  if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx)) return -1;
  int found = -1;
  for (int k = 0; k < 32 && found < 0; k++) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &metatable_keys[k]);
    if (lua_rawequal(L, -1, -2)) found = k;
    lua_settop(L, -2);
  }
  lua_settop(L, -2);
  return found;
}

/* {====================================================================
** Ctrl-C for the REPL. The handler only sets flags and the count hook, as
** lua.c's `laction` does; while a chunk runs, a second Ctrl-C ends the process.
** ===================================================================== */
static lua_State *volatile sigint_target;
static volatile sig_atomic_t sigint_seen;

static void ls_on_sigint(int sig) {
  (void)sig;
  sigint_seen = 1;
  lua_State *L = sigint_target;
  if (L != NULL) {
    signal(SIGINT, SIG_DFL);
    ls_interrupt(L);
  }
}

void ls_sigint_target(lua_State *L) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = ls_on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  /* no SA_RESTART: a blocked read returns EINTR */
  sigint_target = L;
  sigaction(SIGINT, &sa, NULL);
  /* A parent may have blocked SIGINT, and the mask survives exec. */
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int ls_sigint_take(void) {
  int seen = sigint_seen;
  sigint_seen = 0;
  return seen;
}

/* {====================================================================
** The floor of a handler call, for `lifesim bench`: the plainest way C can
** call a Lua function, in a loop, with the error handling a host must have.
** ===================================================================== */
long long ls_bench_pcall_loop(lua_State *L, long long n) {
  long long failed = 0;
  for (long long i = 0; i < n; i++) {
    lua_pushvalue(L, -1);
    if (lua_pcall(L, 0, 0, 0) != LUA_OK) {
      failed++;
      lua_settop(L, -2);
    }
  }
  return failed;
}
