// The C side of lifesim's Lua bridge. See CLuaShim.h for the contract.
#include "CLuaShim.h"
#include "arena.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <stdint.h>
#include <pthread.h>
#include <errno.h>

static ls_dispatch_fn dispatch;
static char traceback_key;          // registry key of the last traceback
static char metatable_keys[32];     // registry keys of the userdata metatables

#define HOOK_STEP 1000

void ls_set_dispatch(ls_dispatch_fn fn) { dispatch = fn; }

ls_state *ls_getstate(lua_State *L) { return *(ls_state **)lua_getextraspace(L); }
void *ls_host(lua_State *L) { return ls_getstate(L)->host; }

/* {====================================================================
** Allocator (lua-embedding.md §7.5): counts every byte; while Lua code runs it
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
** `refused` keeps the size of the last refusal for the report.
** ===================================================================== */
static void ls_hook(lua_State *L, lua_Debug *ar);
static void ls_raise_limit(lua_State *L, ls_state *S, int level);
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
  if (np != NULL) S->used = S->used - old + nsize;
  return np;
}

lua_State *ls_newstate_arena(size_t capacity, void *host) {
  ls_arena *A = ls_arena_map(capacity);
  if (A == NULL) return NULL;
  lua_State *L = ls_newstate_with(A, 0, host);
  if (L == NULL) munmap(A, A->capacity);
  return L;
}

/* What a snapshot holds besides the mapping: the allocator's count and the
   run's instruction budget, which live outside the Lua state. */
typedef struct {
  size_t used;
  long long run_remaining;
} ls_snapshot_header;

unsigned long long ls_activity(lua_State *L) { return ls_getstate(L)->activity; }

size_t ls_snapshot_size(lua_State *L) {
  ls_state *S = ls_getstate(L);
  return S->arena ? sizeof(ls_snapshot_header) + S->arena->top : 0;
}

void ls_snapshot_save(lua_State *L, void *dst) {
  ls_state *S = ls_getstate(L);
  ls_snapshot_header h = { S->used, S->run_remaining };
  memcpy(dst, &h, sizeof h);
  memcpy((char *)dst + sizeof h, S->arena, S->arena->top);
}

/* A delta holds the header, then runs of 64-byte blocks that differ from
   the base snapshot: { uint32 offset, uint32 length, bytes }, ended by a
   run of length 0. Everything past the base's used part is one run. */
#define DELTA_BLOCK 64

size_t ls_snapshot_delta_bound(lua_State *L) {
  size_t n = ls_snapshot_size(L);
  return n + n / 8 + 64;
}

/* {====================================================================
** Write tracking (see CLuaShim.h). A tracked state's slot says which of its
** pages were written since tracking began; the SIGSEGV handler finds the
** slot by the faulting address, so it reads only static memory.
** ===================================================================== */
#define TRACK_SLOTS 16
#define TRACK_PAGES 16384  /* 64 MB of base state */
#define PAGE_SIZE_ 4096

typedef struct {
  char *start;                     /* the arena while tracked, else NULL (atomic) */
  size_t end;                      /* bytes protected: whole pages below the base's top */
  volatile int all_hot;            /* the kernel refused an mprotect: every page counts as written */
  volatile int refuse;             /* for tests: this many faults take the refused path */
  unsigned char hot[TRACK_PAGES];  /* 1: written since tracking began, so writable */
} ls_track_slot;

static ls_track_slot track_slots[TRACK_SLOTS];
static pthread_mutex_t track_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t track_once = PTHREAD_ONCE_INIT;
static struct sigaction previous_segv;
static int track_handler_installed;

