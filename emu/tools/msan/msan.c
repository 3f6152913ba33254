/* emu/tools/msan/msan.c — kit-emu --sanitize=memory, a tool on the public
 * tool API (include/kit/emu_tool.h; no emulator header). The MSan pass of
 * passes/ (kit_msan_run_func) runs over every lifted block with an emulator
 * config: guest memory's shadow is a host mapping of the window's size (one
 * shadow byte per guest byte, shadow = host pointer + shadow_add), the guest
 * registers' shadow a buffer laid out as the CPU state (the pass turns the
 * lifted code's INTERNAL state loads and stores into shadow loads and
 * stores at the same offsets), a store of the next pc is checked (branches,
 * indirect jumps), as are addresses; a store of sp poisons a new frame.
 * Registers' shadows stay as they are across calls and returns: the guest
 * ABI passes arguments and results in registers, so their shadows travel
 * with them (docs/msan.md, "kit-emu"). The malloc family and the string
 * functions are replaced by the guest glue's, with MSan's shadow effects
 * (sanitizer-rt/guest/msan_guest.c); system calls check what they read and
 * unpoison what they write; reports print the guest stack from a shadow call
 * stack kept on call and return edges. */
#include "msan.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../asan/asan.h"
#include "kit/passes.h"
#include "msan_guest.h"

static KitEmu *the_emu;
static KitEmuTool *the_tool;
static uint8_t *window_base;
static uint64_t window, guard;
static uint8_t *mshadow;  /* MSan: one byte per guest byte (window and guard) */
static uint8_t *ashadow;  /* the allocator's chunk bookkeeping (the core's ASan shadow) */
static uint8_t *regsh;    /* the CPU state's shadow */
static uint32_t reg_off[256]; /* CPU state offset of each register number (0: none) */
static KitMsanConfig cfg;
static bool recover;

static const KitArchReg *role_reg[KIT_EMU_ROLE_ARG0 + 8];
static uint64_t reg(KitEmu *emu, unsigned role) { return kit_emu_reg_read(emu, role_reg[role]); }

/* the shadow of a register (its 8 bytes in regsh), 0 when it has none */
static uint64_t *reg_shadow(unsigned role) {
  const KitArchReg *r = role_reg[role];
  if (!r || r->num >= 256 || !reg_off[r->num]) return NULL;
  return (uint64_t *)(regsh + reg_off[r->num]);
}

/* Where each register lives in the CPU state, read off the arch's own
 * accessors: set a register to a marker in a zeroed state, find the bytes. */
static bool find_offsets(const KitArch *arch, KitEmu *emu) {
  size_t n;
  const KitArchReg *regs = kit_emu_regs(emu, &n);
  uint8_t *st = calloc(1, arch->cpu_state_size);
  if (!st) return false;
  for (size_t i = 0; i < n; i++) {
    if (regs[i].group != KIT_ARCH_REG_INT && regs[i].group != KIT_ARCH_REG_FLOAT) continue;
    if (regs[i].num >= 256) continue;
    const uint64_t mark = 0x5a5a5a5a00000000ull | (uint64_t)(i + 1);
    memset(st, 0, arch->cpu_state_size);
    arch->set_reg(st, regs[i].num, mark);
    for (uint32_t off = 8; off + 8 <= arch->cpu_state_size; off += 8) {
      uint64_t v;
      memcpy(&v, st + off, 8);
      if (v == mark) {
        reg_off[regs[i].num] = off;
        break;
      }
    }
  }
  free(st);
  return true;
}

/* ---- shadows of fresh memory ---------------------------------------------------------- */

static void zero_range(uint8_t *base, uint64_t s, uint64_t e) {
  uint64_t ps = (s + 4095) & ~4095ull, pe = e & ~4095ull;
  if (ps < pe) {
    memset(base + s, 0, ps - s);
    madvise(base + ps, pe - ps, MADV_DONTNEED);
    memset(base + pe, 0, e - pe);
  } else {
    memset(base + s, 0, e - s);
  }
}

