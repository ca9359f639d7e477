// Lua 5.4's pattern matching (string.find, match, gmatch and gsub) with every
// matching step charged as instructions: a pattern can backtrack exponentially
// inside one C call, where the count hook never runs. hardening.c installs these.
#include "shim_internal.h"
#include <ctype.h>
#include <string.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

/* {====================================================================
** Charging work done in C. The count hook counts virtual-machine
** instructions only; a loop inside a library function runs between two of
** them for as long as it likes. Such a loop counts its steps here and pays
** for them every CHARGE_EVERY steps with ls_charge, which raises the limit's
** own error (instruction budget, memory, Ctrl-C) at the caller's line.
** ===================================================================== */
#define CHARGE_EVERY 4096

/* {====================================================================
** Pattern matching: string.find, match, gmatch and gsub, as Lua 5.4's
** string library defines them (same results, same messages), with every
** matching step counted: a pattern like ("a*"):rep(30) .. "b" backtracks
** exponentially, and a plain find of a long needle in a long haystack costs
** the product of their lengths. A step is one item tried at one position.
** ===================================================================== */
#define L_ESC '%'
#define SPECIALS "^$*+?.([%-"
#define PATTERN_MAXDEPTH 200 /* the library's limit on nested matches ("pattern too complex") */
#define PATTERN_MAXCAPTURES 32 /* LUA_MAXCAPTURES */
#define CAP_UNFINISHED (-1)
#define CAP_POSITION (-2)
#define uchar(c) ((unsigned char)(c))

typedef struct {
  const char *src_init, *src_end, *p_end;
  lua_State *L;
  int depth_left;
  int level;
  long long steps;
  struct {
    const char *init;
    ptrdiff_t len;
  } capture[PATTERN_MAXCAPTURES];
} matcher;

static void pay(matcher *m) {
  long long n = m->steps;
  m->steps = 0;
  ls_charge(m->L, n);
}

static inline void step(matcher *m) {
  if (++m->steps >= CHARGE_EVERY) pay(m);
}

static const char *match(matcher *m, const char *s, const char *p);

static int check_capture(matcher *m, int l) {
  l -= '1';
  if (l < 0 || l >= m->level || m->capture[l].len == CAP_UNFINISHED)
    return luaL_error(m->L, "invalid capture index %%%d", l + 1);
  return l;
}

static int capture_to_close(matcher *m) {
  int level = m->level;
  for (level--; level >= 0; level--)
    if (m->capture[level].len == CAP_UNFINISHED) return level;
  return luaL_error(m->L, "invalid pattern capture");
}