static void track_fault(int sig, siginfo_t *si, void *context) {
  char *a = (char *)si->si_addr;
  for (int i = 0; i < TRACK_SLOTS; i++) {
    ls_track_slot *t = &track_slots[i];
    char *start = __atomic_load_n(&t->start, __ATOMIC_ACQUIRE);
    if (start == NULL || a < start || a >= start + t->end) continue;
    size_t page = (size_t)(a - start) / PAGE_SIZE_;
    int saved_errno = errno;
    int refused = t->refuse > 0;
    if (refused) t->refuse--;
    if (!refused && mprotect(start + page * PAGE_SIZE_, PAGE_SIZE_, PROT_READ | PROT_WRITE) == 0) {
      t->hot[page] = 1;
      errno = saved_errno;
      return;  /* the write runs again, and succeeds */
    }
    /* The kernel refused: each page made writable on its own splits the
       mapping, and a process has only so many pieces (vm.max_map_count),
       which several large states written page by page reach. Then the
       whole tracked range is made writable (one piece again) and every page
       counts as written: saving and restoring copy them all, as without
       tracking, until a rebase protects them again. */
    if (mprotect(start, t->end, PROT_READ | PROT_WRITE) == 0) {
      memset(t->hot, 1, t->end / PAGE_SIZE_);
      t->all_hot = 1;
      errno = saved_errno;
      return;
    }
    errno = saved_errno;
    break;
  }
  /* Not a tracked page: whoever handled SIGSEGV before us does. */
  if (previous_segv.sa_flags & SA_SIGINFO) {
    previous_segv.sa_sigaction(sig, si, context);
  } else if (previous_segv.sa_handler != SIG_DFL && previous_segv.sa_handler != SIG_IGN) {
    previous_segv.sa_handler(sig);
  } else {
    signal(SIGSEGV, SIG_DFL);  /* the fault comes again, and ends the process */
  }
}

static void track_install(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = track_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  track_handler_installed = sigaction(SIGSEGV, &sa, &previous_segv) == 0;
}

