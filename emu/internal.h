/* emu/internal.h — the KitEmu structure shared by the emulator's files
 * (loader, syscalls, signals, translation cache, tiers, dispatcher) and the
 * internal entry points between them. Not part of the public API. */
#ifndef KIT_EMU_INTERNAL_H
#define KIT_EMU_INTERNAL_H

#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>

#include "aspace.h"
#include "kit/cg.h"
#include "kit/emu.h"

#define KIT_EMU_NSIG 65
#define KIT_EMU_STACK_SIZE (8ull << 20)

/* the guest's registers by role (its calling convention: KitArch.cc) */
#define KIT_EMU_REG(emu, role) ((emu)->arch->cc.role)

typedef struct KitEmuSigAction {
  uint64_t handler, flags, mask; /* the kernel's generic struct sigaction (no sa_restorer) */
} KitEmuSigAction;

typedef struct KitEmuTcache KitEmuTcache;
typedef struct KitEmuTierImpl KitEmuTierState;

struct KitEmuShadowPlane {
  KitEmu *emu;
  unsigned index;
};

struct KitEmu {
  const KitArch *arch;
  void *cpu;
  KitEmuAspace as;
  KitEmuOptions opt;
  FILE *log;
  KitEmuToolHooks hooks;
  /* hooks that see blocks, accesses or branches other than calls and
   * returns: no superblocks, traces, regions or tier 2 under them */
  bool watch_flow;
  bool (*is_start)(void *user, uint64_t pc); /* kit_emu_set_block_starts */
  void *is_start_user;
  KitEmuShadowPlane planes[KIT_EMU_MAX_PLANES];

  /* the loaded program */
  char exe_path[4096];
  char sysroot[4096];
  uint64_t entry, interp_base, phdr, phnum, load_bias;
  uint64_t sigreturn_tramp; /* guest page holding the arch's sigreturn code */

  /* signals */
  KitEmuSigAction sigact[KIT_EMU_NSIG];
  uint64_t sigmask;
  uint64_t restore_mask; /* rt_sigsuspend: the mask the first handler's frame saves */
  bool has_restore_mask;
  uint64_t altstack_sp, altstack_size;
  uint32_t altstack_flags;
  _Atomic uint64_t async_pending; /* bit per signal, set by the host handler */
  uint64_t sync_pending;          /* raised by the guest itself (tgkill on self, faults) */
  uint64_t fault_addr;            /* si_addr of the pending synchronous fault */
  int fault_code;
  sigjmp_buf fault_jmp;
  volatile sig_atomic_t in_guest;
  /* the guest pc of the block running: set before a tier-0 block, stored by
   * an LLVM block's prologue (chained ones too); a fault's retired count */
  uint64_t block_pc;
  pthread_t guest_thread; /* only its faults are the guest's (not the JIT worker's) */
  /* pages written by the guest that held translated code (host fault
   * handler -> dispatcher); overflow means flush everything */
  uint64_t smc_pages[16];
  volatile sig_atomic_t smc_n, smc_overflow;
  /* set by whatever needs the dispatcher soon (a host signal, a write to
   * translated code, a raised signal, an invalidation); jitted blocks that
   * chain check it on entry; cleared at each dispatcher boundary */
  volatile int32_t chain_stop;

  /* the pass pipeline over lifted blocks */
  struct {
    KitEmuBlockPass fn;
    void *user;
  } passes[8];
  unsigned npasses;

  /* execution */
  KitEmuTcache *tc;
  /* the exit slot the last jitted block left through unchained (the
   * dispatcher links it), NULL when it left otherwise */
  struct KitEmuExit *last_exit;
  KitEmuTierState *tier;
  bool exited;
  int exit_status;
  uint64_t ctid_clear;   /* set_tid_address */
  uint64_t stack_size;   /* limits.c: from RLIMIT_STACK */
  KitEmuStats stats;
};

extern KitEmu *kit_emu_current;
/* names lifted code calls that a mode of the emulator defines (ASan's report
 * entry points, emu/san.c): consulted before the process's symbols */
extern void *(*kit_emu_resolve_hook)(const char *name);

/* limits.c: the guest stack's size from RLIMIT_STACK; the guest window's
 * size under RLIMIT_AS (0, said on err, when too small); getrlimit/setrlimit */
uint64_t kit_emu_stack_size(void);
uint64_t kit_emu_window_size(uint64_t stack, FILE *err);
int64_t kit_emu_rlimit(int res, const uint64_t *want, uint64_t old[2]);

/* loader.c: the ELF machine of the program at path (0, said on err, when
 * it is no ELF file); maps the executable (and its interpreter) and builds
 * the stack */
uint16_t kit_emu_elf_machine(const char *path, FILE *err);
int kit_emu_load(KitEmu *emu, int argc, char **argv, char **envp, FILE *err);