/* fresh or dropped guest memory: initialized (the kernel's zeros, a file's
 * bytes), as memcheck has mappings; and addressable for the allocator */
static void shadow_clear(uint64_t va, uint64_t len) {
  if (va >= window) return;
  if (len > window - va) len = window - va;
  zero_range(mshadow, va, va + len);
  zero_range(ashadow, va >> 3, (va + len + 7) >> 3);
}

/* ---- guest memory for the allocator ------------------------------------------------------ */

static uintptr_t pages_map(void *ctx, size_t size) {
  return (uintptr_t)kit_emu_guest_map(ctx, size, KIT_EMU_PROT_READ | KIT_EMU_PROT_WRITE);
}
static void pages_unmap(void *ctx, uintptr_t addr, size_t size) { kit_emu_guest_unmap(ctx, addr, size); }
static bool accessible(void *ctx, uintptr_t addr, size_t n, bool write) {
  return kit_emu_guest_accessible(ctx, addr, n, write ? KIT_EMU_PROT_WRITE : KIT_EMU_PROT_READ);
}

/* ---- the shadow call stack ------------------------------------------------------------------ */

static uint64_t return_addr(KitEmu *emu, uint64_t from) {
  uint64_t link = reg(emu, KIT_EMU_ROLE_RA);
  unsigned max = kit_emu_arch(emu)->max_insn_len;
  if (link > from && link - from <= max) return link;
  uint8_t bytes[16] = {0};
  KitDecodedInsn in;
  memset(&in, 0, sizeof in);
  if (kit_emu_read_mem(emu, from, bytes, max) == 0 && kit_emu_arch(emu)->decode(bytes, max, from, &in)) return from + in.len;
  return from + max;
}

static void on_edge(KitEmu *emu, unsigned vcpu, uint64_t from, uint64_t to, KitEmuEdge kind, void *user) {
  (void)vcpu, (void)user;
  if (kind == KIT_EMU_EDGE_CALL) {
    uint64_t sp = reg(emu, KIT_EMU_ROLE_SP);
    kit_guest_frames_unwind_to(sp);
    kit_guest_frames_call(return_addr(emu, from), sp);
  } else if (kind == KIT_EMU_EDGE_RET) {
    kit_guest_frames_ret(to);
  }
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  KitEmuInsn *last = kit_emu_tb_insn(tb, kit_emu_tb_n_insns(tb) - 1);
  if (kit_emu_insn_class(last) & (KIT_EMU_INSN_CALL | KIT_EMU_INSN_RET)) kit_emu_tb_edge_cb(tb, on_edge, NULL);
}

/* ---- what lifted code calls ------------------------------------------------------------------ */

static void emu_warning(uint64_t pc) { kit_msan_guest_report(pc, NULL, 0, 0, 0); }
static void emu_sp(uint64_t old, uint64_t new_sp) { kit_msan_guest_sp(old, new_sp); }

/* CG memops on host pointers into the window */
static uint8_t *shadow_of_host(void *p) { return (uint8_t *)p + cfg.shadow_add; }
static void *emu_memcpy(void *d, const void *s, uint64_t n) {
  memmove(shadow_of_host(d), shadow_of_host((void *)s), n);
  return memcpy(d, s, n);
}
static void *emu_memmove(void *d, const void *s, uint64_t n) {
  memmove(shadow_of_host(d), shadow_of_host((void *)s), n);
  return memmove(d, s, n);
}
static void *emu_memset(void *d, int c, uint64_t n) {
  memset(shadow_of_host(d), 0, n);
  return memset(d, c, n);
}