int ls_snapshot_track(lua_State *L, const void *base) {
  ls_state *S = ls_getstate(L);
  const ls_arena *b = (const ls_arena *)((const char *)base + sizeof(ls_snapshot_header));
  size_t btop = b->top, end = btop / PAGE_SIZE_ * PAGE_SIZE_;
  if (S->arena == NULL || S->track || end / PAGE_SIZE_ > TRACK_PAGES || S->arena->top != btop) return 0;
  pthread_once(&track_once, track_install);
  if (!track_handler_installed) return 0;
  char *copy = (char *)malloc(btop);
  if (copy == NULL) return 0;
  memcpy(copy, b, btop);
  pthread_mutex_lock(&track_lock);
  int slot = -1;
  for (int i = 0; i < TRACK_SLOTS && slot < 0; i++)
    if (__atomic_load_n(&track_slots[i].start, __ATOMIC_ACQUIRE) == NULL) slot = i;
  if (slot >= 0) {
    ls_track_slot *t = &track_slots[slot];
    t->end = end;
    t->all_hot = 0;
    t->refuse = 0;
    memset(t->hot, 0, sizeof t->hot);
    t->hot[0] = 1;  /* the allocator's header: written by every allocation */
    __atomic_store_n(&t->start, (char *)S->arena, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&track_lock);
  if (slot < 0) {
    free(copy);
    return 0;
  }
  if (end > PAGE_SIZE_ && mprotect((char *)S->arena + PAGE_SIZE_, end - PAGE_SIZE_, PROT_READ) != 0) {
    __atomic_store_n(&track_slots[slot].start, NULL, __ATOMIC_RELEASE);
    free(copy);
    return 0;
  }
  ls_snapshot_header h;
  memcpy(&h, base, sizeof h);
  S->track = slot + 1;
  S->track_base = copy;
  S->track_top = btop;
  S->track_used = h.used;
  S->track_run_remaining = h.run_remaining;
  return 1;
}

static void track_release(ls_state *S) {
  if (!S->track) return;
  __atomic_store_n(&track_slots[S->track - 1].start, NULL, __ATOMIC_RELEASE);
  free(S->track_base);
  free(S->track_differs);
  S->track = 0;
  S->track_base = NULL;
  S->track_differs = NULL;
}

void ls_snapshot_track_refuse(lua_State *L, int faults) {
  ls_state *S = ls_getstate(L);
  if (S->track) track_slots[S->track - 1].refuse = faults;
}

int ls_snapshot_tracks_every_page(lua_State *L) {
  ls_state *S = ls_getstate(L);
  return S->track && track_slots[S->track - 1].all_hot;
}

/* Whether the 64-byte block at `at` may differ from the tracked base: not
   when it lies on a protected page nobody wrote. While rebasing, the delta
   is against the new base, and a page nobody wrote may differ from it where
   the two bases differ (`differs`). */
static int track_may_differ(const ls_track_slot *t, const unsigned char *differs, size_t at) {
  return at >= t->end || t->hot[at / PAGE_SIZE_] || (differs && differs[at / PAGE_SIZE_]);
}

/* The delta of the state against `was` (btop bytes); with `t`, the blocks
   on pages it says nobody wrote (and, with `differs`, where the bases agree)
   are taken as equal without a look. */
static size_t delta_into(ls_state *S, const char *was, size_t btop, char *out0, const ls_track_slot *t,
                         const unsigned char *differs) {
  const char *now = (const char *)S->arena;
  size_t top = S->arena->top;
  char *out = out0;
  ls_snapshot_header h = { S->used, S->run_remaining };
  memcpy(out, &h, sizeof h);
  out += sizeof h;
  size_t at = 0;
  while (at < top) {
    /* Skip the blocks that equal the base's. (A base saved later than the
       state, after a rebase, may reach past the state's top: the bytes
       there are no one's, and are not compared.) */
    size_t both = btop < top ? btop : top;
    while (at < both) {
      if (t && !track_may_differ(t, differs, at)) {
        at = (at / PAGE_SIZE_ + 1) * PAGE_SIZE_;
        continue;
      }
      /* A whole page at a time first: a written page often holds the
         base's bytes again. */
      if (at % PAGE_SIZE_ == 0 && at + PAGE_SIZE_ <= both && memcmp(now + at, was + at, PAGE_SIZE_) == 0) {
        at += PAGE_SIZE_;
        continue;
      }
      size_t n = both - at < DELTA_BLOCK ? both - at : DELTA_BLOCK;
      if (memcmp(now + at, was + at, n) != 0) break;
      at += n;
    }
    if (at >= top) break;
    /* A run of differing blocks: to the first equal one, or to the top. */
    size_t end = at;
    while (end < top) {
      size_t n = top - end < DELTA_BLOCK ? top - end : DELTA_BLOCK;
      if (end + n <= btop && ((t && !track_may_differ(t, differs, end)) || memcmp(now + end, was + end, n) == 0)) break;
      end += n;
    }
    uint32_t run[2] = { (uint32_t)at, (uint32_t)(end - at) };
    memcpy(out, run, sizeof run);
    memcpy(out + sizeof run, now + at, end - at);
    out += sizeof run + (end - at);
    at = end;
  }
  uint32_t last[2] = { 0, 0 };
  memcpy(out, last, sizeof last);
  out += sizeof last;
  return (size_t)(out - out0);
}

size_t ls_snapshot_delta(lua_State *L, const void *base, void *dst) {
  const ls_arena *b = (const ls_arena *)((const char *)base + sizeof(ls_snapshot_header));
  return delta_into(ls_getstate(L), (const char *)b, b->top, (char *)dst, NULL, NULL);
}

size_t ls_snapshot_delta_tracked(lua_State *L, void *dst) {
  ls_state *S = ls_getstate(L);
  return delta_into(S, S->track_base, S->track_top, (char *)dst, &track_slots[S->track - 1], NULL);
}

int ls_snapshot_rebase_begin(lua_State *L, const void *base) {
  ls_state *S = ls_getstate(L);
  if (!S->track) return 0;
  const ls_track_slot *t = &track_slots[S->track - 1];
  const char *b = (const char *)base + sizeof(ls_snapshot_header);
  size_t btop = ((const ls_arena *)b)->top, pages = t->end / PAGE_SIZE_;
  free(S->track_differs);
  S->track_differs = (unsigned char *)calloc(pages ? pages : 1, 1);
  if (S->track_differs == NULL) return 0;
  /* Past the new base's top, its bytes are not compared: a page there differs. */
  for (size_t p = 0; p < pages; p++)
    S->track_differs[p] = (p + 1) * PAGE_SIZE_ > btop ||
                          memcmp(S->track_base + p * PAGE_SIZE_, b + p * PAGE_SIZE_, PAGE_SIZE_) != 0;
  return 1;
}

size_t ls_snapshot_delta_rebased(lua_State *L, const void *base, void *dst) {
  ls_state *S = ls_getstate(L);
  const ls_arena *b = (const ls_arena *)((const char *)base + sizeof(ls_snapshot_header));
  return delta_into(S, (const char *)b, b->top, (char *)dst, &track_slots[S->track - 1], S->track_differs);
}

int ls_snapshot_rebase_finish(lua_State *L, const void *base) {
  ls_state *S = ls_getstate(L);
  if (!S->track) return 0;
  ls_track_slot *t = &track_slots[S->track - 1];
  const ls_arena *b = (const ls_arena *)((const char *)base + sizeof(ls_snapshot_header));
  size_t btop = b->top, end = btop / PAGE_SIZE_ * PAGE_SIZE_;
  free(S->track_differs);
  S->track_differs = NULL;
  char *copy = end / PAGE_SIZE_ <= TRACK_PAGES && S->arena->top == btop ? (char *)malloc(btop) : NULL;
  if (copy == NULL) return 0;
  memcpy(copy, b, btop);
  ls_snapshot_header h;
  memcpy(&h, base, sizeof h);
  free(S->track_base);
  S->track_base = copy;
  S->track_top = btop;
  S->track_used = h.used;
  S->track_run_remaining = h.run_remaining;
  /* The state is the new base's bytes: every page below its top holds them,
     and is protected until written, as ls_snapshot_track begins. If the
     kernel refuses, every page counts as written: slower, still right. */
  char *arena = (char *)S->arena;
  int ok = end <= PAGE_SIZE_ || mprotect(arena + PAGE_SIZE_, end - PAGE_SIZE_, PROT_READ) == 0;
  memset(t->hot, ok ? 0 : 1, sizeof t->hot);
  t->all_hot = !ok;
  t->hot[0] = 1;
  if (!ok) mprotect(arena + PAGE_SIZE_, end - PAGE_SIZE_, PROT_READ | PROT_WRITE);  /* (a page left protected faults once) */
  t->end = end;
  return 1;
}

/* Applies a delta's runs and header over the arena. */
static void apply_delta(ls_state *S, const void *delta) {
  ls_snapshot_header h;
  memcpy(&h, delta, sizeof h);
  const char *in = (const char *)delta + sizeof h;
  char *arena = (char *)S->arena;
  for (;;) {
    uint32_t run[2];
    memcpy(run, in, sizeof run);
    in += sizeof run;
    if (run[1] == 0) break;
    memcpy(arena + run[0], in, run[1]);
    in += run[1];
  }
  S->used = h.used;
  S->run_remaining = h.run_remaining;
}

/* Every TRACK_REARM restores, the written pages that hold the base's bytes
   again are protected again. A page stays written once its first write made
   it so, and each written page is copied back at every restore; but some
   pages are written rarely: in the bench's depth-7 search, a step changes
   1.7 pages on average, most of them the same two or three. Re-arming costs
   a compare and an mprotect per page, and a fault for each page written
   again. */
#define TRACK_REARM 256

static void track_rearm(ls_state *S, ls_track_slot *t) {
  /* After a refusal, protecting pages one by one would split the mapping
     again: the next rebase protects them in one piece. */
  if (t->all_hot) return;
  char *arena = (char *)S->arena;
  /* Page 0 holds the allocator's header and Lua's global state, which every
     step writes: it stays writable. */
  for (size_t p = 1; p < t->end / PAGE_SIZE_; p++) {
    if (!t->hot[p] || memcmp(arena + p * PAGE_SIZE_, S->track_base + p * PAGE_SIZE_, PAGE_SIZE_) != 0) continue;
    if (mprotect(arena + p * PAGE_SIZE_, PAGE_SIZE_, PROT_READ) == 0) t->hot[p] = 0;
  }
}

void ls_snapshot_restore_tracked(lua_State *L, const void *delta) {
  ls_state *S = ls_getstate(L);
  ls_track_slot *t = &track_slots[S->track - 1];
  char *arena = (char *)S->arena;
  /* The pages nobody wrote hold the base's bytes already. (A delta may write
     one of them below, which the fault handler lets through.) */
  for (size_t p = 0; p < t->end / PAGE_SIZE_; p++)
    if (t->hot[p]) memcpy(arena + p * PAGE_SIZE_, S->track_base + p * PAGE_SIZE_, PAGE_SIZE_);
  memcpy(arena + t->end, S->track_base + t->end, S->track_top - t->end);
  if (delta) apply_delta(S, delta);
  else {
    S->used = S->track_used;
    S->run_remaining = S->track_run_remaining;
  }
  if (++S->track_restores % TRACK_REARM == 0) track_rearm(S, t);
  S->tripped = LS_TRIP_NONE;
  S->call_remaining = -1;
  S->refused = 0;
  S->spilled = 0;  /* the saved state held none: the ones out there are no one's now */
}

void ls_snapshot_restore_delta(lua_State *L, const void *base, const void *delta) {
  ls_state *S = ls_getstate(L);
  ls_snapshot_restore(L, base);
  apply_delta(S, delta);
}

void ls_snapshot_restore(lua_State *L, const void *src) {
  ls_state *S = ls_getstate(L);  /* outside the mapping: safe to keep across the copy */
  ls_snapshot_header h;
  memcpy(&h, src, sizeof h);
  const ls_arena *saved = (const ls_arena *)((const char *)src + sizeof h);
  memcpy(S->arena, saved, saved->top);
  S->used = h.used;
  S->run_remaining = h.run_remaining;
  /* A state is saved at rest, before any limit tripped: a limit that tripped
     on another path since must not carry over to this one. (The hook's count
     lives in the Lua state, and came back with it.) */
  S->tripped = LS_TRIP_NONE;
  S->call_remaining = -1;
  S->refused = 0;
  S->spilled = 0;  /* the saved state held none: the ones out there are no one's now */
}

/* Pushes the memory-cap message, prefixed with the location at `level`. */
static void ls_push_memory_error(lua_State *L, ls_state *S, int level) {
  luaL_where(L, level);
  lua_pushfstring(L, "not enough memory: the script exceeded its memory cap of %d MB (--max-memory)",
                  (int)(S->limit >> 20));
  lua_concat(L, 2);
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

/* {====================================================================
** Count hook (§7.6). It never calls Swift. Once tripped it re-arms itself to
** fire on every instruction, so a script cannot pcall its way past a limit.
** ===================================================================== */
static void ls_hook(lua_State *L, lua_Debug *ar) {
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
  // Installed before any script runs, so coroutines inherit it (§7.6.1).
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, HOOK_STEP);
  return L;
}

void ls_close(lua_State *L) {
  ls_state *S = ls_getstate(L);
  S->deny = 0;
  lua_close(L);
  track_release(S);
  if (S->arena) munmap(S->arena, S->arena->capacity);
  free(S);
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
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, HOOK_STEP);
}

