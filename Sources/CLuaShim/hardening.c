// Library functions that can run without end, or overflow the C stack, inside
// C, where the count hook never sees them (string.rep, table.move, insert and
// remove, coroutine.close), the hiding of weak modes from scripts, and the
// installation of these and of patterns.c's matchers. See ls_harden_libs in
// CLuaShim.h.
#include "shim_internal.h"
#include <string.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

/* {====================================================================
** string.rep and table.move: their loops run once per repetition or slot,
** in C. string.rep of an empty string (and separator) makes nothing, but
** would loop as often as asked: up to 2^63 times. table.move over nil slots
** allocates nothing either. So the empty repetition returns at once, and a
** move pays its count of slots as instructions before it begins.
** ===================================================================== */
static int ls_str_rep(lua_State *L) {
  size_t l, lsep;
  luaL_checklstring(L, 1, &l);
  luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &lsep);
  if (l + lsep == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

static int ls_tab_move(lua_State *L) {
  lua_Integer f = luaL_checkinteger(L, 2);
  lua_Integer e = luaL_checkinteger(L, 3);
  luaL_checkinteger(L, 4);
  /* The library raises its own errors for a count that does not fit. */
  if (e >= f && (f > 0 || e < LUA_MAXINTEGER + f)) {
    lua_Integer n = e - f;  /* slots minus one */
    ls_charge(L, n < LLONG_MAX ? n + 1 : n);
  }
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* table.insert(t, pos, v) and table.remove(t, pos) shift every element
   above pos, one by one in C: a loop of them over a long array is quadratic
   work that no instruction counts. They pay the shift (for a table without
   a metatable, whose length is known without running __len). insert(t, v)
   and remove(t) shift nothing. */
static void charge_shift(lua_State *L) {
  int isnum;
  lua_Integer pos = lua_tointegerx(L, 2, &isnum);
  if (!isnum || lua_type(L, 1) != LUA_TTABLE) return;
  if (lua_getmetatable(L, 1)) {
    lua_pop(L, 1);
    return;
  }
  lua_Integer n = (lua_Integer)lua_rawlen(L, 1);
  if (pos >= 1 && pos <= n) ls_charge(L, n - pos + 1);
}

static int ls_tab_insert(lua_State *L) {
  if (lua_gettop(L) == 3) charge_shift(L);
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

static int ls_tab_remove(lua_State *L) {
  if (lua_gettop(L) >= 2) charge_shift(L);
  return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

/* {====================================================================
** coroutine.close. Closing a coroutine runs its pending __close handlers,
** which may close another coroutine, and so on: each level is a dozen C
** frames (lua_resetthread, a protected call, the handler's call), and
** Lua 5.4.4 counts none of them against its C-stack limit, so a hundred
** thousand levels overflow the C stack. The depth of nested closes is
** counted here, together with the C stack they use, and past either bound
** the innermost close raises "C stack overflow", as Lua does for other deep
** C recursion. A close that fails returns (false, error) to a handler that
** may ignore it, so every enclosing close raises the error again: the
** script stops at the line of the outermost close.
** ===================================================================== */
#define CLOSE_MAX_DEPTH 100
#define CLOSE_MAX_STACK (256 * 1024)

typedef struct {
  int depth;
  int overflow;      /* set while the overflow error is on its way out */
  const char *base;  /* the C stack at the outermost close */
} close_state;

static int ls_co_close(lua_State *L) {
  lua_CFunction library = lua_tocfunction(L, lua_upvalueindex(1));
  close_state *c = (close_state *)lua_touserdata(L, lua_upvalueindex(2));
  lua_State *co = lua_tothread(L, 1);
  /* Only a suspended or dead coroutine is closed (anything else the library refuses). */
  int closes = 0;
  if (co != NULL && co != L) {
    lua_Debug ar;
    int status = lua_status(co);
    closes = status == LUA_YIELD || (status == LUA_OK && !lua_getstack(co, 0, &ar)) || status != LUA_OK;
  }
  if (!closes) return library(L);
  char here;
  if (c->depth == 0) {
    c->base = &here;
    c->overflow = 0;
  }
  size_t used = c->base > &here ? (size_t)(c->base - &here) : (size_t)(&here - c->base);
  if (c->depth >= CLOSE_MAX_DEPTH || used > CLOSE_MAX_STACK) {
    c->overflow = 1;
    if (c->depth == 0) c->overflow = 0;
    return luaL_error(L, "C stack overflow (coroutine.close nested %d deep, each inside a __close handler)",
                      c->depth);
  }
  c->depth++;
  int n = library(L);  /* does not raise for a suspended or dead coroutine */
  c->depth--;
  if (c->overflow && n == 2) {
    if (c->depth == 0) c->overflow = 0;
    return lua_error(L);  /* the error value the library returned */
  }
  return n;
}

/* {====================================================================
** Weak tables (see the prelude's setmetatable). What a weak table holds
** depends on when the collector ran. The sandbox refuses __mode in
** setmetatable and, through a seal, its later assignment; but a metatable
** with a metatable of its own takes new keys through that one's __newindex,
** which the script controls. So, as a last resort, the collector of a
** sandboxed state does not look for "__mode" at all: Lua finds the name of
** each metamethod in the global state's `tmname` table, and the entry for
** __mode is replaced by a private name that no script knows (it changes from
** process to process, and nothing shows it to a script). lifesim's own weak
** tables carry their mode under both names (ls_make_weak). Lua 5.4 keeps
** `tmname` right after `mainthread` and `memerrmsg` in its global state;
** ls_hide_weak_mode finds that run of pointers and changes nothing if it
** cannot.
** ===================================================================== */
static char private_mode_key;  /* registry key of the private name */

static void make_private_mode_name(lua_State *L) {
  char name[40];
  unsigned long long a = (unsigned long long)(uintptr_t)L ^ ((unsigned long long)(uintptr_t)&private_mode_key << 17);
  a ^= (unsigned long long)(uintptr_t)name << 29;
  snprintf(name, sizeof name, "__mode %016llx", a);  /* a short (interned) string */
  lua_pushstring(L, name);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &private_mode_key);
}

void ls_make_weak(lua_State *L, int idx, const char *mode) {
  idx = lua_absindex(L, idx);
  if (!lua_getmetatable(L, idx)) {
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, -1);
    lua_setmetatable(L, idx);
  }
  lua_pushstring(L, mode);
  lua_setfield(L, -2, "__mode");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &private_mode_key);
  lua_pushstring(L, mode);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

void ls_push_weak_mode_name(lua_State *L) { lua_rawgetp(L, LUA_REGISTRYINDEX, &private_mode_key); }

static const void *interned(lua_State *L, const char *s) {
  lua_pushstring(L, s);
  const void *p = lua_topointer(L, -1);
  lua_pop(L, 1);
  return p;  /* a reserved name: fixed, never collected */
}

int ls_hide_weak_mode(lua_State *L) {
  lua_State *main;
  lua_rawgeti(L, LUA_REGISTRYINDEX, LUA_RIDX_MAINTHREAD);
  main = lua_tothread(L, -1);
  lua_pop(L, 1);
  const void *run[6] = { main, interned(L, "not enough memory"), interned(L, "__index"),
                         interned(L, "__newindex"), interned(L, "__gc"), interned(L, "__mode") };
  ls_push_weak_mode_name(L);
  const void *private_name = lua_topointer(L, -1);  /* the registry keeps it */
  lua_pop(L, 1);
  if (private_name == NULL) return 0;
  /* lua_State: the header (next, tt, marked), status, allowhook, nci, top, then l_G. */
  char *G;
  memcpy(&G, (char *)main + 3 * sizeof(void *), sizeof G);
  if (G == NULL) return 0;
  for (size_t off = 0; off + sizeof run <= 1024; off += sizeof(void *)) {
    const void *p[6];
    memcpy(p, G + off, sizeof p);
    if (memcmp(p, run, sizeof run) == 0) {
      memcpy(G + off + 5 * sizeof(void *), &private_name, sizeof private_name);
      return 1;
    }
  }
  return 0;
}

/* {====================================================================
** Installation: replaces the library functions in the tables that hold
** them (the string metatable's __index is the string table itself).
** ===================================================================== */
static void replace_field(lua_State *L, const char *lib, const char *name, lua_CFunction fn, int with_library) {
  lua_getglobal(L, lib);
  if (with_library) {
    lua_getfield(L, -1, name);
    lua_pushcclosure(L, fn, 1);
  } else {
    lua_pushcfunction(L, fn);
  }
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

void ls_harden_libs(lua_State *L) {
  make_private_mode_name(L);
  replace_field(L, "string", "find", ls_str_find, 0);
  replace_field(L, "string", "match", ls_str_match, 0);
  replace_field(L, "string", "gmatch", ls_str_gmatch, 0);
  replace_field(L, "string", "gsub", ls_str_gsub, 0);
  replace_field(L, "string", "rep", ls_str_rep, 1);
  replace_field(L, "table", "move", ls_tab_move, 1);
  replace_field(L, "table", "insert", ls_tab_insert, 1);
  replace_field(L, "table", "remove", ls_tab_remove, 1);
  lua_getglobal(L, "coroutine");
  lua_getfield(L, -1, "close");
  close_state *c = (close_state *)lua_newuserdatauv(L, sizeof(close_state), 0);
  memset(c, 0, sizeof *c);
  lua_pushcclosure(L, ls_co_close, 2);
  lua_setfield(L, -2, "close");
  lua_pop(L, 1);
}
