/* emu/internal.h — the base of the emulator's stages: the KitEmu structure
 * they share and what every stage may call (base.c). Each stage declares
 * its own functions in its header (docs/emu.md has the table). Not part of
 * the public API. */
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
#include "kit/emu_tool.h"

#define KIT_EMU_NSIG 65
#define KIT_EMU_STACK_SIZE (8ull << 20)

/* the guest's registers by role (its calling convention: KitArch.cc) */
#define KIT_EMU_REG(emu, role) ((emu)->arch->cc.role)

typedef struct KitEmuSigAction {
  uint64_t handler, flags, mask; /* the kernel's generic struct sigaction (no sa_restorer) */
} KitEmuSigAction;

typedef struct KitEmuTcache KitEmuTcache; /* tcache.h */
typedef struct KitEmuTierImpl KitEmuTierState; /* tier.c */

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
  /* the tools (instrument.c) and the cache work they left for the
   * dispatcher's next boundary */
  struct KitEmuTools *tools;
  bool tools_pending;
  /* guest ranges from files, the ELF modules among them (modules.c); the
   * file the next kit_aspace_map maps (set by its caller: the loader, mmap) */
  struct KitEmuFiles *files;
  struct {
    const char *path;
    int fd;
    uint64_t off;
  } map_src;
  KitEmuShadowPlane planes[KIT_EMU_MAX_PLANES];

  /* the loaded program */
  char exe_path[4096];
  char sysroot[4096];
  char interp_path[8192]; /* the dynamic linker loaded, "" for a static program */
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

/* the most instructions in a block (a trace or a superblock too) */
#define KIT_EMU_MAX_BLOCK_INSNS 64

void kit_emu_warn(KitEmu *emu, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* the emulator's own fault signals (SEGV, BUS, ILL, FPE, TRAP) */
bool kit_emu_sync_only(int sig);
/* Raise a synchronous guest signal (fault, trap, self-kill); delivered before
 * the next block. */
void kit_emu_raise(KitEmu *emu, int sig, int code, uint64_t addr);

/* may jitted blocks jump to each other (docs/emu.md, "Chaining")? Not when
 * a tool needs the dispatcher, nor under -d exec */
static inline bool kit_emu_chaining(const KitEmu *emu) {
  return emu->opt.chain && !(emu->opt.debug & KIT_EMU_DEBUG_EXEC);
}

#endif