void ls_interrupt(lua_State *L) {
  ls_state *S = ls_getstate(L);
  S->tripped = LS_TRIP_INTERRUPT;
  lua_sethook(L, ls_hook, LUA_MASKCOUNT, 1);  // lua.c's lstop idea: signal-safe
}

/* {====================================================================
** Protected calls and tracebacks (§7.1.6, §7.8)
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
  if (S->tripped == LS_TRIP_CALL && nested) {
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

/* The hot path of a handler call (issue 16): one C call per handler. It
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

/* {====================================================================
** dev.stats, kept between reads. Building it is two tables and fourteen
** keys (about 4,600 instructions), and a search's invariants read it three
** times a step while the counters rarely change. So the last table built for
** a device is kept, with the counters it holds, and handed out again while
** the counters are the same and nothing has written to it: a script may
** change the table it got, and then it must not get it again.
**
** Nothing in Lua's API tells whether a table was written to, and reading it
** back through the API costs what building it does. So the check looks at
** the table's memory: its header (size, array, node part, metatable) and the
** bytes of its node part, which every raw set, insertion or removal writes,
** and which the collector leaves alone in a table with no weak mode whose
** values are not nil. The layout is Lua 5.4's (lobject.h); ls_new_stats_cache
** checks it on a probe table, and where it does not match, every read builds
** a new table as before.
** ===================================================================== */

