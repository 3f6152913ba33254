/* include/kit/emu.h — the embedder API of kit-emu: create an emulator for a
 * guest ELF, run it, passes over its lifted code, register and memory
 * access, shadow planes. Tools observe and change the guest through
 * include/kit/emu_tool.h. Handles are opaque. */
#ifndef KIT_EMU_H
#define KIT_EMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kit/arch.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct KitEmu KitEmu;
typedef struct KitEmuShadowPlane KitEmuShadowPlane;

/* guest page permissions */
enum { KIT_EMU_PROT_READ = 1, KIT_EMU_PROT_WRITE = 2, KIT_EMU_PROT_EXEC = 4 };

typedef enum KitEmuTier { KIT_EMU_TIER_INTERP = 0, KIT_EMU_TIER_JIT = 1, KIT_EMU_TIER_AUTO = 2 } KitEmuTier;

/* debug output selectors (-d) */
enum {
  KIT_EMU_DEBUG_IN_ASM = 1 << 0,
  KIT_EMU_DEBUG_CG = 1 << 1,
  KIT_EMU_DEBUG_EXEC = 1 << 2,
  KIT_EMU_DEBUG_SYSCALL = 1 << 3,
  KIT_EMU_DEBUG_STATS = 1 << 4, /* translation and tier statistics at exit */
  KIT_EMU_DEBUG_PERFMAP = 1 << 5, /* /tmp/perf-PID.map naming the LLVM code of each block, at exit (perf) */
};

typedef struct KitEmuOptions {
  const char *sysroot;     /* NULL: $KIT_EMU_SYSROOT, else /usr/riscv64-linux-gnu */
  const char *argv0;       /* the guest's argv[0] (qemu's -0); NULL: the program's path as given */
  KitEmuTier tier;
  uint32_t jit_threshold;  /* executions before a block is queued for LLVM; 0 = default (200, and
                              * nothing is queued before the guest has run 100000 blocks) */
  bool single_step;        /* one-instruction blocks */
  bool no_tier2;           /* no recompilation of sampled hot blocks (traces, full register allocator) */
  bool no_baseline;        /* no baseline compiler (cg/baseline): blocks wait in tier 0 for LLVM */
  bool chain;              /* LLVM blocks jump to each other (docs/emu.md, "Chaining"; kit-emu's default) */
  bool serial_threads;     /* guest threads take turns even without tools (as under Valgrind); by
                              * default they run compiled code in parallel when no tool or pass is in */
  unsigned debug;          /* KIT_EMU_DEBUG_* */
  FILE *log;               /* debug output and warnings; NULL = stderr */
  /* execve of a guest ELF (or of a script whose interpreter is one) runs
   * exec_argv[0] with exec_argv[1..exec_argc-1], then "-0", the new argv[0],
   * "--" and the program with its arguments: kit-emu and its options
   * (Valgrind's --trace-children=yes). NULL: execve of a guest program
   * fails with ENOEXEC, as without binfmt_misc; host programs and scripts
   * with a host interpreter are the host's execve either way. */
  char *const *exec_argv;
  int exec_argc;
  bool log_fd_given;       /* --log-fd: an execve passes the log's descriptor on; without it the new
                              * program's messages go to the guest's fd 2 of then, unless that is closed */
} KitEmuOptions;

/* Create an emulator and load `argv[0]` (a riscv64 ELF) with its arguments
 * and environment. On failure writes one line to err and returns NULL. */
KitEmu *kit_emu_new(const KitEmuOptions *opt, int argc, char **argv, char **envp, FILE *err);
void kit_emu_free(KitEmu *emu);

/* Run the guest until it exits; returns its exit status as a shell would see
 * it (0..255, 128+sig when a signal killed it: the default action of a fatal
 * guest signal re-raises it on the host, so this only returns for exits). */
int kit_emu_run(KitEmu *emu);

/* The pass pipeline over lifted code: each pass transforms a freshly lifted
 * block function (i64 emu_block_<pc>(ptr cpu), with a second ptr parameter,
 * the exit slot it was entered through, when compiled for chaining) in
 * module m before it is verified and run; the ASan pass over guest code plugs in here. Passes run
 * in the order added, for tier 0 and again when the block is re-lifted for
 * LLVM (possibly on the JIT worker thread: keep shared state thread-safe).
 * Nonzero refuses the block: the guest gets SIGILL at its pc. At most 8. */
