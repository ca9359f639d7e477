// dev.stats, kept between reads. Building it is three tables, their views
// and twenty keys, and a search's invariants read it three times a step
// while the counters rarely change. So the last one built for a device
// is handed out again while the counters are the same and nothing has written
// to it: a script may change what it got, and then it must not get it again.
//
// What is handed out is a view: an empty table whose metatable (locked, and
// shown to no script) reads from the table built, and whose __newindex turns
// the view into a plain copy before the write (the prelude's view functions).
// An empty view with its own metatable is one nobody wrote to, which Lua's
// public API tells (lua_next, lua_getmetatable): no reading of Lua's private
// table layout. The prelude's pairs, next, rawget and setmetatable, and the
// host's readers of a script's tables (ls_unview), see through a view.
#include "shim_internal.h"
#include <string.h>

#define LS_COUNTERS_MAX 32

/* The prelude's view functions, in the registry: the mark a view's
   metatable carries under __metatable, its __newindex, and whether every
   write to a view reaches view_written (the sandbox's rawset does). */
static char view_keys[3];

typedef struct {
  lua_Integer keys;                 /* the registry slot of the keys' table */
  int ncounters;                    /* how many counters are fields; then the kills */
  int ntasks;                       /* the last ntasks counters are the tasks table's */
  int n;                            /* counters cached; 0: none */
  lua_Integer v[LS_COUNTERS_MAX];
  const void *metatable;            /* the view's metatable (user value 2; the view is 1) */
  const void *kills_metatable;      /* the kills view's (user value 4; the view is 3) */
  const void *tasks_metatable;      /* the tasks view's (user value 6; the view is 5) */
  int reported;                     /* every write to the views clears n (view_written) */
} ls_stats_cache;

/* A view is written to (the prelude's view functions, before the write): the
   cache, in the view's metatable at [1], hands it out no more. The hit path
   then need not look at the views, which cost about as much as the rest of
   a read. */
static int view_written(lua_State *L) {
  if (lua_type(L, 1) == LUA_TUSERDATA && lua_rawlen(L, 1) == sizeof(ls_stats_cache))
    ((ls_stats_cache *)lua_touserdata(L, 1))->n = 0;
  return 0;
}

/* The prelude hands its view functions over, and gets the function it calls
   before a view is written to: host.stats_views(mark, newindex, reported). */
static int ls_stats_views(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  luaL_checktype(L, 2, LUA_TFUNCTION);
  lua_settop(L, 3);
  lua_pushboolean(L, lua_toboolean(L, 3));
  lua_rawsetp(L, LUA_REGISTRYINDEX, &view_keys[2]);
  lua_settop(L, 2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &view_keys[1]);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &view_keys[0]);
  lua_pushcfunction(L, view_written);
  return 1;
}

void ls_push_stats_views(lua_State *L) { lua_pushcfunction(L, ls_stats_views); }

int ls_unview(lua_State *L, int idx) {
  idx = lua_absindex(L, idx);
  if (lua_type(L, idx) != LUA_TTABLE || !lua_getmetatable(L, idx)) return 0;
  int mt = lua_gettop(L);
  lua_pushliteral(L, "__metatable");
  lua_rawget(L, mt);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &view_keys[0]);
  int view = !lua_isnil(L, -1) && lua_rawequal(L, -1, -2);
  if (view) {
    lua_pushliteral(L, "__index");
    lua_rawget(L, mt);
    lua_replace(L, idx);
  }
  lua_settop(L, mt - 1);
  return view;
}

void ls_new_stats_cache(lua_State *L, lua_Integer keys, int ncounters, int ntasks) {
  ls_stats_cache *c = (ls_stats_cache *)lua_newuserdatauv(L, sizeof(ls_stats_cache), 6);
  memset(c, 0, sizeof *c);
  c->keys = keys;
  c->ncounters = ncounters;
  c->ntasks = ntasks;
}

/* Whether the view in user value `uv` of the cache at `cache` is as it was
   made: its metatable still `metatable`, and nothing in it. */
static int view_unchanged(lua_State *L, int cache, int uv, const void *metatable) {
  int top = lua_gettop(L), ok = 0;
  if (lua_getiuservalue(L, cache, uv) == LUA_TTABLE && lua_getmetatable(L, -1) &&
      lua_topointer(L, -1) == metatable) {
    lua_pushnil(L);
    ok = lua_next(L, -3) == 0;
  }
  lua_settop(L, top);
  return ok;
}

/* Pushes a view of the table at `t` and, above it, the view's metatable;
   `mark` and `mark` + 1 hold the prelude's view functions. */