/* Lua 5.4's Table, as lobject.h lays it out. */
typedef struct {
  void *next;
  unsigned char tt, marked, flags, lsizenode;
  unsigned int alimit;
  void *array;
  void *node;
  void *lastfree;
  const void *metatable;
  void *gclist;
} ls_table54;

#define LS_NODE_SIZE 24        /* sizeof(Node): value, its tag, the key's tag, next, the key */
#define LS_CACHED_NODES 16     /* the largest node part the cache copies */
#define LS_COUNTERS_MAX 32

/* What a table handed out looked like: enough to tell whether it was written to since. */
typedef struct {
  const ls_table54 *t;
  unsigned char lsizenode;
  unsigned int alimit;
  void *array, *node;
  const void *metatable;
  unsigned char nodes[LS_CACHED_NODES * LS_NODE_SIZE];
} ls_table_view;

typedef struct {
  int usable;                       /* the layout check passed */
  lua_Integer keys;                 /* the registry slot of the keys' table */
  int ncounters;                    /* how many counters are fields; the rest are kills */
  int n;                            /* counters cached; 0: none */
  lua_Integer v[LS_COUNTERS_MAX];
  ls_table_view stats, kills;
} ls_stats_cache;

static size_t view_bytes(const ls_table54 *t) { return ((size_t)1 << t->lsizenode) * LS_NODE_SIZE; }

