/* emu/emu.c — the public KitEmu object (include/kit/emu.h): creation and
 * loading, the run entry point, register and memory access, shadow planes,
 * the guest's mappings as tools see them, and how address-space events
 * reach the tools, the file table and the translation cache. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "dispatch.h"
#include "helpers.h"
#include "instrument.h"
#include "modules.h"
#include "rlimits.h"
#include "loader.h"
#include "os.h"
#include "stats.h"
#include "tier.h"

/* the guest arch the program's ELF machine names (arch/arches.c) */
static const KitArch *pick_arch(const char *path, FILE *err) {
  uint16_t machine = kit_emu_elf_machine(path, err);
  if (!machine) return NULL;
  const KitArch *arch = kit_arch_for_elf_machine(machine);
  if (arch) return arch;
  char names[128] = "";
  for (size_t i = 0, at = 0; kit_arches[i] && at < sizeof names; i++)
    at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? " or " : "", kit_arches[i]->name);
  fprintf(err, "kit-emu: %s: ELF machine %u is not %s\n", path, machine, names[0] ? names : "a guest arch of this build");
  return NULL;
}

/* the mapping at [va, va+len) as tools see it (its file, if any) */
static KitEmuMapping mapping_of(const KitEmu *emu, uint64_t va, uint64_t len, uint8_t prot, uint8_t kind) {
  KitEmuMapping m = {.va = va, .len = len, .prot = prot, .kind = KIT_EMU_MAPPING_ANON};
  m.path = kit_emu_files_at(emu, va, &m.offset);
  if (m.path) m.kind = KIT_EMU_MAPPING_FILE;
  else if (kind == KIT_EMU_REG_BRK) m.kind = KIT_EMU_MAPPING_HEAP;
  else if (kind == KIT_EMU_REG_STACK) m.kind = KIT_EMU_MAPPING_STACK;
  return m;
}

_Static_assert((int)KIT_EMU_CODE_WRITTEN == (int)KIT_EMU_INVAL_WRITE &&
                   (int)KIT_EMU_CODE_UNMAPPED == (int)KIT_EMU_INVAL_UNMAP &&
                   (int)KIT_EMU_CODE_PROTECTED == (int)KIT_EMU_INVAL_PROTECT,
               "aspace.h's reasons are the tool API's");

static void on_aspace_event(void *user, int kind, uint64_t va, uint64_t len, uint8_t prot) {
  KitEmu *emu = user;
  switch (kind) {
  case KIT_EMU_EV_MAP: {
    /* the file the caller is mapping (the loader, mmap): its path and offset */
    char path[4096];
    const char *p = emu->map_src.path;
    if (!p && emu->map_src.fd >= 0) {
      char link[64];
      snprintf(link, sizeof link, "/proc/self/fd/%d", emu->map_src.fd);
      ssize_t n = readlink(link, path, sizeof path - 1);
      if (n > 0) path[n] = 0, p = path;
    }
    kit_emu_files_map(emu, va, len, p, emu->map_src.off);
    if (emu->tools) {
      const KitEmuRegion *r = kit_aspace_find(&emu->as, va);
      KitEmuMapping m = mapping_of(emu, va, len, prot, r ? r->kind : KIT_EMU_REG_ANON);
      kit_emu_ev_map(emu, &m);
    }
    break;
  }
  case KIT_EMU_EV_UNMAP:
    kit_emu_files_unmap(emu, va, len);
    if (emu->tools) kit_emu_ev_unmap(emu, va, len);
    break;
  case KIT_EMU_EV_PROTECT:
    if (emu->tools) kit_emu_ev_protect(emu, va, len, prot);
    break;
  case KIT_EMU_EV_CODE_WRITE: /* prot: why (KIT_EMU_INVAL_*) */
    kit_tcache_invalidate(emu->tc, va, len, prot);
    break;
  }
}

void kit_emu_mappings(KitEmu *emu, KitEmuMapCb cb, void *user) {
  for (size_t i = 0; i < emu->as.nregs; i++) {
    const KitEmuRegion *r = &emu->as.regs[i];
    KitEmuMapping m = mapping_of(emu, r->start, r->end - r->start, r->prot, r->kind);
    cb(emu, &m, user);
  }
}

/* map events: the mappings there are already, then every new one */
void kit_emu_on_map(KitEmuTool *tool, KitEmuMapCb cb, void *user) {
  kit_emu_tool_set_map(tool, cb, user);
  if (cb) kit_emu_mappings(kit_emu_tool_emu(tool), cb, user);
}