/* syscall*.c */
int64_t kit_emu_syscall(KitEmu *emu, uint64_t nr, const uint64_t a[6], uint64_t pc);
int64_t kit_emu_sys_fs(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled);
int64_t kit_emu_sys_mem(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled);
int64_t kit_emu_sys_proc(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled);

/* signal.c */
void kit_emu_signals_init(KitEmu *emu);
int64_t kit_emu_sys_sigaction(KitEmu *emu, int sig, uint64_t act, uint64_t oldact);
int64_t kit_emu_sys_sigprocmask(KitEmu *emu, int how, uint64_t set, uint64_t oldset);
int64_t kit_emu_sys_sigaltstack(KitEmu *emu, uint64_t ss, uint64_t old);
uint64_t kit_emu_sys_sigreturn(KitEmu *emu); /* returns the pc to resume */
/* A host call returned EINTR: should the guest's system call be re-executed after
 * the pending handler (its action has SA_RESTART)? */
bool kit_emu_restart_after_signal(KitEmu *emu);
/* Raise a synchronous guest signal (fault, trap, self-kill); delivered before
 * the next block. */
void kit_emu_raise(KitEmu *emu, int sig, int code, uint64_t addr);
/* At a block boundary: deliver what is pending (builds a frame, or takes the
 * default action, which may end the process). */
void kit_emu_deliver_signals(KitEmu *emu);

/* tcache.c / tier.c / exec.c */
KitEmuTcache *kit_tcache_new(KitEmu *emu);
void kit_tcache_free(KitEmuTcache *tc);
void kit_tcache_flush(KitEmuTcache *tc);
void kit_tcache_invalidate(KitEmuTcache *tc, uint64_t va, uint64_t len);
/* Decode the instruction at guest pc into *in (zeroed first, pc set; it may
 * run into the next executable region): its length, 0 when it does not
 * decode, -1 when pc is not executable. Async-signal-safe (the fault
 * handler's address recovery uses it). */
int kit_emu_decode_at(KitEmu *emu, uint64_t pc, KitDecodedInsn *in);
/* Lift decoded instructions into `i64 emu_block_<pc>(ptr cpu)` of module m
 * with the memory seam and tool shims, then run the pass pipeline; NULL
 * (message on err) when it cannot. Called on the JIT worker too. */
KitCgFunc *kit_emu_translate_insns(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n,
                                   FILE *err);
/* The same for LLVM (tiers 1 and 2), named `name` (unique in its JIT): exits chain to the next jitted block when
 * kit_emu_chaining allows (docs/emu.md, "Chaining"). */
KitCgFunc *kit_emu_translate_jit(KitEmu *emu, KitCgModule *m, const KitDecodedInsn *insns, unsigned n, const char *name,
                                  FILE *err);
bool kit_emu_chaining(const KitEmu *emu);
struct KitEmuBlock;
/* blk's tier-0 translation (blk->m, blk->f) unless it has one; false when
 * the block cannot be lifted */
bool kit_emu_block_lift(KitEmu *emu, struct KitEmuBlock *blk);
/* The instructions to compile for the block at b (a KitEmuBlock): the block,
 * then the blocks its conditional branches led to in tier 0 at least
 * TRACE_BIAS of the time (exec.c, "Traces"); malloc'd, *n set. */
KitDecodedInsn *kit_emu_trace(KitEmu *emu, struct KitEmuBlock *b, unsigned *n);
KitDecodedInsn *kit_emu_region(KitEmu *emu, struct KitEmuBlock *b, unsigned *n);
/* the LLVM code for pc from the jump cache, or the exit stub (an indirect exit's chain) */
struct KitEmuExit;
int64_t (*kit_emu_chain_lookup(int64_t pc))(void *, struct KitEmuExit *);
int64_t kit_emu_chain_miss(void *cpu, int64_t pc);
/* where unlinked exits lead: notes the slot (emu->last_exit), returns to
 * the dispatcher the slot's target pc (an indirect exit, entered through no
 * slot: the pc the block stored) */
int64_t kit_emu_exit_stub(void *cpu, struct KitEmuExit *via);
int kit_emu_exec_loop(KitEmu *emu);
/* A load or store stopped the running block (emu->block_pc) after `retired`
 * instructions: count those (instret) and tell the tools (on_block_fault). */
void kit_emu_block_fault(KitEmu *emu, uint32_t retired);
/* after a host fault: the block's instructions before the faulting pc */
uint32_t kit_emu_fault_retired(KitEmu *emu);
/* -d stats: translation and tier figures on the log */
void kit_emu_print_stats(KitEmu *emu);
/* -d perfmap: /tmp/perf-PID.map for the jitted blocks */
void kit_emu_write_perfmap(KitEmu *emu);

/* the default action of a fatal signal: tools' on_exit, then the host signal */
_Noreturn void kit_emu_die_by_signal(KitEmu *emu, int sig);

void kit_emu_warn(KitEmu *emu, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
