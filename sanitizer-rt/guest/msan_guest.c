/* msan_guest.c — MemorySanitizer's guest glue (see msan_guest.h): guest
 * memory's shadow, the malloc family and string functions with their shadow
 * effects, system calls' reads and writes, MSAN_OPTIONS and the report. The
 * allocator is the guest glue's (calls.c: the core's chunks on guest pages);
 * what MSan adds is the shadow around it. */
#define _GNU_SOURCE
#include "msan_guest.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint8_t *shadow; /* shadow of guest address 0 */
static uint8_t *origin; /* with origins: the origin (4 bytes per 4-byte granule) of guest address 0, else NULL */
static uint64_t window;
static int warnings;
static struct {
  bool halt_on_error, report_umrs, poison_in_malloc, poison_in_free;
  int exit_code;
} opts = {true, true, true, true, 1};

static inline uint8_t *H(uintptr_t a) { return (uint8_t *)(a + kit_guest_delta()); }
static inline bool in_window(uintptr_t a, size_t n) { return a < window && n <= window - a; }

static void option(const char *name, const char *val) {
  bool on = !strcmp(val, "1") || !strcmp(val, "true") || !strcmp(val, "yes");
  if (!strcmp(name, "halt_on_error")) opts.halt_on_error = on;
  else if (!strcmp(name, "exit_code") || !strcmp(name, "exitcode")) opts.exit_code = atoi(val);
  else if (!strcmp(name, "report_umrs")) opts.report_umrs = on;
  else if (!strcmp(name, "poison_in_malloc")) opts.poison_in_malloc = on;
  else if (!strcmp(name, "poison_in_free")) opts.poison_in_free = on;
}

void kit_msan_guest_init(uint8_t *shadow_host, uint64_t win, bool recover) {
  shadow = shadow_host;
  window = win;
  /* the shared names (symbolize, strip_path_prefix, ...) to the core's parser */
  const char *s = getenv("MSAN_OPTIONS");
  kit_san_options_parse(&kit_san_opts, s, NULL, "MemorySanitizer");
  while (s && *s) {
    char item[256];
    size_t n = strcspn(s, ": ,\t\n");
    if (n && n < sizeof item) {
      memcpy(item, s, n);
      item[n] = 0;
      char *eq = strchr(item, '=');
      if (eq) {
        *eq = 0;
        option(item, eq + 1);
      }
    }
    s += n;
    if (*s) s++;
  }
  if (!recover) opts.halt_on_error = true;
  kit_san_opts.exitcode = opts.exit_code;
}

bool kit_msan_guest_halt_on_error(void) { return opts.halt_on_error; }

void kit_msan_guest_poison(uintptr_t a, size_t n) {
  if (n && in_window(a, n)) memset(shadow + a, 0xff, n);
}

void kit_msan_guest_unpoison(uintptr_t a, size_t n) {
  if (n && in_window(a, n)) memset(shadow + a, 0, n);
}

static void copy_origin(uintptr_t d, uintptr_t s, size_t n);

static void copy_shadow(uintptr_t d, uintptr_t s, size_t n) {
  if (n && in_window(d, n) && in_window(s, n)) memmove(shadow + d, shadow + s, n);
  copy_origin(d, s, n);
}

/* ---- origins (kit-emu --sanitize-memory-track-origins) ---- */

/* an id's top 3 bits: what its low 29 index (the depot's stacks here) */
enum { KIND_SHIFT = 29, KIND_HEAP = 1, KIND_FREED = 2, KIND_STACK = 3 };
#define STACK_PCS (1u << 16) /* distinct pcs that make frames (a table of stack origins) */
static uint64_t stack_pc[STACK_PCS];
static int stack_lock;

void kit_msan_guest_set_origins(uint8_t *origin_host) { origin = origin_host; }

static inline uint32_t *origin_at(uintptr_t a) { return (uint32_t *)(origin + (a & ~3ull)); }

static void set_origin(uintptr_t a, size_t n, uint32_t id) {
  if (!origin || !n || !in_window(a, n)) return;
  for (uint32_t *o = origin_at(a), *e = origin_at(a + n - 1); o <= e; o++) *o = id;
}

