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

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
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
static uint8_t *regsh;    /* the CPU state's shadow (with origins: then the registers' origins) */
static size_t regsh_bytes;
static uint8_t *morigin;  /* with origins: 4 bytes per 4-byte granule of the window and guard */
static uint32_t reg_off[256]; /* CPU state offset of each register number (0: none) */
static KitMsanConfig cfg;

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

static bool decode_at(KitEmu *emu, uint64_t pc, KitDecodedInsn *in) {
  const KitArch *arch = kit_emu_arch(emu);
  uint8_t bytes[16] = {0};
  unsigned max = arch->max_insn_len < sizeof bytes ? arch->max_insn_len : sizeof bytes;
  unsigned got = kit_emu_read_mem(emu, pc, bytes, max) == 0 ? max : 0;
  while (got < max && kit_emu_read_mem(emu, pc + got, bytes + got, 1) == 0) got++;
  memset(in, 0, sizeof *in);
  return got && arch->decode(bytes, got, pc, in) != 0;
}

/* where a call at from returns to: what it wrote to the link register, else the next instruction */
static uint64_t return_addr(KitEmu *emu, uint64_t from) {
  uint64_t link = reg(emu, KIT_EMU_ROLE_RA);
  unsigned max = kit_emu_arch(emu)->max_insn_len;
  if (link > from && link - from <= max) return link;
  KitDecodedInsn in;
  return from + (decode_at(emu, from, &in) ? in.len : max);
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

/* ---- branches that only pick a value ---------------------------------------------------------- */

/* A conditional branch forward over one or two short arms of register-only
 * instructions that meet again (a triangle `b L; arm; L:`, or a diamond
 * `b L; arm; j M; L: arm; M:`) is what a compiler makes of a select on an
 * ISA without conditional moves: an uninitialized condition makes the
 * registers the arms write uninitialized (clang's select rule, coarsened as
 * passes/msan_select.c does for compiled code) instead of a report. */
#define MAX_ARM 6
#define MAX_HAMMOCKS 4096
typedef struct {
  uint64_t pc;       /* of the branch */
  uint64_t writes[2]; /* register numbers 0..127 the arms write */
} Hammock;
static Hammock hammocks[MAX_HAMMOCKS]; /* open addressing by pc; pc 0 = empty */
static pthread_mutex_t hammock_lock = PTHREAD_MUTEX_INITIALIZER;

static Hammock *hammock_slot(uint64_t pc, bool add) {
  for (size_t i = (pc >> 1) % MAX_HAMMOCKS, n = 0; n < MAX_HAMMOCKS; i = (i + 1) % MAX_HAMMOCKS, n++) {
    if (hammocks[i].pc == pc) return &hammocks[i];
    if (!hammocks[i].pc) return add ? &hammocks[i] : NULL;
  }
  return NULL;
}

/* the register-only instructions of [pc, end) into w; false if one is not */
static bool pure_arm(KitEmu *emu, uint64_t pc, uint64_t end, uint64_t w[2], uint64_t *jump_to) {
  const uint32_t bad = KIT_DECODE_BRANCH | KIT_DECODE_JUMP | KIT_DECODE_CALL | KIT_DECODE_RET | KIT_DECODE_SYSCALL |
                       KIT_DECODE_TRAP | KIT_DECODE_ILLEGAL | KIT_DECODE_MEM_LOAD | KIT_DECODE_MEM_STORE |
                       KIT_DECODE_ATOMIC | KIT_DECODE_CSR | KIT_DECODE_FENCE_I | KIT_DECODE_INDIRECT;
  *jump_to = 0;
  for (unsigned n = 0; pc < end; n++) {
    KitDecodedInsn in;
    if (n == MAX_ARM || !decode_at(emu, pc, &in)) return false;
    if (jump_to && (in.flags & KIT_DECODE_JUMP) && !(in.flags & (KIT_DECODE_INDIRECT | KIT_DECODE_CALL)) &&
        pc + in.len == end && in.target > end) { /* a diamond's first arm ends in `j M` */
      *jump_to = in.target;
      return true;
    }
    if (in.flags & bad) return false;
    uint16_t regs[8];
    unsigned k = kit_emu_arch(emu)->insn_writes(&in, regs, 8);
    for (unsigned j = 0; j < k; j++)
      if (regs[j] < 128) w[regs[j] / 64] |= 1ull << (regs[j] % 64);
    pc += in.len;
  }
  return true;
}

static bool in_unoptimised(uint64_t pc);

static void find_hammock(KitEmu *emu, uint64_t pc) {
  if (in_unoptimised(pc)) return;
  KitDecodedInsn br;
  if (!decode_at(emu, pc, &br) || !(br.flags & KIT_DECODE_BRANCH) || br.target <= pc ||
      br.target - pc > 4u * MAX_ARM + 4)
    return;
  uint64_t w[2] = {0, 0}, join;
  if (!pure_arm(emu, pc + br.len, br.target, w, &join)) return;
  if (join) {
    uint64_t none;
    if (join - br.target > 4u * MAX_ARM || !pure_arm(emu, br.target, join, w, &none) || none) return;
  }
  pthread_mutex_lock(&hammock_lock);
  Hammock *h = hammock_slot(pc, true);
  if (h && !h->pc) {
    h->writes[0] = w[0];
    h->writes[1] = w[1];
    __atomic_store_n(&h->pc, pc, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&hammock_lock);
}

static bool select_pc(void *user, uint64_t pc) {
  (void)user;
  pthread_mutex_lock(&hammock_lock);
  bool yes = hammock_slot(pc, false) != NULL;
  pthread_mutex_unlock(&hammock_lock);
  return yes;
}

/* lifted code: the branch at pc picked on an uninitialized condition */
static void emu_select(uint64_t pc) {
  pthread_mutex_lock(&hammock_lock);
  Hammock *h = hammock_slot(pc, false);
  uint64_t w[2] = {h ? h->writes[0] : 0, h ? h->writes[1] : 0};
  pthread_mutex_unlock(&hammock_lock);
  for (unsigned r = 1; r < 128; r++)
    if ((w[r / 64] >> (r % 64)) & 1 && r < 256 && reg_off[r]) memset(regsh + reg_off[r], 0xff, 8);
}

static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  size_t n = kit_emu_tb_n_insns(tb);
  for (size_t i = 0; i < n; i++) {
    KitEmuInsn *in = kit_emu_tb_insn(tb, i);
    if (kit_emu_insn_class(in) & KIT_EMU_INSN_BRANCH) find_hammock(the_emu, kit_emu_insn_pc(in));
  }
  KitEmuInsn *last = kit_emu_tb_insn(tb, n - 1);
  if (kit_emu_insn_class(last) & (KIT_EMU_INSN_CALL | KIT_EMU_INSN_RET)) kit_emu_tb_edge_cb(tb, on_edge, NULL);
}

/* ---- what lifted code calls ------------------------------------------------------------------ */

static void emu_warning(uint64_t pc) { kit_msan_guest_report(pc, NULL, 0, 0, 0); }
static void emu_warning_origin(uint64_t pc, uint32_t origin) { kit_msan_guest_report_origin(pc, origin); }
static void emu_sp(uint64_t old, uint64_t new_sp) { kit_msan_guest_sp(old, new_sp); }
static void emu_sp_origin(uint64_t old, uint64_t new_sp, uint64_t pc) { kit_msan_guest_sp_at(old, new_sp, pc); }

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
      {"__msan_emu_warning_origin", (void *)emu_warning_origin}, {"__msan_emu_sp_origin", (void *)emu_sp_origin},
      {"__msan_emu_select", (void *)emu_select},
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

/* Modules whose code was compiled without optimisation: gcc -O0 branches
 * where an optimising build selects, and memcheck (and clang at -O0) report
 * those branches, so the select rule is off there. Told by DWARF's
 * DW_AT_producer strings (gcc records its switches: "GNU C17 12.2.0 -g
 * -O0"): a module whose producers name no optimisation level but -O0. A
 * module without them (no -g) counts as optimised. */
#define MAX_MODULES 64
static struct {
  uint64_t lo, hi;
} unoptimised[MAX_MODULES];
static size_t nunoptimised;

static bool producers_unoptimised(Elf *e) {
  size_t shstrndx;
  if (elf_getshdrstrndx(e, &shstrndx) != 0) return false;
  bool seen = false, optimised = false;
  for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) continue;
    const char *name = elf_strptr(e, shstrndx, sh.sh_name);
    if (!name || (strcmp(name, ".debug_str") && strcmp(name, ".debug_line_str"))) continue;
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d || !d->d_buf) continue;
    const char *p = d->d_buf, *end = p + d->d_size;
    for (; p < end; p += strnlen(p, (size_t)(end - p)) + 1) {
      if (strncmp(p, "GNU ", 4) || !memchr(p, 0, (size_t)(end - p))) continue;
      seen = true;
      for (const char *o = strstr(p, " -O"); o; o = strstr(o + 1, " -O"))
        optimised = o[3] != '0';
      if (optimised) return false;
    }
  }
  return seen;
}

