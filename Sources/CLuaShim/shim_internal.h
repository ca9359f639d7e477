// What the shim's C files share with each other and with no one else: the
// count hook, the saved state's header and delta format, and the calls that
// cross from one concern to another (a state's close releases its tracking,
// the index trampoline reads dev.stats). CLuaShim.h is the public contract.
#ifndef LIFESIM_SHIM_INTERNAL_H
#define LIFESIM_SHIM_INTERNAL_H

#include "CLuaShim.h"
#include "arena.h"

/* Instructions between two runs of the count hook while no limit has tripped. */
#define HOOK_STEP 1000

/* The count hook (shim.c): it enforces the budgets and raises a tripped limit. */
void ls_hook(lua_State *L, lua_Debug *ar);

/* {====================================================================
** Snapshots (snapshot.c)
** ===================================================================== */
/* What a snapshot holds besides the mapping: the allocator's count and the
   run's instruction budget, which live outside the Lua state. */
typedef struct {
  size_t used;
  long long run_remaining;
} ls_snapshot_header;

/* Which pages a delta may skip without a look (write tracking): a page below
   `end` that `hot` does not mark, nor `differs` (when not NULL). */
typedef struct {
  const unsigned char *hot;
  const unsigned char *differs;
  size_t end;
  unsigned shift;  /* the page is 1 << shift bytes: a shift, not a division, per block */
} ls_page_filter;

/* The delta of the state against `was` (btop bytes of an arena) into `out`;
   with `filter`, the blocks on pages it says nobody wrote are taken as equal. */
size_t ls_delta_into(ls_state *S, const char *was, size_t btop, char *out, const ls_page_filter *filter);
/* Applies a delta's runs and header over the arena. */
void ls_apply_delta(ls_state *S, const void *delta);
/* After any restore: a limit that tripped on another path does not carry over. */
void ls_restored(ls_state *S);

/* {====================================================================
** Write tracking (track.c)
** ===================================================================== */
/* Ends the state's tracking, if any, and frees what it held. */
void ls_track_release(ls_state *S);

/* {====================================================================
** dev.stats (stats.c): the index trampoline's fast path. Returns 1 with the
** table pushed, or -1 to take the generic path. The object at 1 is a device.
** ===================================================================== */
int ls_stats_field(lua_State *L, ls_state *S, const void *handle);

/* {====================================================================
** Pattern matching (patterns.c), installed by ls_harden_libs.
** ===================================================================== */
int ls_str_find(lua_State *L);
int ls_str_match(lua_State *L);
int ls_str_gmatch(lua_State *L);
int ls_str_gsub(lua_State *L);

#endif
