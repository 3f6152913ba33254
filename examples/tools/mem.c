/* examples/tools/mem.c — guest loads and stores, counted through a memory
 * callback on every instruction (the callback sees each access with its
 * address, size and value: what a store writes, what a load reads), or with
 * "inline" by an inline add on each load and store instruction (by its
 * class: an atomic read-modify-write counts as a store), no call and no
 * values. A callback sees an access that then faults; an inline add counts
 * only instructions that retire. Like QEMU's contrib/plugins/mem.c, with
 * values. Args, comma-separated: inline; rw=r|w|rw (which accesses, default
 * rw); print=K (print the first K accesses); range=LO-HI (hex; print only
 * accesses whose address is in [LO, HI)); out=FILE.
 * Prints "mem: loads N stores M", after the printed accesses. */
#define _POSIX_C_SOURCE 200809L /* strdup, strtok_r under -std=c11 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

typedef struct Counts {
  uint64_t loads, stores;
} Counts;

/* one per --tool=mem.so (the same shared object can run twice) */
typedef struct Mem {
  KitEmuScoreboard *score;
  unsigned rw;                /* KIT_EMU_MEM_* */
  bool use_inline;
  uint64_t range_lo, range_hi;
  KitEmuMemAccess *printed;   /* the first print_max accesses in range, kept for the report */
  size_t print_max, n_printed;
  const char *out_path;       /* NULL: stderr */
} Mem;

static KitEmuVerdict on_access(KitEmu *emu, unsigned vcpu, const KitEmuMemAccess *a, void *user) {
  (void)emu;
  Mem *m = user;
  Counts *c = kit_emu_scoreboard_entry(m->score, vcpu);
  if (a->is_store) c->stores++;
  else c->loads++;
  if (m->n_printed < m->print_max && a->addr >= m->range_lo && a->addr < m->range_hi) m->printed[m->n_printed++] = *a;
  return KIT_EMU_ALLOW;
}

static void count_inline(Mem *m, KitEmuInsn *insn) {
  unsigned cls = kit_emu_insn_class(insn);
  bool store = cls & KIT_EMU_INSN_STORE, load = !store && (cls & KIT_EMU_INSN_LOAD);
  if ((store && (m->rw & KIT_EMU_MEM_W)) || (load && (m->rw & KIT_EMU_MEM_R)))
    kit_emu_insn_inline(insn, KIT_EMU_INLINE_ADD,
                        kit_emu_u64_per_thread(m->score, store ? offsetof(Counts, stores) : offsetof(Counts, loads)), 1);
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool;
  Mem *m = user;
  for (size_t i = 0; i < kit_emu_tb_n_insns(tb); i++) {
    KitEmuInsn *insn = kit_emu_tb_insn(tb, i);
    /* a callback on every instruction: the emulator keeps those that access memory */
    if (m->use_inline) count_inline(m, insn);
    else kit_emu_insn_mem_cb(insn, on_access, m->rw, m);
  }
}

static void on_exit_report(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status;
  Mem *m = user;
  FILE *f = m->out_path ? fopen(m->out_path, "w") : stderr;
  if (!f) {
    fprintf(stderr, "mem: cannot write %s: %s\n", m->out_path, strerror(errno));
    f = stderr;
  }
  for (size_t i = 0; i < m->n_printed; i++) {
    const KitEmuMemAccess *a = &m->printed[i];
    fprintf(f, "mem: %s pc=0x%" PRIx64 " addr=0x%" PRIx64 " size=%" PRIu32, a->is_store ? "store" : "load ", a->pc,
            a->addr, a->size);
    if (a->has_value) fprintf(f, " value=0x%" PRIx64 "\n", a->value);
    else fputs(" value=?\n", f);
  }
  KitEmuU64 loads = kit_emu_u64_per_thread(m->score, offsetof(Counts, loads));
  KitEmuU64 stores = kit_emu_u64_per_thread(m->score, offsetof(Counts, stores));
  fprintf(f, "mem: loads %" PRIu64 " stores %" PRIu64 "\n", kit_emu_u64_sum(loads), kit_emu_u64_sum(stores));
  if (f == stderr) fflush(f);
  else fclose(f);
}

static int parse_arg(Mem *m, char *a) {
  char *end;
  if (!strcmp(a, "inline")) m->use_inline = true;
  else if (!strcmp(a, "rw=r")) m->rw = KIT_EMU_MEM_R;
  else if (!strcmp(a, "rw=w")) m->rw = KIT_EMU_MEM_W;
  else if (!strcmp(a, "rw=rw")) m->rw = KIT_EMU_MEM_RW;
  else if (!strncmp(a, "print=", 6)) {
    m->print_max = strtoull(a + 6, &end, 10);
    if (*end || end == a + 6) return -1;
  } else if (!strncmp(a, "range=", 6)) {
    m->range_lo = strtoull(a + 6, &end, 16);
    if (*end != '-') return -1;
    m->range_hi = strtoull(end + 1, &end, 16);
    if (*end || m->range_hi <= m->range_lo) return -1;
  } else if (!strncmp(a, "out=", 4)) {
    m->out_path = strdup(a + 4);
  } else {
    return -1;
  }
  return 0;
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  Mem *m = calloc(1, sizeof *m);
  char *copy = strdup(args ? args : ""), *save = NULL;
  if (!m || !copy) return 1;
  m->rw = KIT_EMU_MEM_RW;
  m->range_hi = UINT64_MAX;
  for (char *a = strtok_r(copy, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
    if (parse_arg(m, a) < 0) {
      fprintf(stderr, "mem: bad argument '%s' (inline, rw=r|w|rw, print=K, range=LO-HI in hex, out=FILE)\n", a);
      return 1;
    }
  }
  free(copy);
  if (m->use_inline && m->print_max) {
    fprintf(stderr, "mem: inline counts have no accesses to print (drop print= or inline)\n");
    return 1;
  }
  if (m->print_max && !(m->printed = calloc(m->print_max, sizeof *m->printed))) return 1;
  if (!(m->score = kit_emu_scoreboard_new(tool, sizeof(Counts)))) return 1;
  kit_emu_on_tb_trans(tool, on_tb, m);
  kit_emu_on_exit(tool, on_exit_report, m);
  return 0;
}