/* a heap (de)allocation's: the guest stack with the replaced function's entry as frame #0 */
static uint32_t heap_origin(uintptr_t entry, bool freed) {
  if (!origin || kit_san_in_report) return 0;
  return (uint32_t)(freed ? KIND_FREED : KIND_HEAP) << KIND_SHIFT | (kit_guest_stack_here(entry) & ((1u << KIND_SHIFT) - 1));
}

/* after the shadow moved: each destination granule with an uninitialized
 * byte takes the origin of the source byte at its offset */
static void copy_origin(uintptr_t d, uintptr_t s, size_t n) {
  if (!origin || !n || !in_window(d, n) || !in_window(s, n)) return;
  uintptr_t first = d & ~3ull, last = (d + n - 1) & ~3ull;
  bool backward = d > s && d < s + n;
  for (uintptr_t k = 0; k <= (last - first) / 4; k++) {
    uintptr_t g = backward ? last - 4 * k : first + 4 * k;
    uintptr_t lo = g < d ? d : g, hi = g + 4 > d + n ? d + n : g + 4;
    bool poisoned = false;
    for (uintptr_t b = lo; b < hi; b++) poisoned |= shadow[b] != 0;
    if (poisoned) *origin_at(g) = *origin_at(s + (lo - d));
  }
}

/* a frame made at guest pc: KIND_STACK and pc's slot in stack_pc (0: the table is full) */
static uint32_t stack_origin(uint64_t pc) {
  uint32_t h = (uint32_t)((pc >> 1) * 0x9e3779b1u) & (STACK_PCS - 1), id = 0;
  while (__atomic_exchange_n(&stack_lock, 1, __ATOMIC_ACQUIRE))
    ;
  for (uint32_t k = 0; k < 64; k++, h = (h + 1) & (STACK_PCS - 1)) {
    if (stack_pc[h] == pc || !stack_pc[h]) {
      stack_pc[h] = pc;
      id = (uint32_t)KIND_STACK << KIND_SHIFT | h;
      break;
    }
  }
  __atomic_store_n(&stack_lock, 0, __ATOMIC_RELEASE);
  return id;
}

static uint32_t origin_of(uintptr_t a) { return origin && in_window(a, 1) ? *origin_at(a) : 0; }

static void describe_origin(uint32_t id) {
  uint32_t kind = id >> KIND_SHIFT;
  if (kind == KIND_STACK) { /* clang's words for a stack object with no name */
    kit_san_printf("  Uninitialized value was created in the stack frame\n");
    uintptr_t pc = (uintptr_t)stack_pc[id & (STACK_PCS - 1)];
    kit_san_print_stack(&pc, 1);
    return;
  }
  if (kind == KIND_HEAP) kit_san_printf("  Uninitialized value was created by a heap allocation\n");
  else if (kind == KIND_FREED) kit_san_printf("  Uninitialized value was created by a heap deallocation\n");
  else return;
  kit_san_print_stack_id(id & ((1u << KIND_SHIFT) - 1));
}

long kit_msan_guest_first_poisoned(uintptr_t a, size_t n) {
  if (!n || !in_window(a, n)) return -1;
  for (size_t i = 0; i < n; i++)
    if (shadow[a + i]) return (long)i;
  return -1;
}

/* ---- reports ---- */

static void report(uintptr_t pc, const char *what, long off, uintptr_t a, size_t n, uint32_t origin_id);

void kit_msan_guest_report(uintptr_t pc, const char *what, long off, uintptr_t a, size_t n) {
  report(pc, what, off, a, n, what ? origin_of(a + (uintptr_t)off) : 0);
}

void kit_msan_guest_report_origin(uintptr_t pc, uint32_t origin_id) { report(pc, NULL, 0, 0, 0, origin_id); }