typedef int (*KitEmuBlockPass)(void *user, KitCgModule *m, KitCgFunc *block);
int kit_emu_add_pass(KitEmu *emu, KitEmuBlockPass pass, void *user);

/* Counters of the translation machinery (for tests, benchmarks, -d exec). */
typedef struct KitEmuStats {
  uint64_t blocks_translated; /* tier-0 translations (re-translations after invalidation included) */
  uint64_t blocks_executed;   /* blocks the dispatcher ran, either tier (chained ones not counted) */
  uint64_t blocks_jitted;     /* blocks whose LLVM code was installed */
  uint64_t jit_batches;       /* LLVM modules compiled */
  uint64_t jit_failures;      /* batches LLVM rejected (the blocks stay in tier 0) */
  uint64_t invalidations;     /* translation-cache invalidations that dropped code */
  uint64_t tier0_runs;        /* blocks run by the interpreter */
  uint64_t jit_entries;       /* dispatcher calls into LLVM code (each may chain on) */
  uint64_t blocks_tier2;      /* blocks compiled again at tier 2 */
  uint64_t jit_compile_ns;    /* CPU time spent lifting and compiling LLVM batches */
  uint64_t blocks_baseline;   /* blocks the baseline compiler (cg/baseline) compiled */
  uint64_t baseline_declined; /* blocks it left to LLVM (outside its subset: floats, i128, ...) */
  uint64_t baseline_ns;       /* CPU time spent lifting and compiling them */
  uint64_t tier0_lifts;       /* blocks lifted for the interpreter (lazily: only those it runs) */
} KitEmuStats;
void kit_emu_get_stats(KitEmu *emu, KitEmuStats *out);

/* Guest CPU access, valid inside any tool callback. Register numbering is the
 * arch's: kit_emu_arch(emu)->regs names each register (and its group), ->cc
 * says which ones the calling convention uses (riscv64: x0..x31 = 0..31,
 * f0..f31 = 32..63, fcsr = 64, pc = 65). */
uint64_t kit_emu_get_reg(KitEmu *emu, unsigned reg);
void kit_emu_set_reg(KitEmu *emu, unsigned reg, uint64_t v);
uint64_t kit_emu_get_pc(KitEmu *emu);
const KitArch *kit_emu_arch(KitEmu *emu);

/* Checked guest memory copies (respecting page permissions for the guest's
 * view: reads need READ, writes need WRITE). Return 0, or -1 when any byte is
 * not accessible. */
int kit_emu_read_mem(KitEmu *emu, uint64_t va, void *dst, size_t n);
int kit_emu_write_mem(KitEmu *emu, uint64_t va, const void *src, size_t n);

/* Shadow planes: `bits_per_byte` of shadow (1, 2, 4 or 8) for every guest
 * byte, zero-filled when the guest range is mapped and dropped when it is
 * unmapped. Register before kit_emu_run. NULL on a bad argument. */
KitEmuShadowPlane *kit_emu_shadow_register(KitEmu *emu, const char *name, unsigned bits_per_byte);
/* Host pointer to the shadow of guest bytes [va, va+n): for 8 bits/byte the
 * shadow byte of va, for fewer bits the byte holding va's bits (bit offset
 * (va * bits) % 8). NULL if any part of the range is not mapped. */
uint8_t *kit_emu_shadow_for(KitEmuShadowPlane *plane, uint64_t va, uint64_t n);

/* Make descriptor fd (2, or Valgrind's --log-fd) the emulator's stderr: a
 * copy the guest cannot close or overwrite (reserved below the open-file
 * limit, as Valgrind keeps its log fd; docs/emu.md, "Descriptors"), stdio's
 * stderr pointed at it, unbuffered; fd itself stays the guest's. A number
 * already in the reserved range (a parent kit-emu's, passed at execve) is
 * taken as it is. Call before kit_emu_new. 0, or -1 (stderr unchanged) when
 * no number could be reserved. */
int kit_emu_keep_log(int fd);
/* The same for a descriptor a tool keeps open while the guest runs (a
 * socket, a log): fd moved into the reserved numbers (close-on-exec; the old
 * number closed). The new number, or fd itself when none is left. */
int kit_emu_keep_fd(int fd);

/* The name of a guest Linux system call number ("openat"; the generic
 * table, then the guest arch's own calls), NULL if the emulator does not
 * know it. */
const char *kit_emu_syscall_name(uint64_t nr);

#ifdef __cplusplus
}
#endif
#endif
