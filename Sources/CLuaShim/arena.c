/* {====================================================================
** Arena (for `lifesim explore`): every byte of the Lua state in one mapping,
** so that the whole state is saved and restored by copying the mapping's used
** part, at the same address, and every pointer in it stays valid. Everything
** the allocator knows is in the mapping too: the header (the mapping's first
** bytes) and the blocks' own headers, so it is saved with the rest.
**
** Two kinds of blocks, told apart by the size Lua passes with each block
** (Lua always says how big the block it frees or resizes is):
**
** - Small blocks (up to 512 bytes, most of a Lua state) have no header. Sizes
**   round up to 16 bytes; each size keeps a list of freed blocks, threaded
**   through them; new ones are cut from a run, a large block set aside for
**   them. A run at the top grows with the top, so a state that only grows is
**   laid out as a bump allocator would.
**
** - Large blocks have a 16-byte header: their size, whether they are free,
**   whether the block just below is free, and (when it is) its size. A freed
**   large block merges with its free neighbours, or gives its bytes back to
**   the top, and free blocks are kept in lists by size (a two-level
**   segregated fit: four lists per power of two, and bitmaps of the non-empty
**   ones), so that any freed memory serves any later request it is big
**   enough for: small ones too, as a run. A search takes the first list whose
**   every block is big enough, and splits the block it finds.
**
** A large block that Lua shrinks to a small size moves to a small block
** (or, when there is no room for one, stays where it is, cut to that size: a
** run of that one small block).
** ===================================================================== */
#include "arena.h"
#include <string.h>
#include <sys/mman.h>

#define HDR 16        /* a large block's header */
#define MIN_BLOCK 32  /* a free block holds its header and two list links */
#define FREE_BIT ((size_t)1)
#define PREV_FREE_BIT ((size_t)2)
#define FLAGS ((size_t)15)
#define SL_BITS 2
#define FL_SHIFT 5    /* the first power of two: MIN_BLOCK */
#define RUN_BYTES 4096

typedef struct ls_arena_block {
  size_t prev_size;  /* the size of the block below, when it is free */
  size_t size;       /* this block's size, header included, with the flags */
  struct ls_arena_block *next_free, *prev_free;  /* only while free */
} block;

static inline size_t bsize(const block *b) { return b->size & ~FLAGS; }
static inline char *arena_top(ls_arena *A) { return (char *)A + A->top; }
static inline size_t round16(size_t n) { return (n + 15) & ~(size_t)15; }

/* The list a free block of `size` bytes goes in. */
static inline void mapping(size_t size, int *fl, int *sl) {
  int f = 63 - __builtin_clzll((unsigned long long)size);
  *sl = (int)((size >> (f - SL_BITS)) & (ARENA_SL_COUNT - 1));
  *fl = f - FL_SHIFT;
}

static void bin_insert(ls_arena *A, block *b) {
  int fl, sl;
  mapping(bsize(b), &fl, &sl);
  block *head = A->bins[fl][sl];
  b->next_free = head;
  b->prev_free = NULL;
  if (head) head->prev_free = b;
  A->bins[fl][sl] = b;
  A->fl_map |= (uint64_t)1 << fl;
  A->sl_map[fl] |= (uint8_t)(1u << sl);
}

static void bin_remove(ls_arena *A, block *b) {
  int fl, sl;
  mapping(bsize(b), &fl, &sl);
  if (b->prev_free) b->prev_free->next_free = b->next_free;
  else A->bins[fl][sl] = b->next_free;
  if (b->next_free) b->next_free->prev_free = b->prev_free;
  if (A->bins[fl][sl] == NULL) {
    A->sl_map[fl] &= (uint8_t)~(1u << sl);
    if (A->sl_map[fl] == 0) A->fl_map &= ~((uint64_t)1 << fl);
  }
}

/* A free block of at least `size` bytes, or NULL: the first non-empty list
   whose smallest size is at least `size`, so that its first block fits. */