static void report(uintptr_t pc, const char *what, long off, uintptr_t a, size_t n, uint32_t origin_id) {
  if (kit_san_in_report) return;
  kit_san_in_report = true;
  warnings++;
  if (what && opts.report_umrs)
    kit_san_printf("Uninitialized bytes in %s at offset %ld inside [%p, %zu)\n", what, off, (void *)a, n);
  kit_san_printf("==%d==WARNING: MemorySanitizer: use-of-uninitialized-value\n", (int)getpid());
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t nf = kit_san_unwind(pc, 0, frames, KIT_SAN_MAX_FRAMES);
  kit_san_print_stack(frames, nf);
  if (origin_id) describe_origin(origin_id);
  /* the summary names the first frame with a source line (the program's
   * code, not libc's), as the native report names the interceptor's caller */
  KitSanSymbol s;
  memset(&s, 0, sizeof s);
  bool found = false;
  for (size_t i = 0; i < nf && !found; i++) {
    KitSanSymbol t;
    memset(&t, 0, sizeof t);
    if (kit_san_symbolize(frames[i], &t) && t.file[0]) s = t, found = true;
  }
  if (!found) kit_san_symbolize(pc, &s);
  char loc[1024];
  kit_san_format_location(&s, loc, sizeof loc, true);
  kit_san_printf("SUMMARY: MemorySanitizer: use-of-uninitialized-value %s\n", loc);
  kit_san_in_report = false;
  if (opts.halt_on_error) {
    kit_san_printf("Exiting\n");
    kit_san_die();
  }
}

int kit_msan_guest_exit_status(int status) {
  if (warnings && !opts.halt_on_error) {
    kit_san_printf("MemorySanitizer: %d warnings reported.\n", warnings);
    return opts.exit_code;
  }
  return status;
}

/* a function reads [p, p+n): a report at its entry when a byte is not initialized */
static bool check_read(KitGuestFn fn, uintptr_t entry, uintptr_t p, size_t n) {
  long off = kit_msan_guest_first_poisoned(p, n);
  if (off < 0) return true;
  kit_msan_guest_report(entry, kit_msan_guest_frame_name(fn), off, p, n);
  return false;
}

const char *kit_msan_guest_frame_name(KitGuestFn fn) {
  switch (fn) {
  case KIT_GFN_MEMCPY: return "__msan_memcpy";
  case KIT_GFN_MEMMOVE: return "__msan_memmove";
  case KIT_GFN_MEMSET: return "__msan_memset";
  default: return kit_guest_fn_frame_name(fn);
  }
}

/* ---- the malloc family and string functions ---- */

static size_t gstrlen(uintptr_t s) { return kit_guest_accessible(s, 1, false) ? strlen((const char *)H(s)) : 0; }
static size_t gstrnlen(uintptr_t s, size_t n) {
  return n && kit_guest_accessible(s, 1, false) ? strnlen((const char *)H(s), n) : 0;
}

/* how far two strings (or n bytes) are compared: up to the first difference or terminator */
static size_t compared(uintptr_t a, uintptr_t b, size_t n, bool str) {
  if (!n || !kit_guest_accessible(a, 1, false) || !kit_guest_accessible(b, 1, false)) return 0;
  const uint8_t *x = H(a), *y = H(b);
  size_t i = 0;
  while (i + 1 < n && x[i] == y[i] && (!str || x[i])) i++;
  return i + 1;
}

static size_t usable(uintptr_t entry, uintptr_t caller, uintptr_t p) {
  uint64_t a[4] = {p, 0, 0, 0};
  return p ? (size_t)kit_guest_call(KIT_GFN_MALLOC_USABLE_SIZE, entry, caller, a) : 0;
}

static void fresh(uintptr_t p, size_t n, uintptr_t entry) {
  if (!p || !opts.poison_in_malloc) return;
  kit_msan_guest_poison(p, n);
  if (origin) set_origin(p, n, heap_origin(entry, false));
}

static void poison_freed(uintptr_t p, size_t n, uintptr_t entry) {
  if (!p || !opts.poison_in_free) return;
  kit_msan_guest_poison(p, n);
  if (origin) set_origin(p, n, heap_origin(entry, true));
}

