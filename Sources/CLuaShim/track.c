// Write tracking for explore states: the pages of a state's arena are
// write-protected after a base is saved, and the first write to each makes
// it writable and marks it written, so that saving a delta and restoring the
// base compare and copy only the written pages. It is a speed-up only: every
// path where the kernel refuses (no handler, no mprotect) falls back to
// comparing and copying every page, which gives the same bytes. The fault
// handler is installed by the first state tracked, never by the library on
// its own, and passes every fault that is not on a tracked page to the
// handler that was there before it (an embedding app's crash reporter).
#include "shim_internal.h"
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <pthread.h>
#include <errno.h>
#include <unistd.h>

#define TRACK_SLOTS 16
#define TRACK_BYTES ((size_t)64 << 20)  /* the largest base state tracked */
#define TRACK_PAGES 16384               /* TRACK_BYTES in the smallest page (4 KB) */

/* A tracked state's slot: which of its pages were written since tracking
   began. The fault handler finds the slot by the faulting address, so it
   reads only static memory. */
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
/* Linux reports a write to a protected page as SIGSEGV, Darwin as SIGBUS. */
static struct sigaction previous_segv, previous_bus;
static int track_handler_installed;
/* The kernel's page: 4 KB on most Linux machines, 16 KB on Apple silicon. */
static size_t page;
static unsigned page_shift;  /* page == 1 << page_shift: the hot loops shift rather than divide */

static void pass_on(int sig, siginfo_t *si, void *context) {
  struct sigaction *previous = sig == SIGBUS ? &previous_bus : &previous_segv;
  if (previous->sa_flags & SA_SIGINFO) {
    previous->sa_sigaction(sig, si, context);
  } else if (previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
    previous->sa_handler(sig);
  } else {
    signal(sig, SIG_DFL);  /* the fault comes again, and ends the process */
  }
}

static void track_fault(int sig, siginfo_t *si, void *context) {
  char *a = (char *)si->si_addr;
  for (int i = 0; i < TRACK_SLOTS; i++) {
    ls_track_slot *t = &track_slots[i];
    char *start = __atomic_load_n(&t->start, __ATOMIC_ACQUIRE);
    if (start == NULL || a < start || a >= start + t->end) continue;
    size_t p = (size_t)(a - start) >> page_shift;
    int saved_errno = errno;
    int refused = t->refuse > 0;
    if (refused) t->refuse--;
    if (!refused && mprotect(start + p * page, page, PROT_READ | PROT_WRITE) == 0) {
      t->hot[p] = 1;
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
      memset(t->hot, 1, t->end >> page_shift);
      t->all_hot = 1;
      errno = saved_errno;
      return;
    }
    errno = saved_errno;
    break;
  }
  pass_on(sig, si, context);
}

static void track_install(void) {
  long size = sysconf(_SC_PAGESIZE);
  if (size <= 0 || (size & (size - 1)) != 0 || TRACK_BYTES / (size_t)size > TRACK_PAGES) return;
  page = (size_t)size;
  while (((size_t)1 << page_shift) < page) page_shift++;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = track_fault;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGSEGV, &sa, &previous_segv) != 0) return;
  if (sigaction(SIGBUS, &sa, &previous_bus) != 0) {
    sigaction(SIGSEGV, &previous_segv, NULL);
    return;
  }
  track_handler_installed = 1;
}