void kit_emu_guest_window(KitEmu *emu, uint8_t **base, uint64_t *size, uint64_t *guard) {
  if (base) *base = emu->as.base;
  if (size) *size = emu->as.size;
  if (guard) *guard = KIT_EMU_GUARD;
}

uint64_t kit_emu_guest_map(KitEmu *emu, uint64_t len, unsigned prot) {
  int64_t va = kit_aspace_map(&emu->as, 0, len, (uint8_t)prot, 0, -1, 0);
  return va < 0 ? 0 : (uint64_t)va;
}

void kit_emu_guest_unmap(KitEmu *emu, uint64_t va, uint64_t len) { kit_aspace_unmap(&emu->as, va, len); }

bool kit_emu_guest_accessible(KitEmu *emu, uint64_t va, uint64_t n, unsigned prot) {
  return va < emu->as.size && n <= emu->as.size - va && kit_aspace_check(&emu->as, va, n ? n : 1, (uint8_t)prot);
}

const char *kit_emu_exe_path(KitEmu *emu) { return emu->exe_path; }
uint64_t kit_emu_exe_bias(KitEmu *emu) { return emu->load_bias; }
const char *kit_emu_interp_path(KitEmu *emu, uint64_t *bias) {
  if (bias) *bias = emu->interp_base;
  return emu->interp_path[0] ? emu->interp_path : NULL;
}

void kit_emu_brk_range(KitEmu *emu, uint64_t *start, uint64_t *cur) {
  if (start) *start = emu->as.brk_start;
  if (cur) *cur = emu->as.brk_cur;
}

KitEmu *kit_emu_new(const KitEmuOptions *opt, int argc, char **argv, char **envp, FILE *err) {
  if (argc < 1 || !argv || !argv[0]) {
    fprintf(err, "kit-emu: no program given\n");
    return NULL;
  }
  const KitArch *arch = pick_arch(argv[0], err);
  if (!arch) return NULL;
  KitEmu *emu = calloc(1, sizeof *emu);
  if (!emu) {
    fprintf(err, "kit-emu: out of memory\n");
    return NULL;
  }
  if (opt) emu->opt = *opt;
  emu->log = emu->opt.log ? emu->opt.log : stderr;
  emu->arch = arch;
  pthread_mutexattr_t ma;
  pthread_mutexattr_init(&ma);
  pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE); /* a translation may call back into the cache */
  pthread_mutex_init(&emu->mu, &ma);
  pthread_cond_init(&emu->all_done, NULL);
  pthread_mutex_init(&emu->gil_mu, NULL);
  pthread_cond_init(&emu->gil_cv, NULL);
  if (!kit_emu_thread_alloc(emu)) {
    fprintf(err, "kit-emu: out of memory\n");
    free(emu);
    return NULL;
  }
  emu->stack_size = kit_emu_stack_size();
  uint64_t window = kit_emu_window_size(emu->stack_size, err);
  if (!window) {
    free(emu);
    return NULL;
  }
  if (kit_aspace_init(&emu->as, window) < 0) {
    fprintf(err, "kit-emu: cannot reserve the %llu MiB guest window: %s\n", (unsigned long long)(window >> 20),
            strerror(ENOMEM));
    free(emu);
    return NULL;
  }
  /* mmap_base under the stack and a gap, as Linux places it */
  uint64_t gap = emu->stack_size + (17ull << 20);
  if (gap < (256ull << 20)) gap = 256ull << 20;
  if (gap > window / 2) gap = window / 2;
  emu->as.mmap_top = window - gap;
  emu->as.event = on_aspace_event;
  emu->as.event_user = emu;
  emu->map_src.fd = -1;
  emu->tc = kit_tcache_new(emu);
  kit_emu_current = emu;
  if (kit_emu_load(emu, argc, argv, envp, err) < 0) {
    kit_emu_free(emu);
    return NULL;
  }
  return emu;
}

void kit_emu_free(KitEmu *emu) {
  if (!emu) return;
  kit_tier_free(emu->tier);
  kit_tcache_free(emu->tc);
  emu->tc = NULL;
  kit_aspace_destroy(&emu->as);
  kit_emu_tools_free(emu);
  kit_emu_files_free(emu);
  if (kit_emu_current == emu) kit_emu_current = NULL;
  size_t cpu = ((offsetof(KitEmuThread, cpu) + emu->arch->cpu_state_size + 63) & ~(size_t)63) - offsetof(KitEmuThread, cpu);
  KitEmuThread *t;
  for (unsigned i = 0; (t = kit_emu_next_thread(emu, &i));) {
    if (t == kit_emu_self) kit_emu_self = NULL;
    munmap(t, offsetof(KitEmuThread, cpu) + cpu + KIT_EMU_TOOL_AREA);
  }
  free(emu);
}