static void push_view(lua_State *L, int t, int mark, int cache) {
  lua_createtable(L, 0, 0);
  lua_createtable(L, 1, 3);
  lua_pushvalue(L, cache);
  lua_rawseti(L, -2, 1);
  lua_pushvalue(L, t);
  lua_setfield(L, -2, "__index");
  lua_pushvalue(L, mark + 1);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, mark);
  lua_setfield(L, -2, "__metatable");
  lua_pushvalue(L, -1);
  lua_setmetatable(L, -3);
}

/* Replaces the table on top of the stack with a view of it, which the cache
   keeps in user value `uv` (its metatable in `uv` + 1); returns the
   metatable, by which view_unchanged knows the view. */
static const void *keep_view(lua_State *L, int mark, int cache, int uv) {
  push_view(L, lua_gettop(L), mark, cache);  /* ... table, view, metatable */
  const void *metatable = lua_topointer(L, -1);
  lua_setiuservalue(L, cache, uv + 1);
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, cache, uv);
  lua_replace(L, -2);                        /* ... view */
  return metatable;
}

void ls_push_counters(lua_State *L, const lua_Integer *v, int n) {
  ls_stats_cache *c = (ls_stats_cache *)lua_touserdata(L, -1);
  int cache = lua_gettop(L);
  if (c->n == n && memcmp(c->v, v, (size_t)n * sizeof *v) == 0 &&
      (c->reported || (view_unchanged(L, cache, 1, c->metatable) && view_unchanged(L, cache, 3, c->kills_metatable) &&
                       (c->ntasks == 0 || view_unchanged(L, cache, 5, c->tasks_metatable))))) {
    lua_getiuservalue(L, cache, 1);
    lua_replace(L, cache);
    return;
  }
  int ncounters = c->ncounters, ntasks = c->ntasks, nkills = n - ncounters - ntasks;
  /* The tasks table changes least (most scripts submit no task): while its
     counters are those of the view kept, and nothing wrote to that view, the
     new table holds the same one, and a search's steps write no new one. */
  int keep_tasks = c->n == n && ntasks > 0 &&
      memcmp(c->v + n - ntasks, v + n - ntasks, (size_t)ntasks * sizeof *v) == 0 &&
      (c->reported || view_unchanged(L, cache, 5, c->tasks_metatable));
  int mark = cache + 1;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &view_keys[0]);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &view_keys[1]);
  /* Without the prelude's functions (or with too many counters to keep),
     every read builds plain tables, and none is kept. */
  int views = lua_type(L, mark) == LUA_TTABLE && n <= LS_COUNTERS_MAX;
  if (views) {
    lua_rawgetp(L, LUA_REGISTRYINDEX, &view_keys[2]);
    c->reported = lua_toboolean(L, -1);
    lua_settop(L, -2);
  }
  lua_rawgeti(L, LUA_REGISTRYINDEX, c->keys);
  int k = lua_gettop(L);
  lua_createtable(L, 0, ncounters + 2);
  int t = lua_gettop(L);
  for (int i = 0; i < ncounters; i++) {
    lua_rawgeti(L, k, i + 1);
    lua_pushinteger(L, v[i]);
    lua_rawset(L, t);
  }
  lua_rawgeti(L, k, ncounters + 1);
  lua_createtable(L, 0, nkills);
  for (int i = 0; i < nkills; i++) {
    lua_rawgeti(L, k, ncounters + 2 + i);
    lua_pushinteger(L, v[ncounters + i]);
    lua_rawset(L, -3);
  }
  if (views) c->kills_metatable = keep_view(L, mark, cache, 3);
  lua_rawset(L, t);
  if (ntasks > 0) {
    lua_rawgeti(L, k, ncounters + nkills + 2);
    if (views && keep_tasks) {
      lua_getiuservalue(L, cache, 5);
    } else {
      lua_createtable(L, 0, ntasks);
      for (int i = 0; i < ntasks; i++) {
        lua_rawgeti(L, k, ncounters + nkills + 3 + i);
        lua_pushinteger(L, v[ncounters + nkills + i]);
        lua_rawset(L, -3);
      }
      if (views) c->tasks_metatable = keep_view(L, mark, cache, 5);
    }
    lua_rawset(L, t);
  }
  if (views) {
    push_view(L, t, mark, cache);
    c->metatable = lua_topointer(L, -1);
    lua_setiuservalue(L, cache, 2);
    lua_pushvalue(L, -1);
    lua_setiuservalue(L, cache, 1);
    c->n = n;
    memcpy(c->v, v, (size_t)n * sizeof *v);
  } else {
    c->n = 0;
  }
  lua_replace(L, cache);  /* the view (or the table) goes where the cache was */
  lua_settop(L, cache);
}

/* dev.stats without the host's dispatch: each read went through the generic
   field path (the dispatch, the field's closure, the handle check, the store
   lookup), about 1,300 instructions before ls_push_counters, and invariants
   read it three times a step. Here the host is asked for the counters only. */
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

int ls_stats_field(lua_State *L, ls_state *S, const void *handle) {
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