static void classify_module(const char *path, uint64_t bias) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  size_t phn;
  if (e && elf_kind(e) == ELF_K_ELF && elf_getphdrnum(e, &phn) == 0 && producers_unoptimised(e) &&
      nunoptimised < MAX_MODULES) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < phn; i++) {
      GElf_Phdr ph;
      if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD) continue;
      if (bias + ph.p_vaddr < lo) lo = bias + ph.p_vaddr;
      if (bias + ph.p_vaddr + ph.p_memsz > hi) hi = bias + ph.p_vaddr + ph.p_memsz;
    }
    if (hi) {
      pthread_mutex_lock(&hammock_lock);
      unoptimised[nunoptimised].lo = lo;
      unoptimised[nunoptimised].hi = hi;
      __atomic_store_n(&nunoptimised, nunoptimised + 1, __ATOMIC_RELEASE);
      pthread_mutex_unlock(&hammock_lock);
    }
  }
  if (e) elf_end(e);
  close(fd);
}

static bool in_unoptimised(uint64_t pc) {
  size_t n = __atomic_load_n(&nunoptimised, __ATOMIC_ACQUIRE);
  for (size_t i = 0; i < n; i++)
    if (pc >= unoptimised[i].lo && pc < unoptimised[i].hi) return true;
  return false;
}