int ls_snapshot_track(lua_State *L, const void *base) {
  ls_state *S = ls_getstate(L);
  pthread_once(&track_once, track_install);
  if (!track_handler_installed) return 0;
  const ls_arena *b = (const ls_arena *)((const char *)base + sizeof(ls_snapshot_header));
  size_t btop = b->top, end = btop / page * page;
  if (S->arena == NULL || S->track || end > TRACK_BYTES || S->arena->top != btop) return 0;
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
  if (end > page && mprotect((char *)S->arena + page, end - page, PROT_READ) != 0) {
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

void ls_track_release(ls_state *S) {
  if (!S->track) return;
  ls_track_slot *t = &track_slots[S->track - 1];
  /* Writable again before the slot is let go: the arena may be used (or
     unmapped) after, with no handler that knows it. */
  if (t->end > page) mprotect((char *)S->arena + page, t->end - page, PROT_READ | PROT_WRITE);
  __atomic_store_n(&t->start, NULL, __ATOMIC_RELEASE);
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

void ls_snapshot_track_forget(lua_State *L) {
  ls_state *S = ls_getstate(L);
  if (!S->track) return;
  ls_track_slot *t = &track_slots[S->track - 1];
  for (size_t p = 1, n = t->end >> page_shift; p < n; p++) t->hot[p] = 0;
}

static ls_page_filter filter_of(const ls_state *S, const unsigned char *differs) {
  const ls_track_slot *t = &track_slots[S->track - 1];
  ls_page_filter f = { t->hot, differs, t->end, page_shift };
  return f;
}

size_t ls_snapshot_delta_tracked(lua_State *L, void *dst) {
  ls_state *S = ls_getstate(L);
  ls_page_filter f = filter_of(S, NULL);
  return ls_delta_into(S, S->track_base, S->track_top, (char *)dst, &f);
}

int ls_snapshot_rebase_begin(lua_State *L, const void *base) {
  ls_state *S = ls_getstate(L);
  if (!S->track) return 0;
  const ls_track_slot *t = &track_slots[S->track - 1];
  const char *b = (const char *)base + sizeof(ls_snapshot_header);
  size_t btop = ((const ls_arena *)b)->top, pages = t->end >> page_shift;
  free(S->track_differs);
  S->track_differs = (unsigned char *)calloc(pages ? pages : 1, 1);
  if (S->track_differs == NULL) return 0;
  /* Past the new base's top, its bytes are not compared: a page there differs. */
  for (size_t p = 0; p < pages; p++)
    S->track_differs[p] = (p + 1) * page > btop || memcmp(S->track_base + p * page, b + p * page, page) != 0;
  return 1;
}

size_t ls_snapshot_delta_rebased(lua_State *L, const void *base, void *dst) {
  ls_state *S = ls_getstate(L);
  const ls_arena *b = (const ls_arena *)((const char *)base + sizeof(ls_snapshot_header));
  ls_page_filter f = filter_of(S, S->track_differs);
  return ls_delta_into(S, (const char *)b, b->top, (char *)dst, &f);
}

int ls_snapshot_rebase_finish(lua_State *L, const void *base) {
  ls_state *S = ls_getstate(L);
  if (!S->track) return 0;
  ls_track_slot *t = &track_slots[S->track - 1];
  const ls_arena *b = (const ls_arena *)((const char *)base + sizeof(ls_snapshot_header));
  size_t btop = b->top, end = btop / page * page;
  free(S->track_differs);
  S->track_differs = NULL;
  char *copy = end <= TRACK_BYTES && S->arena->top == btop ? (char *)malloc(btop) : NULL;
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
  int ok = end <= page || mprotect(arena + page, end - page, PROT_READ) == 0;
  memset(t->hot, ok ? 0 : 1, sizeof t->hot);
  t->all_hot = !ok;
  t->hot[0] = 1;
  if (!ok) mprotect(arena + page, end - page, PROT_READ | PROT_WRITE);  /* (a page left protected faults once) */
  t->end = end;
  return 1;
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
     step writes: it stays writable. A page the kernel will not protect
     stays written, and is copied back as before. */
  for (size_t p = 1, n = t->end >> page_shift; p < n; p++) {
    if (!t->hot[p] || memcmp(arena + p * page, S->track_base + p * page, page) != 0) continue;
    if (mprotect(arena + p * page, page, PROT_READ) == 0) t->hot[p] = 0;
  }
}

void ls_snapshot_restore_tracked(lua_State *L, const void *delta) {
  ls_state *S = ls_getstate(L);
  ls_track_slot *t = &track_slots[S->track - 1];
  char *arena = (char *)S->arena;
  /* The pages nobody wrote hold the base's bytes already. (A delta may write
     one of them below, which the fault handler lets through.) */
  for (size_t p = 0, n = t->end >> page_shift; p < n; p++)
    if (t->hot[p]) memcpy(arena + p * page, S->track_base + p * page, page);
  memcpy(arena + t->end, S->track_base + t->end, S->track_top - t->end);
  if (delta) ls_apply_delta(S, delta);
  else {
    S->used = S->track_used;
    S->run_remaining = S->track_run_remaining;
  }
  if (++S->track_restores % TRACK_REARM == 0) track_rearm(S, t);
  ls_restored(S);
}
