/* emu/tools/asan/asan.c — kit-emu --sanitize=address, a tool on the public
 * tool API (include/kit/emu_tool.h): the guest shadow (a host mapping
 * outside the guest window, one byte per 8 guest bytes), the runtime core with
 * its guest glue, the ASan pass over every lifted block in emulator config
 * (guest shadow mapping, guest addresses, no stack or global redzones), the
 * report entry points lifted code calls (they read the guest pc the memory
 * seam stores), the replaced libc functions, the shadow call stack kept from
 * call/return edges, and at the end the SEGV report or the leak check. */
#include "asan.h"

#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kit/passes.h"

static uint8_t *shadow;
static uint64_t window; /* the guest window's size (RLIMIT_AS may make it smaller than 2^38) */
static KitAsanConfig asan_cfg;
static bool fatal_reports; /* without --sanitize-recover=address a bad access ends the guest */
static KitEmu *the_emu;    /* report entry points and replaced functions are called without it */
static KitEmuTool *the_tool;
static uint64_t fatal_addr; /* si_addr of the signal that ends the guest */

/* the calling convention's registers, looked up once (install) */
static const KitArchReg *role_reg[KIT_EMU_ROLE_ARG0 + 4];
static uint64_t reg(KitEmu *emu, unsigned role) { return kit_emu_reg_read(emu, role_reg[role]); }

/* ---- guest memory for the runtime ------------------------------------------------- */

static uintptr_t pages_map(void *ctx, size_t size) {
  KitEmu *emu = ctx;
  return (uintptr_t)kit_emu_guest_map(emu, size, KIT_EMU_PROT_READ | KIT_EMU_PROT_WRITE);
}

static void pages_unmap(void *ctx, uintptr_t addr, size_t size) {
  KitEmu *emu = ctx;
  kit_emu_guest_unmap(emu, addr, size);
}

static bool accessible(void *ctx, uintptr_t addr, size_t n, bool write) {
  KitEmu *emu = ctx;
  return kit_emu_guest_accessible(emu, addr, n, write ? KIT_EMU_PROT_WRITE : KIT_EMU_PROT_READ);
}

/* fresh or dropped guest memory is addressable: its shadow is zero */
static void shadow_clear(uint64_t va, uint64_t len) {
  if (va >= window) return;
  if (len > window - va) len = window - va;
  uint64_t s = va >> 3, e = (va + len + 7) >> 3;
  uint64_t ps = (s + 4095) & ~4095ull, pe = e & ~4095ull;
  if (ps < pe) {
    memset(shadow + s, 0, ps - s);
    madvise(shadow + ps, pe - ps, MADV_DONTNEED);
    memset(shadow + pe, 0, e - pe);
  } else {
    memset(shadow + s, 0, e - s);
  }
}

/* ---- hooks ---------------------------------------------------------------------------- */

/* the guest instruction at pc, decoded from its bytes; false when they
 * cannot be read or do not decode */
static bool decode_guest(KitEmu *emu, uint64_t pc, KitDecodedInsn *in) {
  uint8_t bytes[16] = {0};
  const KitArch *arch = kit_emu_arch(emu);
  unsigned max = arch->max_insn_len < sizeof bytes ? arch->max_insn_len : sizeof bytes;
  unsigned got = kit_emu_read_mem(emu, pc, bytes, max) == 0 ? max : 0;
  while (got < max && kit_emu_read_mem(emu, pc + got, bytes + got, 1) == 0) got++; /* at a page's end */
  memset(in, 0, sizeof *in);
  return got && arch->decode(bytes, got, pc, in) != 0;
}

/* where a call at pc returns to: the instruction after it, which the call
 * has just written to the link register (on every call edge: decoding is
 * only for calls that link elsewhere) */
static uint64_t return_addr(KitEmu *emu, uint64_t pc) {
  uint64_t link = reg(emu, KIT_EMU_ROLE_RA);
  unsigned max = kit_emu_arch(emu)->max_insn_len;
  if (link > pc && link - pc <= max) return link;
  KitDecodedInsn in;
  return pc + (decode_guest(emu, pc, &in) ? in.len : max);
}

static void on_edge(KitEmu *emu, unsigned vcpu, uint64_t from, uint64_t to, KitEmuEdge kind, void *user) {
  (void)vcpu, (void)user;
  if (kind == KIT_EMU_EDGE_CALL) {
    uint64_t sp = reg(emu, KIT_EMU_ROLE_SP);
    /* frames below the caller's sp were left without a return (longjmp) */
    kit_guest_frames_unwind_to(sp);
    kit_guest_frames_call(return_addr(emu, from), sp);
  }
  else if (kind == KIT_EMU_EDGE_RET)
    kit_guest_frames_ret(to);
}