uint64_t kit_msan_guest_call(KitGuestFn fn, uintptr_t entry, uintptr_t caller, const uint64_t a[4]) {
  size_t before = 0, before2 = 0;
  /* what the function will read or how much it copies, from the arguments before it runs */
  switch (fn) {
  case KIT_GFN_FREE:
  case KIT_GFN_REALLOC:
  case KIT_GFN_REALLOCARRAY:
    before = usable(entry, caller, a[0]);
    if (fn == KIT_GFN_FREE) poison_freed(a[0], before, entry);
    break;
  case KIT_GFN_STRCPY:
  case KIT_GFN_STPCPY:
  case KIT_GFN_STRDUP:
    before = gstrlen(fn == KIT_GFN_STRDUP ? a[0] : a[1]) + 1;
    break;
  case KIT_GFN_STRNCPY: before = gstrnlen(a[1], a[2]); break;
  case KIT_GFN_STRNDUP: before = gstrnlen(a[0], a[1]); break;
  case KIT_GFN_STRCAT: before = gstrlen(a[0]), before2 = gstrlen(a[1]) + 1; break;
  case KIT_GFN_STRNCAT: before = gstrlen(a[0]), before2 = gstrnlen(a[1], a[2]); break;
  case KIT_GFN_STRLEN: check_read(fn, entry, a[0], gstrlen(a[0]) + 1); break;
  case KIT_GFN_STRNLEN: {
    size_t l = gstrnlen(a[0], a[1]);
    check_read(fn, entry, a[0], l < a[1] ? l + 1 : l);
    break;
  }
  case KIT_GFN_STRCMP:
  case KIT_GFN_STRNCMP:
  case KIT_GFN_MEMCMP:
  case KIT_GFN_BCMP: {
    bool str = fn == KIT_GFN_STRCMP || fn == KIT_GFN_STRNCMP;
    size_t n = compared(a[0], a[1], fn == KIT_GFN_STRCMP ? SIZE_MAX : a[2], str);
    if (check_read(fn, entry, a[0], n)) check_read(fn, entry, a[1], n);
    break;
  }
  case KIT_GFN_STRCHR:
  case KIT_GFN_STRCHRNUL:
  case KIT_GFN_STRRCHR: {
    size_t l = gstrlen(a[0]);
    if (fn != KIT_GFN_STRRCHR && kit_guest_accessible(a[0], 1, false)) {
      const char *m = memchr((const char *)H(a[0]), (int)(uint8_t)a[1], l);
      if (m) l = (size_t)(m - (const char *)H(a[0]));
    }
    check_read(fn, entry, a[0], l + 1);
    break;
  }
  case KIT_GFN_MEMCHR:
    if (a[2] && kit_guest_accessible(a[0], a[2], false)) {
      const uint8_t *m = memchr(H(a[0]), (int)(uint8_t)a[1], a[2]);
      check_read(fn, entry, a[0], m ? (size_t)(m - H(a[0])) + 1 : a[2]);
    }
    break;
  default:
    break;
  }
  uint64_t r = kit_guest_call(fn, entry, caller, a);
  switch (fn) {
  case KIT_GFN_MALLOC: fresh(r, a[0], entry); break;
  case KIT_GFN_VALLOC:
  case KIT_GFN_PVALLOC: fresh(r, a[0], entry); break;
  case KIT_GFN_MEMALIGN:
  case KIT_GFN_ALIGNED_ALLOC: fresh(r, a[1], entry); break;
  case KIT_GFN_POSIX_MEMALIGN:
    if (!r && kit_guest_accessible(a[0], 8, false)) {
      uint64_t p;
      memcpy(&p, H(a[0]), 8);
      fresh(p, a[2], entry);
      kit_msan_guest_unpoison(a[0], 8);
    }
    break;
  case KIT_GFN_CALLOC:
    if (r) kit_msan_guest_unpoison(r, a[0] * a[1]);
    break;
  case KIT_GFN_REALLOC:
  case KIT_GFN_REALLOCARRAY: {
    size_t n = fn == KIT_GFN_REALLOC ? a[1] : a[1] * a[2];
    if (!a[0]) {
      fresh(r, n, entry);
      break;
    }
    if (!r) {
      if (!n) poison_freed(a[0], before, entry); /* realloc(p, 0) frees */
      break;
    }
    size_t kept = before < n ? before : n;
    if (r != a[0]) {
      copy_shadow(r, a[0], kept);
      poison_freed(a[0], before, entry);
    }
    if (n > kept) fresh(r + kept, n - kept, entry);
    break;
  }
  case KIT_GFN_MEMCPY:
  case KIT_GFN_MEMPCPY:
  case KIT_GFN_MEMMOVE: copy_shadow(a[0], a[1], a[2]); break;
  case KIT_GFN_MEMSET: kit_msan_guest_unpoison(a[0], a[2]); break;
  case KIT_GFN_STRCPY:
  case KIT_GFN_STPCPY: copy_shadow(a[0], a[1], before); break;
  case KIT_GFN_STRNCPY: /* the string, then zeros up to n */
    copy_shadow(a[0], a[1], before);
    if (a[2] > before) kit_msan_guest_unpoison(a[0] + before, a[2] - before);
    break;
  case KIT_GFN_STRCAT: copy_shadow(a[0] + before, a[1], before2); break;
  case KIT_GFN_STRNCAT:
    copy_shadow(a[0] + before, a[1], before2);
    kit_msan_guest_unpoison(a[0] + before + before2, 1);
    break;
  case KIT_GFN_STRDUP:
    if (r) copy_shadow(r, a[0], before);
    break;
  case KIT_GFN_STRNDUP:
    if (r) {
      copy_shadow(r, a[0], before);
      kit_msan_guest_unpoison(r + before, 1);
    }
    break;
  default:
    break;
  }
  return r;
}