static block *bin_search(ls_arena *A, size_t size) {
  int f = 63 - __builtin_clzll((unsigned long long)size);
  size_t r = size + ((size_t)1 << (f - SL_BITS)) - 1;
  int fl, sl;
  mapping(r, &fl, &sl);
  if (fl >= ARENA_FL_COUNT) return NULL;
  unsigned slm = A->sl_map[fl] & (~0u << sl);
  if (slm == 0) {
    uint64_t flm = fl + 1 < 64 ? A->fl_map & (~(uint64_t)0 << (fl + 1)) : 0;
    if (flm == 0) return NULL;
    fl = __builtin_ctzll(flm);
    slm = A->sl_map[fl];
  }
  return A->bins[fl][__builtin_ctz(slm)];
}

/* Makes the `size` bytes at b (not in any list; the block below in use) a
   free block: merged with the free block above it, or given back to the top. */
static void release(ls_arena *A, block *b, size_t size) {
  char *end = (char *)b + size;
  if (end == arena_top(A)) {
    A->top = (size_t)((char *)b - (char *)A);
    return;
  }
  block *n = (block *)end;
  if (n->size & FREE_BIT) {  /* never the top's neighbour: a free block there gave its bytes back */
    bin_remove(A, n);
    size += bsize(n);
    n = (block *)((char *)b + size);
  }
  b->size = size | FREE_BIT;
  n->prev_size = size;
  n->size |= PREV_FREE_BIT;
  bin_insert(A, b);
}

static void large_free(ls_arena *A, block *b) {
  size_t size = bsize(b);
  if (b->size & PREV_FREE_BIT) {
    block *p = (block *)((char *)b - b->prev_size);
    bin_remove(A, p);
    size += bsize(p);
    b = p;
  }
  release(A, b, size);
}

/* Cuts block b (in use, `have` bytes) to `size` bytes when what is left
   makes a block, and frees that. */
static void trim(ls_arena *A, block *b, size_t have, size_t size) {
  if (have - size < MIN_BLOCK) return;
  b->size = size | (b->size & PREV_FREE_BIT);
  release(A, (block *)((char *)b + size), have - size);
}

/* A block of `size` bytes (header included), in use; NULL if no room. */
static block *large_alloc(ls_arena *A, size_t size) {
  block *b = bin_search(A, size);
  if (b != NULL) {
    bin_remove(A, b);
    size_t have = bsize(b);
    b->size = have;  /* in use; the block below is not free (two free blocks are never neighbours) */
    block *n = (block *)((char *)b + have);
    if ((char *)n != arena_top(A)) n->size &= ~PREV_FREE_BIT;
    trim(A, b, have, size);
    return b;
  }
  if (size > A->capacity - A->top) return NULL;
  b = (block *)arena_top(A);
  A->top += size;
  b->size = size;  /* the block below the top is never free */
  return b;
}

/* Cuts `rounded` bytes from the current run, which has no room for them:
   the run grows with the top when it ends there; else what is left of it
   goes to the small lists, and a new run starts, in a free block big enough
   when there is one, else at the top. (A run's header says only that it is
   in use: its size is never read, so it is not kept up to date as it grows.) */
static void *small_refill(ls_arena *A, size_t rounded) {
  size_t left = (size_t)(A->run_end - A->run);
  if (A->run_end == arena_top(A) && rounded - left <= A->capacity - A->top) {
    A->top += rounded - left;
    A->run_end += rounded - left;
  } else {
    while (left >= 16) {
      size_t piece = left < ARENA_SMALL_MAX ? left : ARENA_SMALL_MAX;
      char *p = A->run_end - left;
      *(void **)p = A->small[piece / 16 - 1];
      A->small[piece / 16 - 1] = p;
      left -= piece;
    }
    block *b = bin_search(A, HDR + RUN_BYTES) ? large_alloc(A, HDR + RUN_BYTES) : NULL;
    if (b == NULL) b = large_alloc(A, HDR + rounded);
    if (b == NULL) {
      A->run = A->run_end = NULL;
      return NULL;
    }
    A->run = (char *)b + HDR;
    A->run_end = (char *)b + bsize(b);
  }
  void *p = A->run;
  A->run += rounded;
  return p;
}