/* ---- threads: T numbers are the tool API's vcpus; "Thread T1 created by
 * T0 here:" is the creator's stack at pthread_create's entry ---------------- */

#define LINUX_CLONE_THREAD 0x10000
#define MAX_CREATES 4096
static uint64_t create_pc[8]; /* pthread_create in the executable and the libraries */
static unsigned ncreate;
static uint32_t create_stack[MAX_CREATES]; /* by creating vcpu: its last pthread_create */
static struct {
  int tid, parent;
  uint32_t stack;
} made[MAX_CREATES]; /* by the clone's result, until the new thread starts */

static void find_create(KitEmu *emu, const char *module) {
  uint64_t pc = kit_emu_symbol_lookup(emu, module, "pthread_create");
  for (unsigned i = 0; i < ncreate; i++)
    if (create_pc[i] == pc) return;
  if (pc && ncreate < sizeof create_pc / sizeof create_pc[0]) create_pc[ncreate++] = pc;
}

static void on_create(KitEmu *emu, unsigned vcpu, void *user) {
  (void)user;
  if (vcpu < MAX_CREATES) create_stack[vcpu] = kit_guest_stack_here(kit_emu_get_pc(emu));
}

static void on_clone_ret(KitEmu *emu, unsigned vcpu, const KitEmuSyscall *sc, int64_t ret, void *user) {
  (void)emu, (void)user;
  if (sc->nr != 220 /* clone */ || !(sc->args[0] & LINUX_CLONE_THREAD) || ret <= 0) return;
  unsigned slot = (unsigned)ret % MAX_CREATES;
  made[slot].tid = (int)ret;
  made[slot].parent = (int)vcpu;
  made[slot].stack = vcpu < MAX_CREATES ? create_stack[vcpu] : 0;
}

static void on_thread_start(KitEmu *emu, unsigned vcpu, void *user) {
  (void)user;
  kit_guest_thread_begin((int)vcpu);
  int tid = kit_emu_thread_id(emu);
  unsigned slot = (unsigned)tid % MAX_CREATES;
  if (vcpu && made[slot].tid == tid) kit_san_thread_created((int)vcpu, made[slot].parent, made[slot].stack);
}

/* the shadow call stack follows calls and returns: they end blocks */
static void on_tb(KitEmuTool *tool, KitEmuTb *tb, void *user) {
  (void)tool, (void)user;
  KitEmuInsn *last = kit_emu_tb_insn(tb, kit_emu_tb_n_insns(tb) - 1);
  if (kit_emu_insn_class(last) & (KIT_EMU_INSN_CALL | KIT_EMU_INSN_RET)) kit_emu_tb_edge_cb(tb, on_edge, NULL);
  for (unsigned i = 0; i < ncreate; i++) {
    uint64_t off = create_pc[i] - kit_emu_tb_pc(tb);
    if (create_pc[i] >= kit_emu_tb_pc(tb) && off < 64 * 4)
      for (size_t k = 0; k < kit_emu_tb_n_insns(tb); k++)
        if (kit_emu_insn_pc(kit_emu_tb_insn(tb, k)) == create_pc[i]) kit_emu_insn_exec_cb(kit_emu_tb_insn(tb, k), on_create, NULL);
  }
}

static void on_map(KitEmu *emu, const KitEmuMapping *m, void *user) {
  (void)user, (void)emu;
  shadow_clear(m->va, m->len);
  /* a library the dynamic linker maps: the file from offset 0 */
  if (m->kind == KIT_EMU_MAPPING_FILE && m->offset == 0 && strcmp(m->path, kit_emu_exe_path(emu))) {
    kit_emu_san_add_elf(emu, m->path, m->va, false);
    find_create(emu, m->path);
  }
}

static void on_unmap(KitEmu *emu, uint64_t va, uint64_t len, void *user) {
  (void)user, (void)emu;
  shadow_clear(va, len);
}

static bool is_store(KitEmu *emu, uint64_t pc) {
  /* a jump to a page that cannot run faulted on the fetch, a read */
  if (!kit_emu_guest_accessible(emu, pc, 1, KIT_EMU_PROT_EXEC)) return false;
  KitDecodedInsn in;
  if (!decode_guest(emu, pc, &in)) return false;
  return (in.flags & KIT_DECODE_MEM_STORE) || ((in.flags & KIT_DECODE_ATOMIC) && in.rd == 0);
}