static void *resolve(void *user, const char *name) {
  (void)user;
  static const struct {
    const char *name;
    void *fn;
  } entries[] = {
      {"__msan_emu_warning", (void *)emu_warning}, {"__msan_emu_sp", (void *)emu_sp},
      {"__msan_memcpy", (void *)emu_memcpy},       {"__msan_memmove", (void *)emu_memmove},
      {"__msan_memset", (void *)emu_memset},
  };
  for (size_t i = 0; i < sizeof entries / sizeof *entries; i++)
    if (!strcmp(entries[i].name, name)) return entries[i].fn;
  return NULL;
}

static int msan_pass(void *user, KitCgModule *m, KitCgFunc *f) {
  (void)user;
  return kit_msan_run_func(m, f, &cfg);
}

/* ---- replaced functions ------------------------------------------------------------------------ */

static uint64_t msan_call(KitEmu *emu, unsigned vcpu, uint64_t pc, void *user) {
  (void)vcpu;
  uint64_t a[4];
  for (unsigned i = 0; i < 4; i++) a[i] = reg(emu, KIT_EMU_ROLE_ARG0 + i);
  uint64_t ra = reg(emu, KIT_EMU_ROLE_RA);
  uint64_t r = kit_msan_guest_call((KitGuestFn)(uintptr_t)user, (uintptr_t)pc, ra, a);
  kit_emu_reg_write(emu, role_reg[KIT_EMU_ROLE_RET], r);
  uint64_t *s = reg_shadow(KIT_EMU_ROLE_RET);
  if (s) *s = 0;
  kit_guest_frames_ret(ra);
  return ra;
}

static void found_function(void *user, const char *name, uint64_t addr, uint64_t size) {
  (void)user, (void)size;
  for (int f = 1; f < KIT_GFN_COUNT; f++)
    if (!strcmp(kit_guest_fn_libc_name((KitGuestFn)f), name)) {
      kit_guest_sym_set_name(addr, kit_msan_guest_frame_name((KitGuestFn)f));
      kit_emu_replace_function(the_tool, addr, msan_call, (void *)(uintptr_t)f);
      return;
    }
}

static void add_module(KitEmu *emu, const char *path, uint64_t bias, bool is_interp) {
  kit_emu_san_add_elf(emu, path, bias, is_interp); /* the symbolizer */
  if (!is_interp) kit_emu_module_functions(emu, path, found_function, NULL);
}

/* ---- events ---------------------------------------------------------------------------------------- */

static void on_map(KitEmu *emu, const KitEmuMapping *m, void *user) {
  (void)user;
  shadow_clear(m->va, m->len);
  if (m->kind == KIT_EMU_MAPPING_FILE && m->offset == 0 && strcmp(m->path, kit_emu_exe_path(emu)))
    add_module(emu, m->path, m->va, false);
}

static void on_unmap(KitEmu *emu, uint64_t va, uint64_t len, void *user) {
  (void)emu, (void)user;
  shadow_clear(va, len);
}

static bool on_syscall(KitEmu *emu, unsigned vcpu, KitEmuSyscall *sc, int64_t *ret, void *user) {
  (void)emu, (void)vcpu, (void)ret, (void)user;
  int n = kit_msan_guest_syscall_nargs(sc->nr);
  for (int i = 0; i < n && i < 6; i++) {
    uint64_t *s = reg_shadow(KIT_EMU_ROLE_ARG0 + (unsigned)i);
    if (s && *s) {
      kit_san_printf("Uninitialized value in argument %d of system call %s\n", i + 1,
                     kit_msan_guest_syscall_name(sc->nr));
      kit_msan_guest_report(sc->pc, NULL, 0, 0, 0);
      break;
    }
  }
  kit_msan_guest_syscall_enter(sc->nr, sc->args, sc->pc);
  return false;
}

static void on_syscall_ret(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *user) {
  (void)emu, (void)vcpu, (void)user;
  kit_msan_guest_syscall_ret(sc->nr, sc->args, ret);
  uint64_t *s = reg_shadow(KIT_EMU_ROLE_RET);
  if (s) *s = 0;
  if (sc->nr == 139) memset(regsh, 0, kit_emu_arch(the_emu)->cpu_state_size); /* rt_sigreturn */
}