/* ---- the stack ---- */

/* Beyond this a move of sp is a switch to another stack (memcheck's
 * heuristic too), not a frame. */
#define MAX_FRAME (2u << 20)

void kit_msan_guest_sp(uint64_t old, uint64_t new_sp) {
  if (new_sp < old && old - new_sp <= MAX_FRAME) {
    kit_msan_guest_poison(new_sp, old - new_sp);
    set_origin(new_sp, old - new_sp, 0); /* not a heap's, left there before */
  }
}

void kit_msan_guest_sp_at(uint64_t old, uint64_t new_sp, uint64_t pc) {
  if (new_sp < old && old - new_sp <= MAX_FRAME) {
    kit_msan_guest_poison(new_sp, old - new_sp);
    set_origin(new_sp, old - new_sp, stack_origin(pc));
  }
}

/* ---- system calls (Linux's generic numbers) ---- */

enum { NONE, RET, FIXED, IOV }; /* how much a call writes through a pointer argument */
typedef struct {
  uint16_t nr;
  const char *name;
  int8_t nargs;
  int8_t reads_ptr, reads_len; /* memory read: [args[ptr], args[len]) (-1: none) */
  int8_t w_ptr;                /* memory written at args[w_ptr] ... */
  uint8_t w_kind;              /* ... RET bytes, FIXED w_size bytes or IOV: an iovec array args[w_ptr+1] long */
  uint16_t w_size;
} Sys;