static inline void *small_alloc(ls_arena *A, size_t n) {
  size_t rounded = round16(n);
  int c = (int)(rounded >> 4) - 1;
  void *p = A->small[c];
  if (p != NULL) {
    A->small[c] = *(void **)p;
    return p;
  }
  if ((size_t)(A->run_end - A->run) >= rounded) {
    p = A->run;
    A->run += rounded;
    return p;
  }
  return small_refill(A, rounded);
}

static inline void small_free(ls_arena *A, void *p, size_t n) {
  int c = (int)(round16(n) >> 4) - 1;
  *(void **)p = A->small[c];
  A->small[c] = p;
}

static void *large_new(ls_arena *A, size_t n) {
  block *b = large_alloc(A, HDR + round16(n));
  return b ? (char *)b + HDR : NULL;
}

/* A large block resized to `nsize` bytes, in place when it can be. */
static void *large_resize(ls_arena *A, void *ptr, size_t old, size_t nsize) {
  block *b = (block *)((char *)ptr - HDR);
  size_t have = bsize(b), need = HDR + round16(nsize);
  if (need <= have) {
    trim(A, b, have, need);
    return ptr;
  }
  char *end = (char *)b + have;
  if (end == arena_top(A)) {
    if (need - have > A->capacity - A->top) return NULL;
    A->top += need - have;
    b->size += need - have;
    return ptr;
  }
  block *n = (block *)end;
  if ((n->size & FREE_BIT) && have + bsize(n) >= need) {
    bin_remove(A, n);
    size_t total = have + bsize(n);
    b->size = total | (b->size & PREV_FREE_BIT);
    block *after = (block *)((char *)b + total);
    if ((char *)after != arena_top(A)) after->size &= ~PREV_FREE_BIT;
    trim(A, b, total, need);
    return ptr;
  }
  void *np = large_new(A, nsize);
  if (np == NULL) return NULL;
  memcpy(np, ptr, old);
  large_free(A, b);
  return np;
}

void *ls_arena_realloc(ls_arena *A, void *ptr, size_t old, size_t nsize) {
  if (nsize == 0) {  /* free */
    if (ptr == NULL) return NULL;
    if (old <= ARENA_SMALL_MAX) small_free(A, ptr, old);
    else large_free(A, (block *)((char *)ptr - HDR));
    return NULL;
  }
  int nsmall = nsize <= ARENA_SMALL_MAX;
  if (ptr == NULL) return nsmall ? small_alloc(A, nsize) : large_new(A, nsize);
  if (old <= ARENA_SMALL_MAX) {
    /* The same rounded size, or shrinking (which Lua assumes cannot fail):
       keep the block. A shrunk block is freed later under its smaller size,
       and is at least that big. */
    if (nsize <= old || round16(nsize) == round16(old)) return ptr;
    void *np = nsmall ? small_alloc(A, nsize) : large_new(A, nsize);
    if (np == NULL) return NULL;
    memcpy(np, ptr, old);
    small_free(A, ptr, old);
    return np;
  }
  if (!nsmall) return large_resize(A, ptr, old, nsize);
  /* Large to small: moved to a small block, so that the large one can merge
     with its neighbours; when there is no room for one, cut to the small
     size where it is (a shrink cannot fail), a run of one block from now on. */
  block *b = (block *)((char *)ptr - HDR);
  void *np = small_alloc(A, nsize);
  if (np == NULL) {
    trim(A, b, bsize(b), HDR + round16(nsize));
    return ptr;
  }
  memcpy(np, ptr, nsize);
  large_free(A, b);
  return np;
}

ls_arena *ls_arena_map(size_t capacity) {
  capacity = (capacity + 4095) & ~(size_t)4095;
  if (capacity >> 47) return NULL;  /* past what the lists count to */
  void *m = mmap(NULL, capacity, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return NULL;
  ls_arena *A = (ls_arena *)m;  /* the mapping is zeroed: every list empty, no run */
  A->capacity = capacity;
  A->top = round16(sizeof(ls_arena));
  return A;
}
