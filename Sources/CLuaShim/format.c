// string.format for scripts: Lua's own, except that nothing it prints can be
// an address (%p is refused, and tables, functions, threads and userdata are
// printed through the prelude's safe tostring), because an address changes
// from run to run and would make traces differ.
#include "shim_internal.h"
#include <string.h>

/* {====================================================================
** string.format without addresses: %p
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