/* Records what the table at `index` looks like now; 0 if its node part is too large to copy. */
static int view_take(lua_State *L, int index, ls_table_view *view) {
  const ls_table54 *t = (const ls_table54 *)lua_topointer(L, index);
  if (t->lsizenode > 4) return 0;  /* 2^4 == LS_CACHED_NODES */
  view->t = t;
  view->lsizenode = t->lsizenode;
  view->alimit = t->alimit;
  view->array = t->array;
  view->node = t->node;
  view->metatable = t->metatable;
  memcpy(view->nodes, t->node, view_bytes(t));
  return 1;
}

static int view_unchanged(const ls_table_view *view) {
  const ls_table54 *t = view->t;
  return t->lsizenode == view->lsizenode && t->alimit == view->alimit && t->array == view->array &&
         t->node == view->node && t->metatable == view->metatable &&
         memcmp(t->node, view->nodes, view_bytes(t)) == 0;
}

/* Whether this Lua lays tables out as ls_table54 and LS_NODE_SIZE say: a
   probe table of one node, keyed by a light userdata, then given a metatable. */
static int layout_matches(lua_State *L) {
  static char probe;
  int top = lua_gettop(L), ok = 0;
  lua_createtable(L, 0, 1);
  lua_pushlightuserdata(L, &probe);
  lua_pushinteger(L, 0x5eed);
  lua_rawset(L, -3);
  const ls_table54 *t = (const ls_table54 *)lua_topointer(L, -1);
  const unsigned char *node = (const unsigned char *)t->node;
  lua_Integer value;
  const void *key;
  memcpy(&value, node, sizeof value);
  memcpy(&key, node + 16, sizeof key);
  if (t->tt == LUA_TTABLE && t->lsizenode == 0 && t->alimit == 0 && t->metatable == NULL &&
      value == 0x5eed && node[8] == LUA_TNUMBER /* integer: variant 0 */ &&
      node[9] == LUA_TLIGHTUSERDATA && key == (const void *)&probe) {
    lua_newtable(L);
    const void *mt = lua_topointer(L, -1);
    lua_setmetatable(L, -2);
    ok = t->metatable == mt;
  }
  lua_settop(L, top);
  return ok;
}

