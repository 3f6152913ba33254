/* emu/tools/probe/probe_tool.c — kit-emu --probe=SPEC: hit counts at
 * FUNC, FUNC+0xOFF and FILE:LINE (every address gdb's break would choose,
 * inlined copies included: spec.c through emu/tools/debuginfo) and
 * FUNC%return (the function's return instructions), resolved in
 * the executable before the guest starts. A probed instruction gets an
 * inline add to its probe's counter (no call; counted when it retires), and
 * with `:print REG,...` a callback that prints the registers; a block with
 * no probe is not touched. One line per probe at exit:
 * `kit-emu: probe SPEC: N hits`. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kit/arch.h"
#include "debuginfo.h"
#include "spec.h"
#include "tools/trace_tool/trace_tool.h"

enum { MAX_PROBES = 16, MAX_ADDRS = 256 };

typedef struct Probe {
  char text[512];
  KitProbeSpec spec;
  const KitArchReg *print[KIT_PROBE_MAX_PRINT];
  unsigned index;
  uint64_t ret_lo, ret_hi; /* FUNC%return: the function's extent (its returns are the probe's sites) */
} Probe;

/* an address some probe counts */
typedef struct Site {
  uint64_t pc;
  Probe *probe;
} Site;

static struct {
  Probe probes[MAX_PROBES];
  unsigned n;
  Site *sites;
  size_t nsites;
  KitEmuScoreboard *board; /* per thread: one u64 per probe */
  FILE *out;
} P;

static int site_cmp(const void *a, const void *b) {
  const Site *x = a, *y = b;
  if (x->pc != y->pc) return x->pc < y->pc ? -1 : 1;
  return x->probe->index < y->probe->index ? -1 : x->probe->index > y->probe->index;
}

static KitEmuU64 counter(const Probe *p) { return kit_emu_u64_per_thread(P.board, p->index * sizeof(uint64_t)); }

static void on_print(KitEmu *emu, unsigned vcpu, void *user) {
  const Probe *p = user;
  (void)vcpu;
  const KitArchReg *pcr = kit_emu_reg_find(emu, "pc");
  fprintf(P.out, "kit-emu: probe %s: hit at 0x%" PRIx64 " thread %d:", p->text, pcr ? kit_emu_reg_read(emu, pcr) : 0,
          kit_emu_thread_id(emu));
  for (unsigned i = 0; i < p->spec.nprint; i++)
    fprintf(P.out, " %s=0x%" PRIx64, p->print[i]->name, kit_emu_reg_read(emu, p->print[i]));
  fputc('\n', P.out);
}

/* with --trace: the hit as a PROBE record in the stream */
static void on_trace_hit(KitEmu *emu, unsigned vcpu, void *user) {
  const Probe *p = user;
  const KitArchReg *pcr = kit_emu_reg_find(emu, "pc");
  kit_emu_trace_probe_hit(emu, vcpu, pcr ? kit_emu_reg_read(emu, pcr) : 0, p->index, p->text);
}

static void hit_at(KitEmuInsn *in, Probe *p) {
  kit_emu_insn_inline(in, KIT_EMU_INLINE_ADD, counter(p), 1);
  if (p->spec.nprint) kit_emu_insn_exec_cb(in, on_print, p);
  if (kit_emu_trace_on()) kit_emu_insn_exec_cb(in, on_trace_hit, p);
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++) {
    KitEmuInsn *in = kit_emu_tb_insn(tb, i);
    uint64_t pc = kit_emu_insn_pc(in);
    size_t lo = 0, hi = P.nsites; /* the first site at pc */
    while (lo < hi) {
      size_t mid = (lo + hi) / 2;
      if (P.sites[mid].pc < pc) lo = mid + 1;
      else hi = mid;
    }
    for (; lo < P.nsites && P.sites[lo].pc == pc; lo++) hit_at(in, P.sites[lo].probe);
    if (kit_emu_insn_class(in) & KIT_EMU_INSN_RET)
      for (unsigned k = 0; k < P.n; k++)
        if (P.probes[k].ret_lo <= pc && pc < P.probes[k].ret_hi) hit_at(in, &P.probes[k]);
  }
}

static void on_exit_cb(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status, (void)user;
  for (unsigned i = 0; i < P.n; i++) {
    uint64_t n = kit_emu_u64_sum(counter(&P.probes[i]));
    fprintf(P.out, "kit-emu: probe %s: %" PRIu64 " hit%s\n", P.probes[i].text, n, n == 1 ? "" : "s");
  }
  fflush(P.out);
}

/* is exe_addr + off an instruction boundary of the function at exe_addr? (decoded from its start) */
static bool on_boundary(KitEmu *emu, uint64_t start, uint64_t off) {
  const KitArch *arch = kit_emu_arch(emu);
  uint8_t *base;
  uint64_t size, guard;
  kit_emu_guest_window(emu, &base, &size, &guard);
  uint64_t at = 0;
  while (at < off) {
    uint64_t pc = start + at;
    if (pc + arch->max_insn_len > size || !kit_emu_guest_accessible(emu, pc, 2, KIT_EMU_PROT_READ)) return false;
    KitDecodedInsn d;
    memset(&d, 0, sizeof d);
    int len = (int)arch->decode(base + pc, arch->max_insn_len, pc, &d);
    if (len <= 0) len = d.len ? d.len : 2; /* an illegal encoding has a length too */
    at += (unsigned)len;
  }
  return at == off;
}