/* a handler about to run: the emulator wrote its registers and its frame
 * below sp, out of the pass's sight */
static void on_signal(KitEmu *emu, unsigned vcpu, const KitEmuSignal *sig, void *user) {
  (void)vcpu, (void)user;
  if (sig->fatal) return;
  memset(regsh, 0, kit_emu_arch(emu)->cpu_state_size);
  uint64_t sp = reg(emu, KIT_EMU_ROLE_SP);
  const uint64_t frame = 16384;
  if (sp > frame) kit_msan_guest_unpoison(sp - frame, frame);
}

static void on_exit_cb(KitEmu *emu, int status, void *user) {
  (void)emu, (void)user;
  int st = kit_msan_guest_exit_status(status);
  if (st != status) {
    fflush(NULL);
    _exit(st);
  }
}

/* ---- install ------------------------------------------------------------------------------------- */

int kit_emu_msan_install(KitEmu *emu, bool rec, FILE *err) {
  KitEmuTool *tool = kit_emu_tool_register(emu, "msan", KIT_EMU_TOOL_API_VERSION, err);
  if (!tool) return -1;
  the_emu = emu;
  the_tool = tool;
  recover = rec;
  for (unsigned r = 0; r < sizeof role_reg / sizeof role_reg[0]; r++) role_reg[r] = kit_emu_reg_role(emu, r);
  const KitArch *arch = kit_emu_arch(emu);
  kit_emu_guest_window(emu, &window_base, &window, &guard);
  /* the guard too: an out-of-window access is clamped into it, and its
   * shadow is read before the access faults */
  uint64_t bytes = window + guard;
  mshadow = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ashadow = mmap(NULL, bytes >> 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  regsh = calloc(1, arch->cpu_state_size + 16);
  if (mshadow == MAP_FAILED || ashadow == MAP_FAILED || !regsh || !find_offsets(arch, emu)) {
    fprintf(err, "kit-emu: cannot reserve the %llu MiB MSan shadow of the guest window\n",
            (unsigned long long)(bytes >> 20));
    return -1;
  }
  KitGuestEnv env = {(uintptr_t)window_base, pages_map, pages_unmap, accessible, emu};
  kit_guest_init(&env, (uintptr_t)ashadow);
  kit_msan_guest_init(mshadow, window, rec);

  memset(&cfg, 0, sizeof cfg);
  cfg.recover = true; /* the runtime decides whether a report returns */
  cfg.shadow_add = (uint64_t)(uintptr_t)mshadow - (uint64_t)(uintptr_t)window_base;
  cfg.state_shadow = (uint64_t)(uintptr_t)regsh;
  cfg.state_size = arch->cpu_state_size;
  cfg.state_pc = 0; /* the CPU state's first field (include/kit/arch.h) */
  const KitArchReg *sp = role_reg[KIT_EMU_ROLE_SP];
  cfg.state_sp = sp && sp->num < 256 && reg_off[sp->num] ? reg_off[sp->num] : UINT64_MAX;

  kit_emu_tool_set_resolver(tool, resolve, NULL);
  if (kit_emu_tool_add_pass(tool, msan_pass, NULL) < 0) {
    fprintf(err, "kit-emu: too many passes over lifted code\n");
    return -1;
  }
  add_module(emu, kit_emu_exe_path(emu), kit_emu_exe_bias(emu), false);
  uint64_t bias;
  const char *ip = kit_emu_interp_path(emu, &bias);
  if (ip) add_module(emu, ip, bias, true);
  kit_emu_on_tb_trans(tool, on_tb, NULL);
  kit_emu_on_map(tool, on_map, NULL);
  kit_emu_on_unmap(tool, on_unmap, NULL);
  kit_emu_on_syscall(tool, on_syscall, NULL);
  kit_emu_on_syscall_ret(tool, on_syscall_ret, NULL);
  kit_emu_on_signal(tool, on_signal, NULL);
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  return 0;
}