void ls_new_stats_cache(lua_State *L, lua_Integer keys, int ncounters) {
  ls_stats_cache *c = (ls_stats_cache *)lua_newuserdatauv(L, sizeof(ls_stats_cache), 1);
  memset(c, 0, sizeof *c);
  c->usable = layout_matches(L);
  c->keys = keys;
  c->ncounters = ncounters;
}

void ls_push_counters(lua_State *L, const lua_Integer *v, int n) {
  ls_stats_cache *c = (ls_stats_cache *)lua_touserdata(L, -1);
  if (c->n == n && memcmp(c->v, v, (size_t)n * sizeof *v) == 0 && view_unchanged(&c->stats) &&
      view_unchanged(&c->kills)) {
    lua_getiuservalue(L, -1, 1);
    lua_replace(L, -2);
    return;
  }
  int ncounters = c->ncounters, nkills = n - ncounters;
  int cache = lua_gettop(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->keys);
  int k = lua_gettop(L);
  lua_createtable(L, 0, ncounters + 1);
  for (int i = 0; i < ncounters; i++) {
    lua_rawgeti(L, k, i + 1);
    lua_pushinteger(L, v[i]);
    lua_rawset(L, -3);
  }
  lua_rawgeti(L, k, ncounters + 1);
  lua_createtable(L, 0, nkills);
  for (int i = 0; i < nkills; i++) {
    lua_rawgeti(L, k, ncounters + 2 + i);
    lua_pushinteger(L, v[ncounters + i]);
    lua_rawset(L, -3);
  }
  if (c->usable && n <= LS_COUNTERS_MAX && view_take(L, -1, &c->kills)) {
    lua_rawset(L, -3);
    if (view_take(L, -1, &c->stats)) {
      c->n = n;
      memcpy(c->v, v, (size_t)n * sizeof *v);
      lua_pushvalue(L, -1);
      lua_setiuservalue(L, cache, 1);
    } else {
      c->n = 0;
    }
  } else {
    lua_rawset(L, -3);
    c->n = 0;
  }
  lua_replace(L, cache);  /* the table goes where the cache was */
  lua_settop(L, cache);
}

/* dev.stats without the host's dispatch: each read went through the generic
   field path (the dispatch, the field's closure, the handle check, the store
   lookup), about 1,300 instructions before ls_push_counters, and invariants
   read it three times a step. Here the host is asked for the counters only.
   Returns 1 with the table pushed, or -1 to take the generic path. */
static ls_counters_fn counters;

void ls_set_counters(ls_counters_fn fn) { counters = fn; }

void ls_set_stats_field(lua_State *L, int field_id, int kind, const char *name) {
  ls_state *S = ls_getstate(L);
  S->stats_field = field_id + 1;
  S->stats_kind = kind;
  /* Short strings are interned: every "stats" a script indexes with is this
     one, which the kind's fields table keeps alive. */
  lua_pushstring(L, name);
  S->stats_key = lua_topointer(L, -1);
  lua_settop(L, -2);
}

/* The object at 1 is a device (`handle` its bytes). */
static int ls_stats_field(lua_State *L, ls_state *S, const void *handle) {
  if (counters == NULL) return -1;
  lua_Integer v[LS_COUNTERS_MAX];
  int n = counters(S->host, handle, v, LS_COUNTERS_MAX);
  if (n < 0) return -1;
  if (lua_getiuservalue(L, 1, 2) != LUA_TUSERDATA) {
    lua_settop(L, 2);
    return -1;
  }
  ls_push_counters(L, v, n);
  return 1;
}

void ls_push_traceback(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &traceback_key);
}