/* one spec parsed, checked and resolved to its sites; -1 said on err */
static int add_probe(KitEmu *emu, const char *text, FILE *err) {
  if (P.n == MAX_PROBES) {
    fprintf(err, "kit-emu: probe %s: at most %d probes\n", text, MAX_PROBES);
    return -1;
  }
  Probe *p = &P.probes[P.n];
  char msg[512];
  snprintf(p->text, sizeof p->text, "%s", text);
  p->index = P.n;
  if (kit_probe_parse(text, &p->spec, msg, sizeof msg) < 0) {
    fprintf(err, "kit-emu: %s\n", msg);
    return -1;
  }
  for (unsigned i = 0; i < p->spec.nprint; i++)
    if (!(p->print[i] = kit_emu_reg_find(emu, p->spec.print[i]))) {
      fprintf(err, "kit-emu: probe %s: no register named '%s'\n", text, p->spec.print[i]);
      return -1;
    }
  const char *exe = kit_emu_exe_path(emu);
  uint64_t addrs[MAX_ADDRS];
  long n = kit_probe_resolve(&p->spec, exe, addrs, MAX_ADDRS, msg, sizeof msg);
  if (n < 0) {
    fprintf(err, "kit-emu: %s\n", msg);
    return -1;
  }
  uint64_t bias = kit_emu_exe_bias(emu);
  if (p->spec.kind == KIT_PROBE_RETURN) { /* its return instructions, found as blocks are translated */
    uint64_t addr, size;
    if (kit_debuginfo_symbol(exe, p->spec.func, &addr, &size) < 0 || !size) {
      fprintf(err, "kit-emu: probe %s: no function '%s' with a size in %s\n", text, p->spec.func, exe);
      return -1;
    }
    p->ret_lo = bias + addr, p->ret_hi = bias + addr + size;
    P.n++;
    return 0;
  }
  if (p->spec.kind == KIT_PROBE_OFFSET && !on_boundary(emu, bias + addrs[0] - p->spec.offset, p->spec.offset)) {
    fprintf(err, "kit-emu: probe %s: offset 0x%" PRIx64 " is not an instruction boundary of %s\n", text,
            p->spec.offset, p->spec.func);
    return -1;
  }
  Site *s = realloc(P.sites, (P.nsites + (size_t)n) * sizeof *s);
  if (!s) return -1;
  P.sites = s;
  for (long i = 0; i < n; i++) P.sites[P.nsites++] = (Site){bias + addrs[i], p};
  P.n++;
  return 0;
}

int kit_emu_tool_probe_main(KitEmuTool *tool, const char *const *specs, unsigned nspecs, FILE *err) {
  KitEmu *emu = kit_emu_tool_emu(tool);
  P.out = err;
  for (unsigned i = 0; i < nspecs; i++) {
    /* one option may carry several specs separated by ';' */
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", specs[i]);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ";", &save); tok; tok = strtok_r(NULL, ";", &save))
      if (add_probe(emu, tok, err) < 0) return -1;
    if (!buf[0] && add_probe(emu, "", err) < 0) return -1;
  }
  qsort(P.sites, P.nsites, sizeof *P.sites, site_cmp);
  size_t k = 0; /* one site per pc and probe */
  for (size_t i = 0; i < P.nsites; i++)
    if (!k || P.sites[k - 1].pc != P.sites[i].pc || P.sites[k - 1].probe != P.sites[i].probe) P.sites[k++] = P.sites[i];
  P.nsites = k;
  P.board = kit_emu_scoreboard_new(tool, P.n * sizeof(uint64_t));
  if (!P.board) return -1;
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  return 0;
}

/* ---- --probe-list --------------------------------------------------------------------------- */

static void list_inlined(void *user, const char *name, unsigned call_line, uint64_t lo, uint64_t hi) {
  const uint64_t *bias = user;
  fprintf(P.out, "  %s, called at line %u: 0x%" PRIx64 "-0x%" PRIx64 "\n", name, call_line, *bias + lo, *bias + hi);
}

int kit_emu_tool_probe_list(KitEmu *emu, const char *func, FILE *out, FILE *err) {
  const char *exe = kit_emu_exe_path(emu);
  uint64_t addr, size, bias = kit_emu_exe_bias(emu);
  if (kit_debuginfo_symbol(exe, func, &addr, &size) < 0 || !size) {
    fprintf(err, "kit-emu: --probe-list %s: no function '%s' with a size in %s\n", func, func, exe);
    return -1;
  }
  const KitArch *arch = kit_emu_arch(emu);
  uint8_t *base;
  uint64_t wsize, guard;
  kit_emu_guest_window(emu, &base, &wsize, &guard);
  fprintf(out, "%s in %s: 0x%" PRIx64 ", 0x%" PRIx64 " bytes\n", func, exe, bias + addr, size);
  for (uint64_t off = 0; off < size;) {
    uint64_t pc = bias + addr + off;
    if (pc + arch->max_insn_len > wsize || !kit_emu_guest_accessible(emu, pc, 2, KIT_EMU_PROT_READ)) break;
    KitDecodedInsn d;
    memset(&d, 0, sizeof d);
    unsigned len = arch->decode(base + pc, arch->max_insn_len, pc, &d);
    char text[128] = "(illegal)";
    if (len) {
      d.pc = pc;
      arch->disasm(&d, text, sizeof text);
    } else {
      len = d.len ? d.len : 2;
    }
    KitEmuSymbol sym;
    char where[300] = "";
    if (kit_emu_symbolize(emu, pc, &sym) == 0 && sym.file) snprintf(where, sizeof where, "%s:%u", sym.file, sym.line);
    fprintf(out, "  +0x%-5" PRIx64 " 0x%" PRIx64 "  %-32s %s\n", off, pc, text, where);
    off += len;
  }
  fprintf(out, "inlined calls:\n");
  P.out = out;
  if (kit_debuginfo_inlined(exe, addr, addr + size, list_inlined, &bias) == 0) fprintf(out, "  (none)\n");
  return 0;
}