/* The end of the single-character class that starts at p. */
static const char *class_end(matcher *m, const char *p) {
  switch (*p++) {
    case L_ESC:
      if (p == m->p_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
      return p + 1;
    case '[':
      if (*p == '^') p++;
      do {  /* look for the ']' */
        if (p == m->p_end) luaL_error(m->L, "malformed pattern (missing ']')");
        if (*(p++) == L_ESC && p < m->p_end) p++;  /* an escape: skip what it escapes */
      } while (*p != ']');
      return p + 1;
    default:
      return p;
  }
}

static int class_matches(int c, int cl) {
  int res;
  switch (tolower(cl)) {
    case 'a': res = isalpha(c); break;
    case 'c': res = iscntrl(c); break;
    case 'd': res = isdigit(c); break;
    case 'g': res = isgraph(c); break;
    case 'l': res = islower(c); break;
    case 'p': res = ispunct(c); break;
    case 's': res = isspace(c); break;
    case 'u': res = isupper(c); break;
    case 'w': res = isalnum(c); break;
    case 'x': res = isxdigit(c); break;
    case 'z': res = c == 0; break;  /* deprecated, still accepted */
    default: return cl == c;
  }
  if (isupper(cl)) res = !res;
  return res;
}

/* c against the set [ ... ] that begins at p and whose ']' is at ec. */
static int set_matches(int c, const char *p, const char *ec) {
  int yes = 1;
  if (*(p + 1) == '^') {
    yes = 0;
    p++;
  }
  while (++p < ec) {
    if (*p == L_ESC) {
      p++;
      if (class_matches(c, uchar(*p))) return yes;
    } else if (*(p + 1) == '-' && p + 2 < ec) {
      p += 2;
      if (uchar(*(p - 2)) <= c && c <= uchar(*p)) return yes;
    } else if (uchar(*p) == c) {
      return yes;
    }
  }
  return !yes;
}

static int single_matches(matcher *m, const char *s, const char *p, const char *ep) {
  if (s >= m->src_end) return 0;
  int c = uchar(*s);
  switch (*p) {
    case '.': return 1;
    case L_ESC: return class_matches(c, uchar(*(p + 1)));
    case '[': return set_matches(c, p, ep - 1);
    default: return uchar(*p) == c;
  }
}

static const char *match_balance(matcher *m, const char *s, const char *p) {
  if (p >= m->p_end - 1) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
  if (s >= m->src_end || *s != *p) return NULL;
  int open = *p, close = *(p + 1), depth = 1;
  while (++s < m->src_end) {
    step(m);
    if (*s == close) {
      if (--depth == 0) return s + 1;
    } else if (*s == open) {
      depth++;
    }
  }
  return NULL;
}

/* Item p..ep as many times as it matches, then fewer until the rest matches. */
static const char *match_greedy(matcher *m, const char *s, const char *p, const char *ep) {
  ptrdiff_t i = 0;
  while (single_matches(m, s + i, p, ep)) {
    step(m);
    i++;
  }
  while (i >= 0) {
    const char *r = match(m, s + i, ep + 1);
    if (r) return r;
    i--;
  }
  return NULL;
}

/* Item p..ep as few times as lets the rest match. */
static const char *match_lazy(matcher *m, const char *s, const char *p, const char *ep) {
  for (;;) {
    const char *r = match(m, s, ep + 1);
    if (r != NULL) return r;
    if (!single_matches(m, s, p, ep)) return NULL;
    s++;
  }
}

static const char *open_capture(matcher *m, const char *s, const char *p, ptrdiff_t what) {
  int level = m->level;
  if (level >= PATTERN_MAXCAPTURES) luaL_error(m->L, "too many captures");
  m->capture[level].init = s;
  m->capture[level].len = what;
  m->level = level + 1;
  const char *r = match(m, s, p);
  if (r == NULL) m->level--;  /* undo the capture */
  return r;
}

static const char *close_capture(matcher *m, const char *s, const char *p) {
  int l = capture_to_close(m);
  m->capture[l].len = s - m->capture[l].init;
  const char *r = match(m, s, p);
  if (r == NULL) m->capture[l].len = CAP_UNFINISHED;  /* undo the capture */
  return r;
}

static const char *match_backreference(matcher *m, const char *s, int l) {
  l = check_capture(m, l);
  size_t len = (size_t)m->capture[l].len;
  if ((size_t)(m->src_end - s) >= len && memcmp(m->capture[l].init, s, len) == 0) return s + len;
  return NULL;
}

static const char *match(matcher *m, const char *s, const char *p) {
  if (m->depth_left-- == 0) luaL_error(m->L, "pattern too complex");
again:
  step(m);
  if (p != m->p_end) {
    switch (*p) {
      case '(':
        if (*(p + 1) == ')') s = open_capture(m, s, p + 2, CAP_POSITION);
        else s = open_capture(m, s, p + 1, CAP_UNFINISHED);
        break;
      case ')':
        s = close_capture(m, s, p + 1);
        break;
      case '$':
        if (p + 1 != m->p_end) goto item;  /* '$' not at the end is an ordinary character */
        s = s == m->src_end ? s : NULL;
        break;
      case L_ESC:
        switch (*(p + 1)) {
          case 'b':
            s = match_balance(m, s, p + 2);
            if (s != NULL) {
              p += 4;
              goto again;
            }
            break;
          case 'f': {
            p += 2;
            if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
            const char *ep = class_end(m, p);
            int before = s == m->src_init ? '\0' : uchar(*(s - 1));
            int at = s < m->src_end ? uchar(*s) : '\0';
            if (!set_matches(before, p, ep - 1) && set_matches(at, p, ep - 1)) {
              p = ep;
              goto again;
            }
            s = NULL;
            break;
          }
          case '0': case '1': case '2': case '3': case '4':
          case '5': case '6': case '7': case '8': case '9':
            s = match_backreference(m, s, uchar(*(p + 1)));
            if (s != NULL) {
              p += 2;
              goto again;
            }
            break;
          default:
            goto item;
        }
        break;
      default:
      item: {
        const char *ep = class_end(m, p);
        if (!single_matches(m, s, p, ep)) {
          if (*ep == '*' || *ep == '?' || *ep == '-') {  /* zero times is a match */
            p = ep + 1;
            goto again;
          }
          s = NULL;
        } else {
          switch (*ep) {
            case '?': {
              const char *r = match(m, s + 1, ep + 1);
              if (r != NULL) {
                s = r;
              } else {
                p = ep + 1;
                goto again;
              }
              break;
            }
            case '+': s = match_greedy(m, s + 1, p, ep); break;
            case '*': s = match_greedy(m, s, p, ep); break;
            case '-': s = match_lazy(m, s, p, ep); break;
            default:
              s++;
              p = ep;
              goto again;
          }
        }
        break;
      }
    }
  }
  m->depth_left++;
  return s;
}

/* Capture i's length, with *cap its start; for a position capture, pushes the position. */
static ptrdiff_t capture_of(matcher *m, int i, const char *s, const char *e, const char **cap) {
  if (i >= m->level) {
    if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
    *cap = s;  /* no captures: the whole match */
    return e - s;
  }
  ptrdiff_t len = m->capture[i].len;
  *cap = m->capture[i].init;
  if (len == CAP_UNFINISHED) luaL_error(m->L, "unfinished capture");
  else if (len == CAP_POSITION) lua_pushinteger(m->L, (m->capture[i].init - m->src_init) + 1);
  return len;
}

static void push_capture(matcher *m, int i, const char *s, const char *e) {
  const char *cap;
  ptrdiff_t len = capture_of(m, i, s, e, &cap);
  if (len != CAP_POSITION) lua_pushlstring(m->L, cap, (size_t)len);
}

static int push_captures(matcher *m, const char *s, const char *e) {
  int n = (m->level == 0 && s) ? 1 : m->level;
  luaL_checkstack(m->L, n, "too many captures");
  for (int i = 0; i < n; i++) push_capture(m, i, s, e);
  return n;
}

static void matcher_init(matcher *m, lua_State *L, const char *s, size_t ls, const char *p, size_t lp) {
  m->L = L;
  m->src_init = s;
  m->src_end = s + ls;
  m->p_end = p + lp;
  m->steps = 0;
  m->level = 0;
  m->depth_left = PATTERN_MAXDEPTH;
}

static void matcher_restart(matcher *m) {
  m->level = 0;
  m->depth_left = PATTERN_MAXDEPTH;
}

static int no_specials(const char *p, size_t l) {
  size_t upto = 0;
  do {
    if (strpbrk(p + upto, SPECIALS)) return 0;
    upto += strlen(p + upto) + 1;  /* over the '\0' (patterns may hold zeros) */
  } while (upto <= l);
  return 1;
}

/* Plain search: where s2 first occurs in s1. Each candidate position costs l2 steps. */
static const char *find_plain(matcher *m, const char *s1, size_t l1, const char *s2, size_t l2) {
  if (l2 == 0) return s1;
  if (l2 > l1) return NULL;
  const char *init;
  l2--;  /* the first character is found by memchr */
  l1 = l1 - l2;
  while (l1 > 0 && (init = (const char *)memchr(s1, *s2, l1)) != NULL) {
    m->steps += (long long)l2 + 1;
    if (m->steps >= CHARGE_EVERY) pay(m);
    init++;
    if (memcmp(init, s2 + 1, l2) == 0) return init - 1;
    l1 -= (size_t)(init - s1);
    s1 = init;
  }
  return NULL;
}

/* A relative initial position (negative: from the end) as 1..len+1, or more. */
static size_t start_position(lua_Integer pos, size_t len) {
  if (pos > 0) return (size_t)pos;
  if (pos == 0) return 1;
  if (pos < -(lua_Integer)len) return 1;
  return len + (size_t)pos + 1;
}

static int find_or_match(lua_State *L, int find) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_position(luaL_optinteger(L, 3, 1), ls) - 1;
  if (init > ls) {
    luaL_pushfail(L);
    return 1;
  }
  matcher m;
  matcher_init(&m, L, s, ls, p, lp);
  if (find && (lua_toboolean(L, 4) || no_specials(p, lp))) {
    const char *at = find_plain(&m, s + init, ls - init, p, lp);
    pay(&m);
    if (at) {
      lua_pushinteger(L, (at - s) + 1);
      lua_pushinteger(L, (lua_Integer)((at - s) + lp));
      return 2;
    }
  } else {
    const char *s1 = s + init;
    int anchor = *p == '^';
    if (anchor) {
      p++;
      lp--;
    }
    matcher_init(&m, L, s, ls, p, lp);
    do {
      matcher_restart(&m);
      const char *e = match(&m, s1, p);
      if (e != NULL) {
        pay(&m);
        if (find) {
          lua_pushinteger(L, (s1 - s) + 1);
          lua_pushinteger(L, e - s);
          return push_captures(&m, NULL, 0) + 2;
        }
        return push_captures(&m, s1, e);
      }
    } while (s1++ < m.src_end && !anchor);
    pay(&m);
  }
  luaL_pushfail(L);
  return 1;
}

