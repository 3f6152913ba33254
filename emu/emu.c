/* emu/emu.c — the public KitEmu object (include/kit/emu.h): creation and
 * loading, the run entry point, tool hooks, register and memory access for
 * tools, shadow planes, and how address-space events reach tools and the
 * translation cache. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dispatch.h"
#include "helpers.h"
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

static void on_aspace_event(void *user, int kind, uint64_t va, uint64_t len, uint8_t prot) {
  KitEmu *emu = user;
  const KitEmuToolHooks *h = &emu->hooks;
  switch (kind) {
  case KIT_EMU_EV_MAP:
    if (h->on_map) h->on_map(h->user, emu, va, len, prot);
    break;
  case KIT_EMU_EV_UNMAP:
    if (h->on_unmap) h->on_unmap(h->user, emu, va, len);
    break;
  case KIT_EMU_EV_PROTECT:
    if (h->on_protect) h->on_protect(h->user, emu, va, len, prot);
    break;
  case KIT_EMU_EV_CODE_WRITE:
    kit_tcache_invalidate(emu->tc, va, len);
    break;
  }
}

KitEmu *kit_emu_new(const KitEmuOptions *opt, int argc, char **argv, char **envp, FILE *err) {
  if (argc < 1 || !argv || !argv[0]) {
    fprintf(err, "kit-emu: no program given\n");
    return NULL;
  }
  const KitArch *arch = pick_arch(argv[0], err);
  if (!arch) return NULL;
  /* the CPU state right after the emulator's own: translated code reaches
   * the fields it reads on every block (block_pc, chain_stop) relative to
   * its CPU pointer */
  size_t cpu_at = (sizeof(KitEmu) + 63) & ~(size_t)63;
  KitEmu *emu = calloc(1, cpu_at + arch->cpu_state_size);
  if (!emu) {
    fprintf(err, "kit-emu: out of memory\n");
    return NULL;
  }
  if (opt) emu->opt = *opt;
  emu->log = emu->opt.log ? emu->opt.log : stderr;
  emu->arch = arch;
  emu->cpu = (char *)emu + cpu_at;
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
  if (kit_emu_current == emu) kit_emu_current = NULL;
  free(emu);
}

int kit_emu_run(KitEmu *emu) {
  if (emu->opt.tier != KIT_EMU_TIER_INTERP && !kit_tier_jit_available() && emu->opt.tier == KIT_EMU_TIER_JIT)
    kit_emu_warn(emu, "this build has no LLVM JIT; running in tier 0");
  if (!emu->tier) emu->tier = kit_tier_new(emu, kit_emu_resolve);
  kit_emu_signals_init(emu);
  int st = kit_emu_exec_loop(emu);
  if (emu->hooks.on_exit) emu->hooks.on_exit(emu->hooks.user, emu, st);
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
  return st;
}

int kit_emu_add_pass(KitEmu *emu, KitEmuBlockPass pass, void *user) {
  if (!pass || emu->npasses >= sizeof emu->passes / sizeof emu->passes[0]) return -1;
  emu->passes[emu->npasses].fn = pass;
  emu->passes[emu->npasses].user = user;
  emu->npasses++;
  kit_tcache_flush(emu->tc);
  return 0;
}

void kit_emu_set_tool_hooks(KitEmu *emu, const KitEmuToolHooks *hooks) {
  KitEmuToolHooks old = emu->hooks;
  if (hooks) emu->hooks = *hooks;
  else memset(&emu->hooks, 0, sizeof emu->hooks);
  const KitEmuToolHooks *h = &emu->hooks;
  uint32_t kinds = h->branch_kinds ? h->branch_kinds : ~0u;
  emu->watch_flow = h->on_block_entry || h->on_insn_retire || h->on_mem_access || h->on_block_fault ||
                    h->tool_requires_dispatch ||
                    (h->on_branch && (kinds & ~(1u << KIT_EMU_EDGE_CALL | 1u << KIT_EMU_EDGE_RET)));
  /* translated code bakes in which shims exist */
  bool changed = !old.on_block_entry != !emu->hooks.on_block_entry || !old.on_branch != !emu->hooks.on_branch ||
                 !old.on_mem_access != !emu->hooks.on_mem_access ||
                 (old.on_insn_retire && old.want_insn_retire) != (emu->hooks.on_insn_retire && emu->hooks.want_insn_retire) ||
                 old.tool_requires_dispatch != emu->hooks.tool_requires_dispatch || /* chaining is baked in too */
                 old.branch_kinds != emu->hooks.branch_kinds;
  if (changed) kit_tcache_flush(emu->tc);
}

void kit_emu_set_block_starts(KitEmu *emu, bool (*is_start)(void *user, uint64_t pc), void *user) {
  emu->is_start = is_start;
  emu->is_start_user = user;
  kit_tcache_flush(emu->tc);
}

uint64_t kit_emu_get_reg(KitEmu *emu, unsigned reg) { return emu->arch->get_reg(emu->cpu, reg); }
void kit_emu_set_reg(KitEmu *emu, unsigned reg, uint64_t v) { emu->arch->set_reg(emu->cpu, reg, v); }
uint64_t kit_emu_get_pc(KitEmu *emu) { return emu->arch->get_pc(emu->cpu); }
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