static const Sys sys_table[] = {
    {17, "getcwd", 2, -1, -1, 0, RET, 0},
    {19, "eventfd2", 2, -1, -1, -1, NONE, 0},
    {20, "epoll_create1", 1, -1, -1, -1, NONE, 0},
    {21, "epoll_ctl", 4, -1, -1, -1, NONE, 0},
    {22, "epoll_pwait", 5, -1, -1, -1, NONE, 0}, /* the events: see syscall_ret */
    {23, "dup", 1, -1, -1, -1, NONE, 0},
    {25, "fcntl", 2, -1, -1, -1, NONE, 0},
    {29, "ioctl", 2, -1, -1, -1, NONE, 0}, /* the argument by request: see syscall_ret */
    {43, "statfs", 1, -1, -1, 1, FIXED, 120},
    {44, "fstatfs", 1, -1, -1, 1, FIXED, 120},
    {56, "openat", 3, -1, -1, -1, NONE, 0},
    {57, "close", 1, -1, -1, -1, NONE, 0},
    {59, "pipe2", 2, -1, -1, 0, FIXED, 8},
    {61, "getdents64", 3, -1, -1, 1, RET, 0},
    {62, "lseek", 3, -1, -1, -1, NONE, 0},
    {63, "read", 3, -1, -1, 1, RET, 0},
    {64, "write", 3, 1, 2, -1, NONE, 0},
    {65, "readv", 3, -1, -1, 1, IOV, 0},
    {66, "writev", 3, -1, -1, -1, NONE, 0},
    {67, "pread64", 4, -1, -1, 1, RET, 0},
    {68, "pwrite64", 4, 1, 2, -1, NONE, 0},
    {69, "preadv", 4, -1, -1, 1, IOV, 0},
    {70, "pwritev", 4, -1, -1, -1, NONE, 0},
    {72, "pselect6", 6, -1, -1, -1, NONE, 0}, /* the fd sets: see syscall_ret */
    {73, "ppoll", 4, -1, -1, -1, NONE, 0},    /* the revents: see syscall_ret */
    {78, "readlinkat", 4, -1, -1, 2, RET, 0},
    {79, "newfstatat", 4, -1, -1, 2, FIXED, 128},
    {80, "fstat", 2, -1, -1, 1, FIXED, 128},
    {93, "exit", 1, -1, -1, -1, NONE, 0},
    {94, "exit_group", 1, -1, -1, -1, NONE, 0},
    {101, "nanosleep", 2, -1, -1, 1, FIXED, 16},
    {113, "clock_gettime", 2, -1, -1, 1, FIXED, 16},
    {114, "clock_getres", 2, -1, -1, 1, FIXED, 16},
    {115, "clock_nanosleep", 4, -1, -1, 3, FIXED, 16},
    {123, "sched_getaffinity", 3, -1, -1, 2, RET, 0},
    {132, "sigaltstack", 2, -1, -1, 1, FIXED, 24},
    {134, "rt_sigaction", 4, -1, -1, 2, FIXED, 32},
    {135, "rt_sigprocmask", 4, -1, -1, 2, FIXED, 8},
    {136, "rt_sigpending", 2, -1, -1, 0, FIXED, 8},
    {137, "rt_sigtimedwait", 4, -1, -1, 1, FIXED, 128}, /* the siginfo (the pointer may be NULL) */
    {153, "times", 1, -1, -1, 0, FIXED, 32},
    {160, "uname", 1, -1, -1, 0, FIXED, 390},
    {163, "getrlimit", 2, -1, -1, 1, FIXED, 16},
    {165, "getrusage", 2, -1, -1, 1, FIXED, 144},
    {169, "gettimeofday", 2, -1, -1, 0, FIXED, 16},
    {179, "sysinfo", 1, -1, -1, 0, FIXED, 112},
    {198, "socket", 3, -1, -1, -1, NONE, 0},
    {199, "socketpair", 4, -1, -1, 3, FIXED, 8},
    {200, "bind", 3, 1, 2, -1, NONE, 0},
    {201, "listen", 2, -1, -1, -1, NONE, 0},
    {203, "connect", 3, 1, 2, -1, NONE, 0},
    {202, "accept", 3, -1, -1, -1, NONE, 0},      /* the address: see syscall_ret */
    {204, "getsockname", 3, -1, -1, -1, NONE, 0}, /* likewise */
    {205, "getpeername", 3, -1, -1, -1, NONE, 0},
    {206, "sendto", 6, 1, 2, -1, NONE, 0},
    {207, "recvfrom", 6, -1, -1, 1, RET, 0},
    {208, "setsockopt", 5, 3, 4, -1, NONE, 0},
    {209, "getsockopt", 5, -1, -1, -1, NONE, 0}, /* the value: see syscall_ret */
    {210, "shutdown", 2, -1, -1, -1, NONE, 0},
    {211, "sendmsg", 3, -1, -1, -1, NONE, 0},    /* the message: see syscall_enter */
    {212, "recvmsg", 3, -1, -1, -1, NONE, 0},    /* see syscall_ret */
    {242, "accept4", 4, -1, -1, -1, NONE, 0},
    {260, "wait4", 4, -1, -1, 1, FIXED, 4},
    {261, "prlimit64", 4, -1, -1, 3, FIXED, 16},
    {278, "getrandom", 3, -1, -1, 0, RET, 0},
    {291, "statx", 5, -1, -1, 4, FIXED, 256},
};