int ls_str_find(lua_State *L) { return find_or_match(L, 1); }
int ls_str_match(lua_State *L) { return find_or_match(L, 0); }

typedef struct {
  const char *src;
  const char *p;
  const char *lastmatch;
  matcher m;
} gmatch_state;

static int gmatch_next(lua_State *L) {
  gmatch_state *g = (gmatch_state *)lua_touserdata(L, lua_upvalueindex(3));
  g->m.L = L;
  for (const char *src = g->src; src <= g->m.src_end; src++) {
    matcher_restart(&g->m);
    const char *e = match(&g->m, src, g->p);
    if (e != NULL && e != g->lastmatch) {
      g->src = g->lastmatch = e;
      pay(&g->m);
      return push_captures(&g->m, src, e);
    }
  }
  pay(&g->m);
  return 0;
}

int ls_str_gmatch(lua_State *L) {
  size_t ls, lp;
  const char *s = luaL_checklstring(L, 1, &ls);
  const char *p = luaL_checklstring(L, 2, &lp);
  size_t init = start_position(luaL_optinteger(L, 3, 1), ls) - 1;
  lua_settop(L, 2);  /* the closure keeps both strings */
  gmatch_state *g = (gmatch_state *)lua_newuserdatauv(L, sizeof(gmatch_state), 0);
  if (init > ls) init = ls + 1;  /* past the end: no match */
  matcher_init(&g->m, L, s, ls, p, lp);
  g->src = s + init;
  g->p = p;
  g->lastmatch = NULL;
  lua_pushcclosure(L, gmatch_next, 3);
  return 1;
}

