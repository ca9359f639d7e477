// The allocator every Lua state of lifesim's uses, and the life of a state:
// the memory cap is counted here, in bytes, and enforced so that no refused
// allocation can unwind a Swift frame; an explore state's blocks come from its
// arena (arena.c), so that its bytes can be saved and restored whole. Also
// the panic and warning functions a new state gets, and its close.
#include "shim_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* {====================================================================
** Allocator: counts every byte; while Lua code runs it
** enforces the cap, and while Swift runs it only counts, so that no memory
** error can be raised inside a Swift frame. The trampoline checks the total
** once Swift has returned.
**
** Lua raises a refused allocation (LUA_ERRMEM) without calling the message
** handler, so such an error carries no file:line and no traceback. The cap is
** therefore enforced in two steps: the first growth past it is let through,
** up to twice the cap, and trips the count hook, which raises an ordinary
** located error at the next instruction. Only growth past twice the cap (one
** huge request, or a C function that keeps allocating) is refused outright;
** `refused` keeps the size of the last refusal for the report. A request the
** cap lets through can still fail (the process's address space is limited,
** ulimit -v): `system_refused` keeps its size, so that the report does not
** blame the cap. Each refusal clears the other's record: Lua retries after
** an emergency collection, and the last refusal is the one it raises.
** ===================================================================== */
static lua_State *ls_newstate_with(ls_arena *arena, size_t memory_limit, void *host);

/* An explore state's allocation, in its arena. The arena is sized so that
** the cap trips long before it fills (LuaRuntime), but a host function may
** build a large result (Swift runs, so nothing is refused), and a refusal
** there would raise inside Swift frames. So when the arena has no room, the
** block comes from malloc instead ("spilled"), and the memory cap trips: the
** script fails at its next instruction, or as the host function returns
** (ls_finish), as under `lifesim run`. A state with spilled blocks is never
** saved (LuaRuntime.checkSavable); restoring a saved one drops them from
** sight, and they are leaked rather than freed twice. */
static void *arena_alloc(ls_state *S, void *ptr, size_t old, size_t nsize) {
  ls_arena *A = S->arena;
  if (ptr != NULL && S->spilled && !ls_arena_owns(A, ptr)) {
    if (nsize == 0) {
      free(ptr);
      S->spilled--;
      return NULL;
    }
    return realloc(ptr, nsize);
  }
  void *np = ls_arena_realloc(A, ptr, old, nsize);
  if (np != NULL || nsize == 0) return np;
  np = malloc(nsize);
  if (np == NULL) return NULL;
  if (ptr != NULL) {
    memcpy(np, ptr, old);
    ls_arena_realloc(A, ptr, old, 0);
  }
  S->spilled++;
  if (S->tripped == LS_TRIP_NONE) {
    S->tripped = LS_TRIP_MEMORY;
    if (S->running) lua_sethook(S->running, ls_hook, LUA_MASKCOUNT, 1);
  }
  return np;
}

static void *ls_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  ls_state *S = (ls_state *)ud;
  S->activity++;
  size_t old = ptr ? osize : 0;  // osize is a type tag when ptr == NULL
  if (nsize == 0) {
    if (S->arena) arena_alloc(S, ptr, old, 0);
    else free(ptr);
    S->used -= old;
    return NULL;
  }
  if (nsize > old && S->limit != 0 && S->deny) {
    size_t delta = nsize - old;
    size_t hard = S->limit * 2;
    if (S->used > S->limit || delta > S->limit - S->used) {
      if (S->used > hard || delta > hard - S->used) {
        S->refused = delta;
        S->system_refused = 0;
        return NULL;
      }
      if (S->tripped == LS_TRIP_NONE) {
        S->tripped = LS_TRIP_MEMORY;
        /* lua_sethook is signal-safe; a coroutine notices within HOOK_STEP. */
        if (S->running) lua_sethook(S->running, ls_hook, LUA_MASKCOUNT, 1);
      }
    }
  }
  void *np = S->arena ? arena_alloc(S, ptr, old, nsize) : realloc(ptr, nsize);
  if (np != NULL) {
    S->used = S->used - old + nsize;
  } else {
    S->system_refused = nsize;
    S->refused = 0;
  }
  return np;
}

lua_State *ls_newstate_arena(size_t capacity, void *host) {
  ls_arena *A = ls_arena_map(capacity);
  if (A == NULL) return NULL;
  lua_State *L = ls_newstate_with(A, 0, host);
  if (L == NULL) munmap(A, A->capacity);
  return L;
}

static int ls_panic(lua_State *L) {
  const char *msg = lua_tostring(L, -1);
  fprintf(stderr, "lifesim: internal error: unprotected Lua error: %s\n",
          msg ? msg : "(not a string)");
  fflush(stderr);
  abort();  // an unprotected error is a host bug; there is no safe way on
}

static void ls_warn(void *ud, const char *msg, int tocont) {
  (void)ud; (void)msg; (void)tocont;  // warnings (e.g. from __gc) are dropped
}

lua_State *ls_newstate(size_t memory_limit, void *host) {
  return ls_newstate_with(NULL, memory_limit, host);
}

static lua_State *ls_newstate_with(ls_arena *arena, size_t memory_limit, void *host) {
  ls_state *S = (ls_state *)calloc(1, sizeof(ls_state));
  if (S == NULL) return NULL;
  S->arena = arena;
  S->limit = memory_limit;
  S->call_remaining = -1;
  S->run_remaining = -1;
  S->handler_budget = -1;
  S->host = host;
  lua_State *L = lua_newstate(ls_alloc, S);
  if (L == NULL) {
    free(S);
    return NULL;
  }
  *(ls_state **)lua_getextraspace(L) = S;
  lua_atpanic(L, ls_panic);
  lua_setwarnf(L, ls_warn, NULL);
  // Installed before any script runs, so coroutines inherit it.
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, HOOK_STEP);
  return L;
}

void ls_close(lua_State *L) {
  ls_state *S = ls_getstate(L);
  S->deny = 0;
  lua_close(L);
  ls_track_release(S);
  if (S->arena) munmap(S->arena, S->arena->capacity);
  free(S);
}
