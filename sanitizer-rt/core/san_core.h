/* san_core.h — the mode-independent ASan runtime core: shadow, options, stack
 * depot, allocator + quarantine, globals, report writer; and the three
 * interfaces a glue layer (native or guest) plugs in: pages, frames, symbols. */
#ifndef KIT_SAN_CORE_H
#define KIT_SAN_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include "kit/san_abi.h"

/* ---- interfaces supplied by the glue ---- */

/* Program memory for the heap. Addresses are in the program's view; the core
 * touches that memory at addr + host_delta (0 natively, guest_base in the emulator). */
typedef struct KitSanPageProvider {
  uintptr_t (*map)(void *ctx, size_t size); /* 0 on failure; page aligned, zeroed */
  void (*unmap)(void *ctx, uintptr_t addr, size_t size);
  void *ctx;
  uintptr_t host_delta;
} KitSanPageProvider;

/* Call stacks. Frames are stored as the pc to print: a return address minus
 * one, except for a faulting pc which is exact. */
typedef struct KitSanFrameSource {
  /* Unwind from the frame that holds pc, whose frame pointer is bp. */
  size_t (*unwind)(void *ctx, uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max);
  void *ctx;
} KitSanFrameSource;

typedef struct KitSanSymbol {
  char func[256];   /* "" when unknown */
  char file[512];   /* "" when no line info */
  int line, col;
  char module[512]; /* "" when pc is in no known module */
  uintptr_t module_off;
  char build_id[64]; /* hex, "" when unknown */
} KitSanSymbol;

typedef struct KitSanSymbolizer {
  bool (*symbolize)(void *ctx, uintptr_t pc, KitSanSymbol *out);
  void *ctx;
} KitSanSymbolizer;

typedef struct KitSanPlatform {
  void (*write)(const char *buf, size_t n); /* report output */
  int (*pid)(void);
  __attribute__((noreturn)) void (*die)(int exitcode, bool abort_now);
  int (*tid)(void); /* the current thread's T number; NULL means always T0 */
  /* Chunks that can hold pointers (LSan) are scanned by the glue, not here. */
} KitSanPlatform;

/* ---- options ---- */
typedef struct KitSanOptions {
  bool halt_on_error, abort_on_error, detect_leaks, print_legend, symbolize;
  bool detect_stack_use_after_return, handle_segv, handle_sigbus, handle_sigfpe;
  bool allow_user_poisoning, coverage, check_malloc_usable_size, print_summary;
  bool leak_check_at_exit, replace_str, replace_intrin, intercept_strlen;
  bool allocator_may_return_null;
  int exitcode, verbosity, malloc_fill_byte, malloc_context_size;
  long quarantine_size_mb, redzone, max_redzone, max_malloc_fill_size;
  char log_path[512], strip_path_prefix[512], coverage_dir[512];
} KitSanOptions;

extern KitSanOptions kit_san_opts;
void kit_san_options_defaults(KitSanOptions *o);
/* Parses "a=1:b=2" (':' ',' ' ' '\t' '\n' separate); unknown names are
 * returned via warn (may be NULL). tool is "AddressSanitizer" or "LeakSanitizer". */
void kit_san_options_parse(KitSanOptions *o, const char *s,
                           void (*warn)(const char *name, const char *tool), const char *tool);

/* ---- shadow ---- */
extern uintptr_t kit_san_shadow_base;
static inline uint8_t *kit_san_shadow(uintptr_t addr) {
  return (uint8_t *)(kit_san_shadow_base + (addr >> KIT_SAN_SHADOW_SCALE));
}
void kit_san_shadow_set(uintptr_t addr, size_t size, uint8_t value); /* addr granule aligned */
void kit_san_shadow_unpoison(uintptr_t addr, size_t size); /* addr aligned; partial tail */
void kit_san_shadow_poison_user(uintptr_t addr, size_t size, uint8_t value);
void kit_san_shadow_unpoison_user(uintptr_t addr, size_t size);
bool kit_san_addr_bad(uintptr_t addr);
uintptr_t kit_san_region_bad(uintptr_t addr, size_t size); /* first bad byte or 0 */