/* {====================================================================
** string.format without addresses (lua-embedding.md §7.4, SPEC §2): %p
** prints one, and so does %s of a table, function, thread or userdata
** without __tostring, and neither is the same from run to run. %p is an
** error; such an argument is first passed through the prelude's safe
** tostring (or its own __tostring). Then the library's own string.format
** runs in this same frame, so its argument errors name 'format' and the
** script's line.
** ===================================================================== */

/* Whether the conversion that the '%' at fmt[s] begins is %p: its flags,
   width and precision ([-+ #0]*, digits, an optional '.' and digits), then
   its letter. */
static int is_pointer_conversion(const char *fmt, size_t len, size_t s) {
  size_t j = s + 1;
  while (j < len && (fmt[j] == '-' || fmt[j] == '+' || fmt[j] == ' ' || fmt[j] == '#' || fmt[j] == '0')) j++;
  while (j < len && fmt[j] >= '0' && fmt[j] <= '9') j++;
  if (j < len && fmt[j] == '.') j++;
  while (j < len && fmt[j] >= '0' && fmt[j] <= '9') j++;
  return j < len && fmt[j] == 'p';
}

/* string.format; upvalue 1 is the library's, upvalue 2 the safe tostring. */
static int ls_format(lua_State *L) {
  int n = lua_gettop(L);
  if (lua_type(L, 1) == LUA_TSTRING) {
    size_t len;
    const char *fmt = lua_tolstring(L, 1, &len);
    size_t i = 0;
    const char *p;
    while (i < len && (p = memchr(fmt + i, '%', len - i)) != NULL) {
      size_t s = (size_t)(p - fmt);
      if (s + 1 < len && fmt[s + 1] == '%') {
        i = s + 2;
        continue;
      }
      if (is_pointer_conversion(fmt, len, s))
        return luaL_error(L, "bad argument #1 to 'format' (%%p prints an address, which changes from run to run)");
      i = s + 1;
    }
  }
  for (int a = 2; a <= n; a++) {
    switch (lua_type(L, a)) {
      case LUA_TTABLE: case LUA_TFUNCTION: case LUA_TTHREAD: case LUA_TUSERDATA: case LUA_TLIGHTUSERDATA:
        if (luaL_getmetafield(L, a, "__tostring") != LUA_TNIL && lua_toboolean(L, -1)) {
          /* Called here rather than by the safe tostring, so that a bad
             result is reported at the caller's line. */
          lua_pushvalue(L, a);
          lua_call(L, 1, 1);
          if (lua_type(L, -1) != LUA_TSTRING) return luaL_error(L, "'__tostring' must return a string");
        } else {
          lua_settop(L, n);  /* a false __tostring, if there was one */
          lua_pushvalue(L, lua_upvalueindex(2));
          lua_pushvalue(L, a);
          lua_call(L, 1, 1);
        }
        lua_replace(L, a);
        break;
      default:
        break;
    }
  }
  /* The library's format is a C function without upvalues: it can run in
     this frame. Anything else (a script's replacement, under --unsafe) is
     called. */
  lua_CFunction library = lua_tocfunction(L, lua_upvalueindex(1));
  if (library != NULL && lua_getupvalue(L, lua_upvalueindex(1), 1) == NULL) return library(L);
  if (library != NULL) lua_pop(L, 1);  /* the upvalue lua_getupvalue pushed */
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_rotate(L, 1, 1);
  lua_call(L, n, 1);
  return 1;
}

/* host.format(library_format, safe_tostring) -> the string.format above. */
static int ls_make_format(lua_State *L) {
  luaL_checktype(L, 1, LUA_TFUNCTION);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 2);
  lua_pushcclosure(L, ls_format, 2);
  return 1;
}

void ls_push_format_maker(lua_State *L) { lua_pushcfunction(L, ls_make_format); }

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
** Trampolines (§7.1.1): Swift runs with the allocator in counting mode and
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

static int ls_trampoline(lua_State *L) {
  ls_state *S = ls_getstate(L);
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