static const Sys *sys_find(uint64_t nr) {
  for (size_t i = 0; i < sizeof sys_table / sizeof *sys_table; i++)
    if (sys_table[i].nr == nr) return &sys_table[i];
  return NULL;
}

int kit_msan_guest_syscall_nargs(uint64_t nr) {
  const Sys *s = sys_find(nr);
  return s ? s->nargs : -1;
}

const char *kit_msan_guest_syscall_name(uint64_t nr) {
  const Sys *s = sys_find(nr);
  return s ? s->name : "syscall";
}

/* struct msghdr of a 64-bit guest: name, namelen, iov, iovlen, control,
 * controllen, flags */
enum { MH_NAME = 0, MH_NAMELEN = 8, MH_IOV = 16, MH_IOVLEN = 24, MH_CONTROL = 32, MH_CONTROLLEN = 40, MH_FLAGS = 48,
       MH_SIZE = 56 };

static uint64_t guest_u64(uintptr_t p) {
  uint64_t v = 0;
  if (kit_guest_accessible(p, 8, false)) memcpy(&v, H(p), 8);
  return v;
}
static uint32_t guest_u32(uintptr_t p) {
  uint32_t v = 0;
  if (kit_guest_accessible(p, 4, false)) memcpy(&v, H(p), 4);
  return v;
}

/* the first uninitialized byte of the n buffers of the iovec array at iov, as
 * a report (what names the call); true when one was made */
static bool check_iov(uintptr_t pc, const char *what, uintptr_t iov, uint64_t n) {
  for (uint64_t i = 0; i < n && i < 1024 && kit_guest_accessible(iov + 16 * i, 16, false); i++) {
    uint64_t v[2];
    memcpy(v, H(iov + 16 * i), 16);
    long off = kit_msan_guest_first_poisoned(v[0], v[1]);
    if (off >= 0) {
      kit_msan_guest_report(pc, what, off, v[0], v[1]);
      return true;
    }
  }
  return false;
}

static bool check_range(uintptr_t pc, const char *what, uintptr_t p, size_t n) {
  long off = p && n ? kit_msan_guest_first_poisoned(p, n) : -1;
  if (off >= 0) kit_msan_guest_report(pc, what, off, p, n);
  return off >= 0;
}

/* the first n bytes the iovec array at iov (cnt long) points to are initialized */
static void unpoison_iov(uintptr_t iov, uint64_t cnt, size_t n) {
  for (uint64_t i = 0; i < cnt && n && kit_guest_accessible(iov + 16 * i, 16, false); i++) {
    uint64_t v[2];
    memcpy(v, H(iov + 16 * i), 16);
    size_t k = v[1] < n ? v[1] : n;
    kit_msan_guest_unpoison(v[0], k);
    n -= k;
  }
}

/* what the kernel wrote at addr, its length in the socklen_t at lenp (an
 * address's may be the untruncated one: at most max) */
static void unpoison_sockaddr(uintptr_t addr, uintptr_t lenp, uint32_t max) {
  if (!addr || !lenp || !kit_guest_accessible(lenp, 4, false)) return;
  kit_msan_guest_unpoison(lenp, 4);
  uint32_t n = guest_u32(lenp);
  kit_msan_guest_unpoison(addr, n < max ? n : max);
}

void kit_msan_guest_syscall_enter(uint64_t nr, const uint64_t args[6], uintptr_t pc) {
  const Sys *s = sys_find(nr);
  if (!s) return;
  if (s->reads_ptr >= 0 && check_range(pc, s->name, args[s->reads_ptr], args[s->reads_len])) return;
  if (nr == 66) check_iov(pc, s->name, args[1], args[2]); /* writev */
  if (nr == 70) check_iov(pc, s->name, args[1], args[2]); /* pwritev */
  if (nr == 211 && kit_guest_accessible(args[1], MH_SIZE, false)) { /* sendmsg: what it sends, as memcheck */
    uintptr_t m = args[1];
    if (!check_range(pc, "sendmsg(msg.msg_name)", guest_u64(m + MH_NAME), guest_u32(m + MH_NAMELEN)) &&
        !check_iov(pc, "sendmsg(msg.msg_iov)", guest_u64(m + MH_IOV), guest_u64(m + MH_IOVLEN)))
      check_range(pc, "sendmsg(msg.msg_control)", guest_u64(m + MH_CONTROL), guest_u64(m + MH_CONTROLLEN));
  }
}