/* ---- stack depot ---- */
#define KIT_SAN_MAX_FRAMES 256 /* error stacks; alloc/free ones stop at malloc_context_size */
uint32_t kit_san_depot_put(const uintptr_t *frames, size_t n);
size_t kit_san_depot_get(uint32_t id, const uintptr_t **frames);
size_t kit_san_depot_count(void);

/* ---- quarantine: byte-bounded FIFO of freed chunks ---- */
typedef struct KitSanQuarantine {
  uintptr_t *items;
  size_t *sizes;
  size_t cap, head, len;
  size_t bytes, max_bytes;
} KitSanQuarantine;
void kit_san_quarantine_init(KitSanQuarantine *q, size_t max_bytes);
/* Pushes; then evicts oldest entries while over budget, calling evict(item). */
void kit_san_quarantine_push(KitSanQuarantine *q, uintptr_t item, size_t bytes,
                             void (*evict)(uintptr_t item, void *ctx), void *ctx);
void kit_san_quarantine_drain(KitSanQuarantine *q,
                              void (*evict)(uintptr_t item, void *ctx), void *ctx);

/* ---- allocator ---- */
enum { KIT_CHUNK_AVAILABLE = 0, KIT_CHUNK_ALLOCATED = 2, KIT_CHUNK_QUARANTINED = 3 };
typedef struct KitSanChunkInfo {
  uintptr_t user_beg;
  size_t size;
  int state;
  uint32_t alloc_stack, free_stack;
  int alloc_tid, free_tid;
} KitSanChunkInfo;
typedef enum KitSanFreeResult {
  KIT_FREE_OK, KIT_FREE_DOUBLE, KIT_FREE_BAD, KIT_FREE_MISMATCH
} KitSanFreeResult;

void kit_san_alloc_init(const KitSanPageProvider *pages);
uintptr_t kit_san_alloc(size_t size, size_t align, uint32_t stack, bool zero);
/* On error nothing changes; the caller reports. */
KitSanFreeResult kit_san_free(uintptr_t p, uint32_t stack);
size_t kit_san_alloc_usable_size(uintptr_t p); /* 0 if p is not a live chunk start */
/* Finds the chunk the address belongs to or is nearest (redzones). */
bool kit_san_chunk_find(uintptr_t addr, KitSanChunkInfo *out);
/* Iterates allocated chunks; the callback may set lsan flags through the handle. */
typedef void (*KitSanChunkVisit)(uintptr_t user_beg, size_t size, uint32_t stack, void *ctx);
void kit_san_alloc_foreach_live(KitSanChunkVisit visit, void *ctx);
/* Live chunk containing addr (interior), or 0. */
uintptr_t kit_san_chunk_live_at(uintptr_t addr, size_t *size, uint32_t *stack);
size_t kit_san_alloc_quarantine_bytes(void);
uint8_t *kit_san_chunk_tag(uintptr_t user); /* LSan mark byte of a chunk */
/* Chunks allocated while a report runs (symbolizer, libdwarf) belong to the
 * runtime: LSan treats them as roots and never reports them. */
#define KIT_SAN_LSAN_IGNORED 3
uintptr_t kit_san_host(uintptr_t addr); /* program address -> host pointer value */

/* ---- LeakSanitizer (lsan.c): marking from the glue's roots, the leak report ---- */
typedef struct KitSanLsan KitSanLsan;
typedef struct KitSanLsanRoots {
  /* Scans every root with kit_san_lsan_scan / kit_san_lsan_word. */
  void (*roots)(KitSanLsan *l, void *ctx);
  /* The host pointer of program memory [addr, addr + n) (within one page), NULL
   * when the program cannot read it; NULL view: program addresses are host ones. */
  const void *(*view)(uintptr_t addr, size_t n, void *ctx);
  void *ctx;
} KitSanLsanRoots;
void kit_san_lsan_scan(KitSanLsan *l, uintptr_t beg, uintptr_t end); /* program addresses */
void kit_san_lsan_word(KitSanLsan *l, uint64_t v); /* a register's value */
/* Marks, prints the leak report; returns the number of leaked allocations. */
int kit_san_lsan_check(const KitSanLsanRoots *r);

