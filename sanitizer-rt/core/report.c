/* report.c — the report writer's common parts, laid out as AddressSanitizer's:
 * the banner, symbolized frames, SUMMARY, the shadow dump and legend, ABORTING.
 * Output goes through the platform's write; frames through the frame source. */
#include "san_core.h"
#include <stdio.h>
#include <string.h>

static KitSanPlatform plat;
static KitSanFrameSource frame_src;
static KitSanSymbolizer symz;
static bool ready;
__thread bool kit_san_in_report;
static int report_lock; /* one report at a time; a fatal one never lets go */
int kit_san_reports;
static void (*report_cb)(const char *);
static char cb_buf[1 << 16];
static size_t cb_len;

void kit_san_core_init(const KitSanPlatform *p, const KitSanPageProvider *pages,
                       const KitSanFrameSource *frames, const KitSanSymbolizer *sym) {
  plat = *p;
  frame_src = *frames;
  symz = *sym;
  kit_san_alloc_init(pages);
  ready = true;
}

bool kit_san_core_ready(void) { return ready; }

void __asan_set_error_report_callback(void (*callback)(const char *)) { report_cb = callback; }
int __asan_report_present(void) { return kit_san_reports > 0; }

void kit_san_vprintf(const char *fmt, va_list ap) {
  char buf[4096];
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  if (n < 0)
    return;
  if ((size_t)n >= sizeof buf)
    n = sizeof buf - 1;
  if (report_cb && kit_san_in_report && cb_len + n < sizeof cb_buf) {
    memcpy(cb_buf + cb_len, buf, n);
    cb_len += n;
    cb_buf[cb_len] = 0;
  }
  if (plat.write)
    plat.write(buf, (size_t)n);
}

void kit_san_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kit_san_vprintf(fmt, ap);
  va_end(ap);
}

int kit_san_pid(void) { return plat.pid ? plat.pid() : 0; }
int kit_san_tid(void) { return plat.tid ? plat.tid() : 0; }

size_t kit_san_unwind(uintptr_t pc, uintptr_t bp, uintptr_t *out, size_t max) {
  if (!frame_src.unwind) {
    out[0] = pc;
    return 1;
  }
  return frame_src.unwind(frame_src.ctx, pc, bp, out, max);
}

uint32_t kit_san_stack_id(uintptr_t pc, uintptr_t bp) {
  uintptr_t f[KIT_SAN_MAX_FRAMES];
  size_t lim = kit_san_opts.malloc_context_size > 0 ? (size_t)kit_san_opts.malloc_context_size : 1;
  size_t n = kit_san_unwind(pc, bp, f, lim < KIT_SAN_MAX_FRAMES ? lim : KIT_SAN_MAX_FRAMES);
  return kit_san_depot_put(f, n);
}

static const char *strip(const char *path) {
  const char *pre = kit_san_opts.strip_path_prefix;
  size_t n = strlen(pre);
  if (n && !strncmp(path, pre, n))
    return path + n;
  return path;
}

bool kit_san_symbolize(uintptr_t pc, KitSanSymbol *out) {
  memset(out, 0, sizeof *out);
  if (!symz.symbolize)
    return false;
  bool saved = kit_san_in_report;
  kit_san_in_report = true;
  bool ok = symz.symbolize(symz.ctx, pc, out);
  kit_san_in_report = saved;
  if (!kit_san_opts.symbolize) {
    out->func[0] = 0;
    out->file[0] = 0;
  }
  return ok;
}

static int module_text(const KitSanSymbol *s, char *buf, size_t n) {
  if (!s->module[0])
    return snprintf(buf, n, "(<unknown module>)");
  int k = snprintf(buf, n, "(%s+0x%lx)", strip(s->module), (unsigned long)s->module_off);
  if (s->build_id[0] && k >= 0 && (size_t)k < n)
    k += snprintf(buf + k, n - k, " (BuildId: %s)", s->build_id);
  return k;
}

void kit_san_format_location(const KitSanSymbol *s, char *buf, size_t n, bool with_func) {
  int k = 0;
  if (s->file[0]) {
    if (s->col)
      k = snprintf(buf, n, "%s:%d:%d", strip(s->file), s->line, s->col);
    else
      k = snprintf(buf, n, "%s:%d", strip(s->file), s->line);
  } else {
    k = module_text(s, buf, n);
  }
  if (with_func && s->func[0] && k >= 0 && (size_t)k < n)
    snprintf(buf + k, n - k, " in %s", s->func);
}

void kit_san_print_stack(const uintptr_t *frames, size_t n) {
  for (size_t i = 0; i < n; i++) {
    KitSanSymbol s;
    kit_san_symbolize(frames[i], &s);
    char loc[1200];
    if (s.func[0] && s.file[0]) {
      kit_san_format_location(&s, loc, sizeof loc, false);
      kit_san_printf("    #%zu 0x%012lx in %s %s\n", i, (unsigned long)frames[i], s.func, loc);
    } else {
      module_text(&s, loc, sizeof loc);
      if (s.func[0])
        kit_san_printf("    #%zu 0x%012lx in %s %s\n", i, (unsigned long)frames[i], s.func, loc);
      else
        kit_san_printf("    #%zu 0x%012lx %s\n", i, (unsigned long)frames[i], loc);
    }
  }
  kit_san_printf("\n");
}

void kit_san_print_stack_id(uint32_t id) {
  const uintptr_t *f;
  size_t n = kit_san_depot_get(id, &f);
  if (!n) {
    kit_san_printf("    <empty stack>\n\n");
    return;
  }
  kit_san_print_stack(f, n);
}

