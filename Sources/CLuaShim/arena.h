// The arena allocator of `lifesim explore` (arena.c), for alloc.c and the snapshots: private to CLuaShim.
#ifndef LIFESIM_ARENA_H
#define LIFESIM_ARENA_H

#include <stddef.h>
#include <stdint.h>
#include "CLuaShim.h"

#define ARENA_SMALL_MAX 512   /* blocks up to this size are small: no header, one free list per size */
#define ARENA_SMALL_CLASSES 32
#define ARENA_SL_COUNT 4      /* free large blocks: four lists per power of two */
#define ARENA_FL_COUNT 44     /* powers of two from 32 bytes to 2^48 */

struct ls_arena_block;

/* The mapping's first bytes: saved and restored with the rest. */
struct ls_arena {
  size_t capacity;  /* bytes mapped */
  size_t top;       /* bytes handed out so far, header included */
  void *small[ARENA_SMALL_CLASSES];     /* freed small blocks, by size */
  char *run, *run_end;                  /* the part of the current run not handed out yet */
  uint64_t fl_map;                      /* which powers of two have a free large block */
  uint8_t sl_map[ARENA_FL_COUNT];       /* and which of their four lists */
  struct ls_arena_block *bins[ARENA_FL_COUNT][ARENA_SL_COUNT];
};

/* Maps an arena of `capacity` bytes (reserved, not committed); NULL if the
   kernel refuses. */
ls_arena *ls_arena_map(size_t capacity);
/* Lua's allocation function over the arena: `old` is the block's size (0
   when ptr is NULL), nsize 0 frees. Returns NULL, and changes nothing, when
   the arena has no room; a shrink always succeeds. */
void *ls_arena_realloc(ls_arena *A, void *ptr, size_t old, size_t nsize);
/* Whether `p` lies in the arena's mapping. */
static inline int ls_arena_owns(const ls_arena *A, const void *p) {
  return (const char *)p >= (const char *)A && (const char *)p < (const char *)A + A->capacity;
}

#endif