/* the end of the mapping that holds *(uint64_t *)user (the stack pointer) */
static void stack_end(KitEmu *emu, const KitEmuMapping *m, void *user) {
  (void)emu;
  uint64_t *sp_end = user;
  if (m->va <= sp_end[0] && sp_end[0] < m->va + m->len) sp_end[1] = m->va + m->len;
}

/* the roots of every thread still there: its stack from sp up, its static
 * TLS and thread descriptor (pthread_setspecific values) around tp, its
 * integer registers. A dynamic binary's dynamic linker keeps TLS in an
 * anonymous mapping of its own, no segment of a module. TLS variant I: the
 * descriptor lies below tp, the modules' blocks above it; glibc's surplus
 * and descriptor are under a page each. */
#define LSAN_THREADS 256
static void lsan_at_exit(KitEmu *emu) {
  static KitGuestRange roots[128 + 1 + 2 * LSAN_THREADS];
  static uint64_t regs[64 * LSAN_THREADS];
  size_t n = kit_emu_san_data_ranges(roots, 128), nregs = 0;
  uint64_t brk_start, brk_cur;
  kit_emu_brk_range(emu, &brk_start, &brk_cur);
  if (brk_cur > brk_start) roots[n++] = (KitGuestRange){brk_start, brk_cur};
  size_t nr;
  const KitArchReg *all = kit_emu_regs(emu, &nr);
  for (unsigned v = 0, live = 0; v < kit_emu_n_threads(emu) && live < LSAN_THREADS; v++) {
    if (!kit_emu_thread_alive(emu, v)) continue;
    live++;
    uint64_t sp_end[2] = {kit_emu_thread_reg_read(emu, v, role_reg[KIT_EMU_ROLE_SP]), 0};
    kit_emu_mappings(emu, stack_end, sp_end);
    if (sp_end[1]) roots[n++] = (KitGuestRange){sp_end[0], sp_end[1]};
    uint64_t tp = kit_emu_thread_reg_read(emu, v, role_reg[KIT_EMU_ROLE_TP]);
    if (tp > 4096) roots[n++] = (KitGuestRange){tp - 4096, tp + kit_emu_san_tls_bytes() + 4096};
    for (size_t i = 0, k = 0; i < nr && k < 64; i++)
      if (all[i].group == KIT_ARCH_REG_INT) regs[nregs++] = kit_emu_thread_reg_read(emu, v, &all[i]), k++;
  }
  if (kit_guest_lsan_check(roots, n, regs, nregs) > 0) {
    fflush(NULL);
    _exit(kit_san_opts.exitcode);
  }
}

static void asan_at_exit(KitEmu *emu, int status) {
  if ((status == 128 + SIGSEGV && kit_san_opts.handle_segv) || (status == 128 + SIGBUS && kit_san_opts.handle_sigbus)) {
    uint64_t pc = kit_emu_get_pc(emu);
    kit_guest_report_segv(pc, reg(emu, KIT_EMU_ROLE_FP), reg(emu, KIT_EMU_ROLE_SP), fatal_addr,
                          is_store(emu, pc));
  }
  if (status < 128 && kit_san_opts.detect_leaks && kit_san_opts.leak_check_at_exit) lsan_at_exit(emu);
}

/* ---- report entry points lifted code calls ----------------------------------------------- */

/* the seam stores the instruction's pc before each access it emits */
#define GPC() kit_emu_get_pc(the_emu)
#define GBP() reg(the_emu, KIT_EMU_ROLE_FP)
#define GSP() reg(the_emu, KIT_EMU_ROLE_SP)

#define REPORT(n)                                                                                        \
  static void report_load##n(uint64_t a) { kit_guest_report_access(GPC(), GBP(), GSP(), a, n, false, fatal_reports); } \
  static void report_store##n(uint64_t a) { kit_guest_report_access(GPC(), GBP(), GSP(), a, n, true, fatal_reports); }
REPORT(1)
REPORT(2)
REPORT(4)
REPORT(8)
REPORT(16)
static void report_load_n(uint64_t a, uint64_t n) { kit_guest_report_access(GPC(), GBP(), GSP(), a, n, false, fatal_reports); }
static void report_store_n(uint64_t a, uint64_t n) { kit_guest_report_access(GPC(), GBP(), GSP(), a, n, true, fatal_reports); }
static void check_loadN(uint64_t a, uint64_t n) { kit_guest_check_range(GPC(), GBP(), GSP(), a, n, false, fatal_reports); }
static void check_storeN(uint64_t a, uint64_t n) { kit_guest_check_range(GPC(), GBP(), GSP(), a, n, true, fatal_reports); }