void kit_san_report_begin(void) {
  kit_san_in_report = true;
  while (__atomic_exchange_n(&report_lock, 1, __ATOMIC_ACQUIRE))
    ;
  cb_len = 0;
  kit_san_reports++;
  kit_san_printf("=================================================================\n");
}

__attribute__((noreturn)) void kit_san_die(void) {
  if (plat.die)
    plat.die(kit_san_opts.exitcode, kit_san_opts.abort_on_error);
  __builtin_trap();
}

void kit_san_report_end(bool fatal) {
  if (fatal)
    kit_san_printf("==%d==ABORTING\n", kit_san_pid());
  if (report_cb)
    report_cb(cb_buf);
  if (fatal)
    kit_san_die();
  kit_san_in_report = false;
  __atomic_store_n(&report_lock, 0, __ATOMIC_RELEASE);
}

void kit_san_print_summary(const char *kind, uintptr_t pc) {
  if (!kit_san_opts.print_summary)
    return;
  KitSanSymbol s;
  kit_san_symbolize(pc, &s);
  char loc[1300];
  kit_san_format_location(&s, loc, sizeof loc, true);
  kit_san_printf("SUMMARY: AddressSanitizer: %s %s\n", kind, loc);
}

/* The deadly-signal report after its DEADLYSIGNAL line and report_begin,
 * shared by both modes: the ERROR line (a high address is left out, as
 * AddressSanitizer does for non-canonical ones), for a SEGV (access 0 read,
 * 1 write; -1 for other signals) the access kind and the hints, the stack, the
 * thread and SUMMARY; ends the report as fatal. */
void kit_san_report_deadly(const char *kind, uintptr_t pc, uintptr_t bp, uintptr_t sp, uintptr_t addr, bool high,
                           int access) {
  int pid = kit_san_pid();
  if (high)
    kit_san_printf("==%d==ERROR: AddressSanitizer: %s on unknown address (pc 0x%012lx bp 0x%012lx sp 0x%012lx "
                   "T%d)\n", pid, kind, (unsigned long)pc, (unsigned long)bp, (unsigned long)sp, kit_san_tid());
  else
    kit_san_printf("==%d==ERROR: AddressSanitizer: %s on unknown address 0x%012lx (pc 0x%012lx bp 0x%012lx sp "
                   "0x%012lx T%d)\n", pid, kind, (unsigned long)addr, (unsigned long)pc, (unsigned long)bp,
                   (unsigned long)sp, kit_san_tid());
  if (pc < 4096) /* a call through a null pointer */
    kit_san_printf("==%d==Hint: pc points to the zero page.\n", pid);
  if (access >= 0) {
    kit_san_printf("==%d==The signal is caused by a %s memory access.\n", pid, access ? "WRITE" : "READ");
    if (high)
      kit_san_printf("==%d==Hint: this fault was caused by a dereference of a high value address (see register "
                     "values below).  Disassemble the provided pc to learn which register was used.\n", pid);
    else if (addr < 4096)
      kit_san_printf("==%d==Hint: address points to the zero page.\n", pid);
  }
  uintptr_t frames[KIT_SAN_MAX_FRAMES];
  size_t n = kit_san_unwind(pc, bp, frames, KIT_SAN_MAX_FRAMES);
  kit_san_print_stack(frames, n);
  kit_san_printf("AddressSanitizer can not provide additional info.\n");
  kit_san_describe_thread(kit_san_tid());
  kit_san_print_summary(kind, frames[0]);
  kit_san_report_end(true);
}

static void shadow_row(uintptr_t row_app, uintptr_t bug_app, bool mark) {
  char line[128];
  int k = snprintf(line, sizeof line, "%s0x%012lx:", mark ? "=>" : "  ", (unsigned long)row_app);
  uint8_t *s = kit_san_shadow(row_app);
  long bug = mark ? (long)((bug_app - row_app) >> 3) : -1;
  for (long i = 0; i < 16; i++) {
    char before = i == bug ? '[' : (i == bug + 1 && bug >= 0) ? ']' : ' ';
    k += snprintf(line + k, sizeof line - k, "%c%02x", before, s[i]);
  }
  if (bug == 15)
    k += snprintf(line + k, sizeof line - k, "]");
  kit_san_printf("%s\n", line);
}

static void legend(void) {
  kit_san_printf(
      "Shadow byte legend (one shadow byte represents 8 application bytes):\n"
      "  Addressable:           00\n"
      "  Partially addressable: 01 02 03 04 05 06 07 \n"
      "  Heap left redzone:       fa\n"
      "  Freed heap region:       fd\n"
      "  Stack left redzone:      f1\n"
      "  Stack mid redzone:       f2\n"
      "  Stack right redzone:     f3\n"
      "  Stack after return:      f5\n"
      "  Stack use after scope:   f8\n"
      "  Global redzone:          f9\n"
      "  Global init order:       f6\n"
      "  Poisoned by user:        f7\n"
      "  Container overflow:      fc\n"
      "  Array cookie:            ac\n"
      "  Intra object redzone:    bb\n"
      "  ASan internal:           fe\n"
      "  Left alloca redzone:     ca\n"
      "  Right alloca redzone:    cb\n");
}

void kit_san_print_shadow(uintptr_t addr) {
  kit_san_printf("Shadow bytes around the buggy address:\n");
  uintptr_t row = addr & ~(uintptr_t)127;
  for (int r = -5; r <= 5; r++)
    shadow_row(row + (intptr_t)r * 128, addr, r == 0);
  if (kit_san_opts.print_legend)
    legend();
}