static void add_replacement_string(matcher *m, luaL_Buffer *b, const char *s, const char *e) {
  lua_State *L = m->L;
  size_t l;
  const char *news = lua_tolstring(L, 3, &l);
  const char *p;
  while ((p = (const char *)memchr(news, L_ESC, l)) != NULL) {
    luaL_addlstring(b, news, (size_t)(p - news));
    p++;  /* the character after the escape */
    if (*p == L_ESC) {
      luaL_addchar(b, *p);
    } else if (*p == '0') {
      luaL_addlstring(b, s, (size_t)(e - s));
    } else if (isdigit(uchar(*p))) {
      const char *cap;
      ptrdiff_t len = capture_of(m, *p - '1', s, e, &cap);
      if (len == CAP_POSITION) luaL_addvalue(b);
      else luaL_addlstring(b, cap, (size_t)len);
    } else {
      luaL_error(L, "invalid use of '%c' in replacement string", L_ESC);
    }
    l -= (size_t)(p + 1 - news);
    news = p + 1;
  }
  luaL_addlstring(b, news, l);
}

/* Adds the replacement of the match s..e; returns whether it changed the text. */
static int add_replacement(matcher *m, luaL_Buffer *b, const char *s, const char *e, int tr) {
  lua_State *L = m->L;
  switch (tr) {
    case LUA_TFUNCTION: {
      lua_pushvalue(L, 3);
      int n = push_captures(m, s, e);
      lua_call(L, n, 1);
      break;
    }
    case LUA_TTABLE:
      push_capture(m, 0, s, e);
      lua_gettable(L, 3);
      break;
    default:
      add_replacement_string(m, b, s, e);
      return 1;
  }
  if (!lua_toboolean(L, -1)) {  /* nil or false: keep the original text */
    lua_pop(L, 1);
    luaL_addlstring(b, s, (size_t)(e - s));
    return 0;
  }
  if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  luaL_addvalue(b);
  return 1;
}

int ls_str_gsub(lua_State *L) {
  size_t srcl, lp;
  const char *src = luaL_checklstring(L, 1, &srcl);
  const char *p = luaL_checklstring(L, 2, &lp);
  const char *lastmatch = NULL;
  int tr = lua_type(L, 3);
  lua_Integer max_s = luaL_optinteger(L, 4, (lua_Integer)srcl + 1);
  int anchor = *p == '^';
  lua_Integer n = 0;
  int changed = 0;
  matcher m;
  luaL_Buffer b;
  luaL_argexpected(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
                   "string/function/table");
  luaL_buffinit(L, &b);
  if (anchor) {
    p++;
    lp--;
  }
  matcher_init(&m, L, src, srcl, p, lp);
  while (n < max_s) {
    matcher_restart(&m);
    const char *e = match(&m, src, p);
    if (e != NULL && e != lastmatch) {
      n++;
      pay(&m);  /* before a replacement function runs */
      changed = add_replacement(&m, &b, src, e, tr) | changed;
      src = lastmatch = e;
    } else if (src < m.src_end) {
      luaL_addchar(&b, *src++);
    } else {
      break;
    }
    if (anchor) break;
  }
  pay(&m);
  if (!changed) {
    lua_pushvalue(L, 1);
  } else {
    luaL_addlstring(&b, src, (size_t)(m.src_end - src));
    luaL_pushresult(&b);
  }
  lua_pushinteger(L, n);
  return 2;
}