/* A replaced libc function (kit_emu_replace_function; user: its KitGuestFn):
 * the first four arguments in, the result out, back to the return address
 * (the calling convention's registers). The pc is the function's entry, so
 * a fault inside (strlen(NULL)) is the replaced function's: frame #0 names it. */
static uint64_t san_call(KitEmu *emu, unsigned vcpu, uint64_t pc, void *user) {
  (void)vcpu;
  uint64_t a[4];
  for (unsigned i = 0; i < 4; i++) a[i] = reg(emu, KIT_EMU_ROLE_ARG0 + i);
  uint64_t ra = reg(emu, KIT_EMU_ROLE_RA);
  uint64_t r = kit_guest_call((KitGuestFn)(uintptr_t)user, (uintptr_t)pc, ra, a);
  kit_emu_reg_write(emu, role_reg[KIT_EMU_ROLE_RET], r);
  kit_guest_frames_ret(ra);
  return ra;
}

void kit_emu_san_replace(uint64_t pc, KitGuestFn fn) {
  if (the_tool) kit_emu_replace_function(the_tool, pc, san_call, (void *)(uintptr_t)fn);
}

static const struct {
  const char *name;
  void *fn;
} entries[] = {
    {"__asan_report_load1_noabort", (void *)report_load1},   {"__asan_report_store1_noabort", (void *)report_store1},
    {"__asan_report_load2_noabort", (void *)report_load2},   {"__asan_report_store2_noabort", (void *)report_store2},
    {"__asan_report_load4_noabort", (void *)report_load4},   {"__asan_report_store4_noabort", (void *)report_store4},
    {"__asan_report_load8_noabort", (void *)report_load8},   {"__asan_report_store8_noabort", (void *)report_store8},
    {"__asan_report_load16_noabort", (void *)report_load16}, {"__asan_report_store16_noabort", (void *)report_store16},
    {"__asan_report_load_n_noabort", (void *)report_load_n}, {"__asan_report_store_n_noabort", (void *)report_store_n},
    {"__asan_loadN_noabort", (void *)check_loadN},           {"__asan_storeN_noabort", (void *)check_storeN},
};

static void *san_resolve(const char *name) {
  for (size_t i = 0; i < sizeof entries / sizeof entries[0]; i++)
    if (!strcmp(entries[i].name, name)) return entries[i].fn;
  return NULL;
}

/* ---- the pass over lifted blocks ------------------------------------------------------------ */

/* where the pass below looks at the block's own pc: the dynamic linker's
 * code (superblocks and regions must not take it in; replaced functions
 * are block starts of the emulator's own) */
static bool pass_start(void *user, uint64_t pc) {
  (void)user;
  return kit_emu_san_in_interp(pc);
}

static int san_pass(void *user, KitCgModule *m, KitCgFunc *f) {
  (void)user;
  const char *name = kit_cg_func_name(m, f);
  uint64_t pc = strncmp(name, "emu_block_", 10) ? 0 : strtoull(name + 10, NULL, 16);
  /* ld.so is never instrumented natively either; its private word-at-a-time
   * string routines (not exported, so not replaced) read past heap strings */
  if (kit_emu_san_in_interp(pc)) return 0;
  /* a JIT batch holds blocks already done: f alone */
  return kit_asan_run_func(m, f, &asan_cfg);
}

/* the instruction of b's current block that defines v, or NULL */
static const KitCgInst *def_here(KitCgBuilder *b, KitCgVal v) {
  const KitCgBlock *bl = &b->f->blocks[b->blk];
  for (uint32_t i = bl->ninsts; i--;)
    if (bl->insts[i].id == v) return &bl->insts[i];
  return NULL;
}

static uint8_t *window_base;

/* guest address = host pointer - guest_base */
static KitCgVal guest_addr(void *user, KitCgBuilder *b, KitCgVal ptr) {
  (void)user;
  /* the memory seam's window base + (clamped) guest address: that address */
  const KitCgInst *pa = def_here(b, ptr);
  const KitCgInst *base = pa && pa->op == KIT_CG_OP_PTRADD ? def_here(b, pa->args[0]) : NULL;
  const KitCgInst *k = base && base->op == KIT_CG_OP_INTTOPTR ? def_here(b, base->args[0]) : NULL;
  if (k && k->op == KIT_CG_OP_CONST && k->imm == (uint64_t)(uintptr_t)window_base) return pa->args[1];
  KitCgVal hp = kit_cg_conv(b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, ptr);
  return kit_cg_binop(b, KIT_CG_OP_SUB, hp, kit_cg_iconst(b, KIT_CG_I64, (uint64_t)(uintptr_t)window_base));
}