/* ---- globals ---- */
void kit_san_globals_register(KitSanGlobal *g, size_t n);
void kit_san_globals_unregister(KitSanGlobal *g, size_t n);
/* Describes addr relative to registered globals; returns how many lines. */
int kit_san_globals_describe(uintptr_t addr, size_t size);

/* ---- stack frames (descriptions, fake stack) ---- */
bool kit_san_stack_describe(uintptr_t addr, size_t size);
bool kit_san_fake_stack_owns(uintptr_t addr);
/* each frame of this thread's fake stack in use: locals that
 * detect_stack_use_after_return moved off the stack, which LeakSanitizer
 * must scan as stack */
void kit_san_fake_stack_foreach(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg);

/* ---- start-up both glues share (startup.c) ---- */
/* Options (default_options, then ASAN_OPTIONS, then LSAN_OPTIONS), the report
 * output (stderr, stdout or log_path.PID), the unrecognized-flag warning at
 * verbosity >= 1. Returns the platform for kit_san_core_init: writes to that
 * output, tid as given (NULL: always T0), die flushing stdio first when
 * flush_on_die. */
const KitSanPlatform *kit_san_startup(const char *default_options, int (*tid)(void),
                                      bool flush_on_die);
void kit_san_out_write(const char *buf, size_t n); /* the report output, before init too */
void kit_san_out_default(int fd); /* where reports go without log_path (2 unless said; before kit_san_startup) */

/* ---- init, reports ---- */
void kit_san_core_init(const KitSanPlatform *plat, const KitSanPageProvider *pages,
                       const KitSanFrameSource *frames, const KitSanSymbolizer *sym);
bool kit_san_core_ready(void);
int kit_san_pid(void);
int kit_san_tid(void);
/* Threads: the glue records each creation; reports print "Thread T1 created by T0 here:". */
void kit_san_thread_created(int tid, int parent, uint32_t stack);
void kit_san_describe_thread(int tid);
extern __thread bool kit_san_in_report; /* this thread is writing a report */

void kit_san_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void kit_san_vprintf(const char *fmt, va_list ap);
size_t kit_san_unwind(uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max);
uint32_t kit_san_stack_id(uintptr_t pc, uintptr_t bp);
void kit_san_print_stack(const uintptr_t *frames, size_t n);
void kit_san_print_stack_id(uint32_t id);
bool kit_san_symbolize(uintptr_t pc, KitSanSymbol *out);
/* "file:line:col in func" or "(module+0x..) (BuildId: ..) in func". */
void kit_san_format_location(const KitSanSymbol *s, char *buf, size_t n, bool with_func);

void kit_san_report_begin(void);
__attribute__((noreturn)) void kit_san_die(void);
void kit_san_report_end(bool fatal); /* ABORTING and die if fatal */
void kit_san_print_summary(const char *kind, uintptr_t pc);
/* SEGV/BUS/FPE on unknown address: the rest of the report after
 * DEADLYSIGNAL and report_begin; access 0 read, 1 write, -1 not a SEGV. */
void kit_san_report_deadly(const char *kind, uintptr_t pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, bool high,
                           int access);
void kit_san_print_shadow(uintptr_t addr);

/* Access reports. pc is the instrumented code's pc (a return address), bp its frame. */
void kit_san_report_access(uintptr_t pc, uintptr_t bp, uintptr_t sp, uintptr_t addr,
                           size_t size, bool write, bool fatal);
void kit_san_report_free(uintptr_t pc, uintptr_t bp, uintptr_t addr, KitSanFreeResult why);
void kit_san_report_overlap(uintptr_t pc, uintptr_t bp, const char *fn, uintptr_t a,
                            size_t an, uintptr_t b, size_t bn);
#define KIT_SAN_MAX_ALLOC (1ULL << 40) /* the size field holds less than this */
void kit_san_report_too_big(uintptr_t pc, uintptr_t bp, size_t size);
void kit_san_report_calloc_overflow(uintptr_t pc, uintptr_t bp, size_t n, size_t size);
void kit_san_describe_address(uintptr_t addr, size_t size);
extern int kit_san_reports;

#endif