void kit_msan_guest_syscall_ret(uint64_t nr, const uint64_t args[6], int64_t ret) {
  if (ret < 0) return;
  if (nr == 29) { /* ioctl */
    uint32_t req = (uint32_t)args[1];
    if (req == 0x5401) kit_msan_guest_unpoison(args[2], 60);      /* TCGETS */
    else if (req == 0x5413) kit_msan_guest_unpoison(args[2], 8); /* TIOCGWINSZ */
    else if (req == 0x541B || req == 0x540F || req == 0x5429) kit_msan_guest_unpoison(args[2], 4); /* FIONREAD, TIOCGPGRP, TIOCGSID */
    else if (req >> 30 & 2) kit_msan_guest_unpoison(args[2], req >> 16 & 0x3fff); /* _IOR/_IOWR: its size */
    return;
  }
  switch (nr) {
  case 202: case 204: case 205: case 242: /* accept, getsockname, getpeername, accept4 */
    unpoison_sockaddr(args[1], args[2], 128); /* sizeof(struct sockaddr_storage) */
    return;
  case 209: /* getsockopt(fd, level, name, val, lenp) */
    unpoison_sockaddr(args[3], args[4], UINT32_MAX);
    return;
  case 212: /* recvmsg: the name, the data, the control messages, the flags */
    if (kit_guest_accessible(args[1], MH_SIZE, false)) {
      uintptr_t m = args[1];
      kit_msan_guest_unpoison(m + MH_NAMELEN, 4);
      kit_msan_guest_unpoison(m + MH_CONTROLLEN, 8);
      kit_msan_guest_unpoison(m + MH_FLAGS, 4);
      if (guest_u64(m + MH_NAME)) kit_msan_guest_unpoison(guest_u64(m + MH_NAME), guest_u32(m + MH_NAMELEN));
      if (guest_u64(m + MH_CONTROL)) kit_msan_guest_unpoison(guest_u64(m + MH_CONTROL), guest_u64(m + MH_CONTROLLEN));
      unpoison_iov(guest_u64(m + MH_IOV), guest_u64(m + MH_IOVLEN), (size_t)ret);
    }
    return;
  case 22: /* epoll_pwait: ret events of 16 bytes */
    kit_msan_guest_unpoison(args[1], (size_t)ret * 16);
    return;
  case 73: /* ppoll: each pollfd's revents (struct pollfd {int fd; short events, revents;}) */
    for (uint64_t i = 0; i < args[1] && i < 65536; i++) kit_msan_guest_unpoison(args[0] + 8 * i + 6, 2);
    return;
  case 72: /* pselect6: the three fd sets, nfds bits each */
    for (int k = 1; k <= 3; k++)
      if (args[k]) kit_msan_guest_unpoison(args[k], (args[0] + 63) / 64 * 8);
    return;
  default: break;
  }
  if (nr == 169 && args[1]) kit_msan_guest_unpoison(args[1], 8); /* gettimeofday's tz */
  if (nr == 207 && args[4] && kit_guest_accessible(args[5], 4, false)) { /* recvfrom's address */
    uint32_t len;
    memcpy(&len, H(args[5]), 4);
    kit_msan_guest_unpoison(args[5], 4);
    kit_msan_guest_unpoison(args[4], len);
  }
  const Sys *s = sys_find(nr);
  if (!s || s->w_ptr < 0 || !args[s->w_ptr]) return;
  uintptr_t p = args[s->w_ptr];
  switch (s->w_kind) {
  case RET: kit_msan_guest_unpoison(p, (size_t)ret); break;
  case FIXED: kit_msan_guest_unpoison(p, s->w_size); break;
  case IOV: unpoison_iov(p, args[s->w_ptr + 1], (size_t)ret); break;
  default: break;
  }
}