/* ---- install -------------------------------------------------------------------------------------- */

static bool want_cov;

static void on_exit_cb(KitEmu *emu, int status, void *user) {
  (void)user;
  if (want_cov) kit_emu_cov_write(emu);
  if (shadow) asan_at_exit(emu, status);
}

static void register_elves(KitEmu *emu) {
  kit_emu_san_add_elf(emu, kit_emu_exe_path(emu), kit_emu_exe_bias(emu), false);
  uint64_t bias;
  const char *ip = kit_emu_interp_path(emu, &bias);
  if (ip) kit_emu_san_add_elf(emu, ip, bias, true);
}

/* the signal that ends the guest: its fault address for the SEGV report */
static void on_signal(KitEmu *emu, unsigned vcpu, const KitEmuSignal *sig, void *user) {
  (void)emu, (void)vcpu, (void)user;
  if (sig->fatal) fatal_addr = sig->addr;
}

static void *san_resolve_tool(void *user, const char *name) {
  (void)user;
  return san_resolve(name);
}

int kit_emu_san_install(KitEmu *emu, bool address, bool recover, bool coverage, FILE *err) {
  KitEmuTool *tool = kit_emu_tool_register(emu, address ? "asan" : "coverage", KIT_EMU_TOOL_API_VERSION, err);
  if (!tool) return -1;
  the_emu = emu;
  for (unsigned r = 0; r < sizeof role_reg / sizeof role_reg[0]; r++) role_reg[r] = kit_emu_reg_role(emu, r);
  want_cov = coverage;
  kit_emu_on_exit(tool, on_exit_cb, NULL);
  if (coverage && !address) {
    kit_san_options_defaults(&kit_san_opts);
    kit_san_options_parse(&kit_san_opts, getenv("ASAN_OPTIONS"), NULL, "AddressSanitizer");
    register_elves(emu);
  }
  if (address) {
    fatal_reports = !recover;
    /* the guard too: the branch-free seam hands out-of-window accesses a
     * host address in the guard, whose shadow the check reads before the
     * access faults */
    uint64_t guard;
    kit_emu_guest_window(emu, &window_base, &window, &guard);
    uint64_t bytes = (window + guard) >> 3;
    shadow = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (shadow == MAP_FAILED) {
      shadow = NULL;
      fprintf(err, "kit-emu: cannot reserve the %llu MiB ASan shadow of the guest window\n",
              (unsigned long long)(bytes >> 20));
      return -1;
    }
    KitGuestEnv env = {(uintptr_t)window_base, pages_map, pages_unmap, accessible, emu};
    kit_guest_init(&env, (uintptr_t)shadow);
    kit_emu_tool_set_resolver(tool, san_resolve_tool, NULL);
    the_tool = tool; /* the modules' libc functions are replaced as they are found */
    register_elves(emu);
    kit_emu_on_signal(tool, on_signal, NULL);

    memset(&asan_cfg, 0, sizeof asan_cfg);
    asan_cfg.shadow_offset = (uint64_t)(uintptr_t)shadow;
    asan_cfg.check_addr = guest_addr;
    asan_cfg.user = emu;
    /* the report entry points are the _noabort ones; whether they return is
     * decided in them (fatal_reports), as the runtime decides for halt_on_error */
    asan_cfg.recover = true;
    asan_cfg.skip_safe = true;
    if (kit_emu_tool_add_pass(tool, san_pass, NULL) < 0) {
      fprintf(err, "kit-emu: too many passes over lifted code\n");
      return -1;
    }
    kit_emu_tool_set_block_starts(tool, pass_start, NULL);
    find_create(emu, kit_emu_exe_path(emu));
    kit_emu_on_thread_start(tool, on_thread_start, NULL);
    kit_emu_on_syscall_ret(tool, on_clone_ret, NULL);
    kit_emu_on_tb_trans(tool, on_tb, NULL);
    kit_emu_on_map(tool, on_map, NULL);
    kit_emu_on_unmap(tool, on_unmap, NULL);
  }
  if (coverage) {
    uint64_t lo, hi;
    kit_emu_san_exe_range(&lo, &hi);
    kit_emu_cov_init(emu, lo, hi);
    kit_emu_cov_install(tool);
  }
  return 0;
}