/* The process ends on this host thread: the thread's exit and the
 * process's for the tools, the -d figures. */
static void epilogue(KitEmu *emu, KitEmuThread *t, int st) {
  if (!t->ended) {
    t->ended = true;
    kit_emu_ev_thread(emu, t->vcpu, false);
  }
  kit_emu_ev_exit(emu, st);
  if (emu->opt.debug & KIT_EMU_DEBUG_EXEC) {
    KitEmuStats s;
    kit_emu_get_stats(emu, &s);
    fprintf(emu->log,
            "kit-emu: %llu blocks translated, %llu executed, %llu jitted in %llu LLVM batches (%llu failed), "
            "%llu invalidations\n",
            (unsigned long long)s.blocks_translated, (unsigned long long)s.blocks_executed,
            (unsigned long long)s.blocks_jitted, (unsigned long long)s.jit_batches,
            (unsigned long long)s.jit_failures, (unsigned long long)s.invalidations);
  }
  if (emu->opt.debug & KIT_EMU_DEBUG_STATS) kit_emu_print_stats(emu);
  if (emu->opt.debug & KIT_EMU_DEBUG_PERFMAP) kit_emu_write_perfmap(emu);
  fflush(NULL);
}

/* a fork child of a thread other than the first: the process ends where its thread does */
static void end_process(KitEmu *emu) {
  epilogue(emu, kit_thr(emu), emu->exit_status);
  _exit(emu->exit_status);
}

int kit_emu_run(KitEmu *emu) {
  if (emu->opt.tier != KIT_EMU_TIER_INTERP && !kit_tier_jit_available() && emu->opt.tier == KIT_EMU_TIER_JIT)
    kit_emu_warn(emu, "this build has no LLVM JIT; running in tier 0");
  if (!emu->tier) emu->tier = kit_tier_new(emu, kit_emu_resolve);
  KitEmuThread *t = emu->threads[0];
  t->tid = (int)syscall(SYS_gettid);
  t->host = pthread_self();
  kit_emu_self = t;
  emu->thread_loop = kit_emu_exec_loop;
  emu->process_end = end_process;
  /* threads run compiled code in parallel unless something watches them
   * (tools and passes serialise them, as Valgrind's tools do: docs/emu.md,
   * "Threads"); a tool made later turns it off (instrument.c) */
  emu->parallel = !emu->opt.serial_threads && !emu->tools && !emu->npasses && !(emu->opt.debug & KIT_EMU_DEBUG_EXEC);
  kit_emu_gil_take(emu, t);
  kit_emu_signals_init(emu);
  kit_emu_ev_thread(emu, 0, true);
  int st = kit_emu_exec_loop(emu);
  epilogue(emu, t, st);
  return st;
}

int kit_emu_add_pass(KitEmu *emu, KitEmuBlockPass pass, void *user) { return kit_emu_instr_add_pass(emu, pass, user); }

uint64_t kit_emu_get_reg(KitEmu *emu, unsigned reg) { return emu->arch->get_reg(kit_emu_cpu(emu), reg); }
void kit_emu_set_reg(KitEmu *emu, unsigned reg, uint64_t v) { emu->arch->set_reg(kit_emu_cpu(emu), reg, v); }
uint64_t kit_emu_get_pc(KitEmu *emu) { return emu->arch->get_pc(kit_emu_cpu(emu)); }
const KitArch *kit_emu_arch(KitEmu *emu) { return emu->arch; }

int kit_emu_read_mem(KitEmu *emu, uint64_t va, void *dst, size_t n) {
  return kit_aspace_read(&emu->as, va, dst, n) < 0 ? -1 : 0;
}
int kit_emu_write_mem(KitEmu *emu, uint64_t va, const void *src, size_t n) {
  return kit_aspace_write(&emu->as, va, src, n) < 0 ? -1 : 0;
}

KitEmuShadowPlane *kit_emu_shadow_register(KitEmu *emu, const char *name, unsigned bits_per_byte) {
  int i = kit_aspace_plane_add(&emu->as, name, bits_per_byte);
  if (i < 0) return NULL;
  emu->planes[i] = (KitEmuShadowPlane){emu, (unsigned)i};
  return &emu->planes[i];
}

uint8_t *kit_emu_shadow_for(KitEmuShadowPlane *plane, uint64_t va, uint64_t n) {
  if (!plane || !kit_aspace_check(&plane->emu->as, va, n ? n : 1, 0)) return NULL;
  return kit_aspace_plane_ptr(&plane->emu->as, plane->index, va);
}
