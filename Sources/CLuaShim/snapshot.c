// Saving and restoring an explore state's bytes: a snapshot is the arena's
// used part behind a small header, so that going back to a state is one copy
// at the same address, every pointer in it still valid; a delta keeps only the
// 64-byte blocks that differ from an earlier snapshot, so that a search can
// hold many states. Write tracking (track.c) makes both cheaper by skipping
// the pages nobody wrote.
#include "shim_internal.h"
#include <string.h>
#include <stdint.h>

/* A delta holds the header, then runs of 64-byte blocks that differ from
   the base snapshot: { uint32 offset, uint32 length, bytes }, ended by a
   run of length 0. Everything past the base's used part is one run. */
#define DELTA_BLOCK 64
/* Untracked deltas compare whole pieces of 1 << COMPARE_SHIFT bytes first: a written page
   often holds the base's bytes again. Any size gives the same delta. */
#define COMPARE_SHIFT 12

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

size_t ls_snapshot_delta_bound(lua_State *L) {
  size_t n = ls_snapshot_size(L);
  return n + n / 8 + 64;
}

/* Whether the 64-byte block at `at` may differ from the base: not when it
   lies on a protected page nobody wrote. While rebasing, the delta is
   against the new base, and a page nobody wrote may differ from it where
   the two bases differ (`differs`). */
static int may_differ(const ls_page_filter *f, size_t at) {
  size_t p = at >> f->shift;
  return at >= f->end || f->hot[p] || (f->differs && f->differs[p]);
}

size_t ls_delta_into(ls_state *S, const char *was, size_t btop, char *out0, const ls_page_filter *f) {
  const char *now = (const char *)S->arena;
  size_t top = S->arena->top;
  unsigned shift = f ? f->shift : COMPARE_SHIFT;
  size_t piece = (size_t)1 << shift;
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
      if (f && !may_differ(f, at)) {
        at = ((at >> shift) + 1) << shift;
        continue;
      }
      /* A whole piece at a time first: a written page often holds the
         base's bytes again. */
      if ((at & (piece - 1)) == 0 && at + piece <= both && memcmp(now + at, was + at, piece) == 0) {
        at += piece;
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
      if (end + n <= btop && ((f && !may_differ(f, end)) || memcmp(now + end, was + end, n) == 0)) break;
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
  return ls_delta_into(ls_getstate(L), (const char *)b, b->top, (char *)dst, NULL);
}

void ls_apply_delta(ls_state *S, const void *delta) {
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

void ls_restored(ls_state *S) {
  /* A state is saved at rest, before any limit tripped: a limit that tripped
     on another path since must not carry over to this one. (The hook's count
     lives in the Lua state, and came back with it.) */
  S->tripped = LS_TRIP_NONE;
  S->call_remaining = -1;
  S->refused = 0;
  S->system_refused = 0;
  S->spilled = 0;  /* the saved state held none: the ones out there are no one's now */
}

void ls_snapshot_restore_delta(lua_State *L, const void *base, const void *delta) {
  ls_state *S = ls_getstate(L);
  ls_snapshot_restore(L, base);
  ls_apply_delta(S, delta);
}

void ls_snapshot_restore(lua_State *L, const void *src) {
  ls_state *S = ls_getstate(L);  /* outside the mapping: safe to keep across the copy */
  ls_snapshot_header h;
  memcpy(&h, src, sizeof h);
  const ls_arena *saved = (const ls_arena *)((const char *)src + sizeof h);
  memcpy(S->arena, saved, saved->top);
  S->used = h.used;
  S->run_remaining = h.run_remaining;
  ls_restored(S);
}