static void add_module(KitEmu *emu, const char *path, uint64_t bias, bool is_interp) {
  kit_emu_san_add_elf(emu, path, bias, is_interp); /* the symbolizer */
  classify_module(path, bias);
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

/* the guest's alternate signal stack (sigaltstack), where handlers' frames go */
static uint64_t altstack_lo, altstack_hi;

static void on_syscall_ret(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *user) {
  (void)vcpu, (void)user;
  kit_msan_guest_syscall_ret(sc->nr, sc->args, ret);
  if (sc->nr == 132 && ret == 0 && sc->args[0]) { /* sigaltstack(ss, old): stack_t {sp; flags; size} */
    uint64_t st[3];
    if (kit_emu_read_mem(emu, sc->args[0], st, sizeof st) == 0) {
      bool off = (uint32_t)st[1] & 2; /* SS_DISABLE */
      altstack_lo = off ? 0 : st[0];
      altstack_hi = off ? 0 : st[0] + st[2];
    }
  }
  uint64_t *s = reg_shadow(KIT_EMU_ROLE_RET);
  if (s) *s = 0;
  if (sc->nr == 139) memset(regsh, 0, kit_emu_arch(the_emu)->cpu_state_size); /* rt_sigreturn */
}

/* Guest threads take turns, and the lifted code's register shadow is one
 * buffer (cfg.state_shadow): the thread that stops running keeps its copy,
 * the one that runs gets its own back (a new thread: all defined, as the
 * registers clone gave it are) */
#define MAX_SAVED 4096
static uint8_t *saved_regsh[MAX_SAVED];
static void on_switch(KitEmu *emu, unsigned from, unsigned to, void *user) {
  (void)user;
  (void)emu;
  size_t n = regsh_bytes;
  if (from < MAX_SAVED && (saved_regsh[from] || (saved_regsh[from] = malloc(n))))
    memcpy(saved_regsh[from], regsh, n);
  if (to < MAX_SAVED && saved_regsh[to]) memcpy(regsh, saved_regsh[to], n);
  else memset(regsh, 0, n);
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
  if (altstack_hi > altstack_lo && altstack_hi - altstack_lo <= (64u << 20))
    kit_msan_guest_unpoison(altstack_lo, altstack_hi - altstack_lo);
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

int kit_emu_msan_install(KitEmu *emu, bool rec, int origins, FILE *err) {
  KitEmuTool *tool = kit_emu_tool_register(emu, "msan", KIT_EMU_TOOL_API_VERSION, err);
  if (!tool) return -1;
  the_emu = emu;
  the_tool = tool;
  for (unsigned r = 0; r < sizeof role_reg / sizeof role_reg[0]; r++) role_reg[r] = kit_emu_reg_role(emu, r);
  const KitArch *arch = kit_emu_arch(emu);
  kit_emu_guest_window(emu, &window_base, &window, &guard);
  /* the guard too: an out-of-window access is clamped into it, and its
   * shadow is read before the access faults */
  uint64_t bytes = window + guard;
  mshadow = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  ashadow = mmap(NULL, bytes >> 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  size_t state = (arch->cpu_state_size + 16 + 15) & ~(size_t)15;
  regsh_bytes = origins ? 2 * state : arch->cpu_state_size;
  regsh = calloc(1, origins ? 2 * state : state);
  if (origins) {
    morigin = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (morigin == MAP_FAILED) {
      fprintf(err, "kit-emu: cannot reserve the %llu MiB MSan origins of the guest window (ulimit -v?)\n",
              (unsigned long long)(bytes >> 20));
      return -1;
    }
  }
  /* under RLIMIT_AS (ulimit -v) the window was sized for kit-emu without a
   * shadow as large as itself: leave room for the emulator's own needs
   * (interpreter stacks, JIT code) or refuse, rather than fail later */
  const size_t room = 512u << 20;
  void *probe = mmap(NULL, room, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (probe == MAP_FAILED) {
    if (mshadow != MAP_FAILED) munmap(mshadow, bytes);
    if (ashadow != MAP_FAILED) munmap(ashadow, bytes >> 3);
    mshadow = ashadow = MAP_FAILED;
  } else {
    munmap(probe, room);
  }
  if (mshadow == MAP_FAILED || ashadow == MAP_FAILED || !regsh || !find_offsets(arch, emu)) {
    fprintf(err, "kit-emu: cannot reserve the %llu MiB MSan shadow of the guest window (ulimit -v?)\n",
            (unsigned long long)(bytes >> 20));
    return -1;
  }
  KitGuestEnv env = {(uintptr_t)window_base, pages_map, pages_unmap, accessible, emu};
  kit_guest_init(&env, (uintptr_t)ashadow);
  kit_msan_guest_init(mshadow, window, rec);
  if (origins) kit_msan_guest_set_origins(morigin);

  memset(&cfg, 0, sizeof cfg);
  cfg.recover = true; /* the runtime decides whether a report returns */
  cfg.shadow_add = (uint64_t)(uintptr_t)mshadow - (uint64_t)(uintptr_t)window_base;
  cfg.state_shadow = (uint64_t)(uintptr_t)regsh;
  /* the registers' part of the state (the rest, instret and the like, stays clean) */
  for (unsigned r = 0; r < 256; r++)
    if (reg_off[r] + 8 > cfg.state_size) cfg.state_size = reg_off[r] + 8;
  cfg.state_pc = 0; /* the CPU state's first field (include/kit/arch.h) */
  const KitArchReg *sp = role_reg[KIT_EMU_ROLE_SP];
  cfg.state_sp = sp && sp->num < 256 && reg_off[sp->num] ? reg_off[sp->num] : UINT64_MAX;
  cfg.select_pc = select_pc;
  if (origins) { /* level 1: allocation origins; stores chain nothing in binaries */
    size_t state_bytes = (arch->cpu_state_size + 16 + 15) & ~(size_t)15;
    cfg.origins = 1;
    cfg.origin_add = (uint64_t)(uintptr_t)morigin - (uint64_t)(uintptr_t)window_base;
    cfg.state_origin = (uint64_t)(uintptr_t)(regsh + state_bytes);
  }

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
  kit_emu_on_thread_switch(tool, on_switch, NULL);
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  return 0;
}
