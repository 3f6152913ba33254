/* include/kit/cg_exec.h — the executors of CG: the interpreter (cg/interp,
 * the emulator's cold tier and the tests' reference), the LLVM backend
 * (cg/llvm: object files for x86-64 and riscv64 Linux, and an ORC JIT) and
 * the baseline x86-64 compiler (cg/baseline, the emulator's first compiled tier). */
#ifndef KIT_CG_EXEC_H
#define KIT_CG_EXEC_H

#include "kit/cg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Resolves an external symbol (a declared function or global with no body in
 * the module) to a host address; NULL = not found. The default resolver used
 * when none is given asks the dynamic linker (dlsym of the whole process). */
typedef void *(*KitCgResolver)(void *user, const char *name);

/* One CG value crossing the host boundary: integers and pointers in .i
 * (zero/sign-extended to 64 bits as the type says), f32/f64 in .f32/.f64,
 * f80 in .f80, i128 in .i128. */
typedef union KitCgScalar {
  uint64_t i;
  float f32;
  double f64;
  long double f80;
  unsigned __int128 i128;
} KitCgScalar;

/* ---- interpreter ------------------------------------------------------------- */

typedef struct KitInterp KitInterp;

/* Prepares a verified module for interpretation: allocates and initializes
 * its globals (relocations applied; TLS globals get a copy per calling
 * thread), resolves externals. Functions are pre-decoded on first call. Any
 * thread may call in; each runs on its own stacks (docs/cg.md). Returns NULL
 * and writes a message to err on failure (for example an unresolvable
 * external symbol). */
KitInterp *kit_interp_new(KitCgModule *m, KitCgResolver resolve, void *user, FILE *err);
void kit_interp_free(KitInterp *ip);

/* Calls f with nargs arguments; the one or two results land in ret[0..1].
 * Returns 0 on success, nonzero if execution trapped (TRAP, UNREACHABLE,
 * integer division fault); the reason is written to the interpreter's err. */
int kit_interp_call(KitInterp *ip, KitCgFunc *f, const KitCgScalar *args, uint32_t nargs, KitCgScalar ret[2]);
/* After a longjmp out of kit_interp_call (a host signal handler that does
 * not return): drop every interpreted activation of the calling thread.
 * Only when no kit_interp_call of this thread is still running below the
 * longjmp's target. */
void kit_interp_abandon_thread(void);

/* Address of a module global, or a host-callable pointer for a function
 * (a trampoline into the interpreter where supported; see docs/cg.md). */
void *kit_interp_symbol(KitInterp *ip, const char *name);

/* Run the module's constructors (ascending priority) or destructors
 * (descending priority, as GCC orders them); equal priorities keep module
 * order. Returns 0, or nonzero when one trapped (message on err). */
int kit_interp_run_ctors(KitInterp *ip);
int kit_interp_run_dtors(KitInterp *ip);

/* Executed-op counter (for bench/cg): ops retired since kit_interp_new. */
uint64_t kit_interp_ops(const KitInterp *ip);

/* ---- LLVM backend --------------------------------------------------------------- */

typedef enum KitTarget { KIT_TARGET_X86_64_LINUX, KIT_TARGET_RISCV64_LINUX } KitTarget;

typedef struct KitLlvmOptions {
  KitTarget target;
  int opt_level;       /* 0..3 */
  bool size_level;     /* -Os */
  bool debug_info;     /* DWARF line tables from CG locations (+ what the module carries) */
  bool pic;            /* position-independent code */
  const char *source_name; /* DW_AT_name of the compile unit */
  bool omit_frame_pointer; /* rbp/s0 free for allocation (the sanitizer runtimes need it kept) */
  /* when set, called after each backend phase ("cg->llvm", "llvm opt",
   * "llvm codegen") with phase_ctx: the driver's -ftime-report */
  void (*phase_done)(void *phase_ctx, const char *phase);
  void *phase_ctx;
} KitLlvmOptions;

/* Write an ELF object (or assembly text when asm_text) for the module.
 * Returns 0, or nonzero with a message on err. */
int kit_llvm_emit(KitCgModule *m, const KitLlvmOptions *opt, const char *path, bool asm_text, FILE *err);
/* Print the LLVM IR of the module (debugging: kit-cg emit --llvm). */
int kit_llvm_print_ir(KitCgModule *m, const KitLlvmOptions *opt, FILE *out, FILE *err);

typedef struct KitJit KitJit;
/* opt_level of kit_jit_new: 0..3 runs LLVM's default<On> IR pipeline (none at
 * 0) and generates code at the same level. Or'ed with KIT_JIT_FAST_CODEGEN,
 * the IR pipeline of that level is followed by the fast code generator
 * (CodeGenOpt None: fast instruction selection, no machine-level
 * optimisation); for the emulator's hot code, most of the speed of -O1/-O2 code
 * at a fraction of its compile time (docs/cg.md has the numbers). */
#define KIT_JIT_FAST_CODEGEN 0x100
/* Or'ed in by the emulator's tier 1, for code that only its own dispatcher
 * calls and that is left by a return or a siglongjmp: functions are nounwind
 * without unwind tables (no CFI, no .eh_frame), and lowered modules skip
 * LLVM's verifier. Each costs compile time per function (docs/emu.md,
 * "Compile cost"). */
#define KIT_JIT_NO_UNWIND 0x400
#define KIT_JIT_NO_VERIFY 0x800
/* Or'ed in: fast instruction selection at any level, with that level's
 * register allocator and machine passes (the emulator's tier 2). Sets LLVM's
 * -fast-isel for the whole process. */
#define KIT_JIT_FAST_ISEL 0x1000
/* An in-process ORC LLJIT for the host. Externals resolve through `resolve`
 * first, then through the process's own symbols (atexit and the other
 * libc_nonshared.a functions included); a weak declaration none of these
 * nor an added module defines is null. TLS globals are per thread (emulated,
 * docs/cg.md). */
KitJit *kit_jit_new(int opt_level, KitCgResolver resolve, void *user, FILE *err);
void kit_jit_free(KitJit *j);
/* Lower and add a module (the JIT takes a copy; m stays the caller's).
 * Returns 0 or nonzero with a message on err. */
int kit_jit_add(KitJit *j, KitCgModule *m, FILE *err);
/* Address of a symbol of an added module, NULL if none. */
void *kit_jit_lookup(KitJit *j, const char *name);
/* Run the constructors of the modules added since the last call, in
 * priority order (LLJIT's C API has no initializer run); at exit, run the
 * destructors of every module added (newest module first). 0 or nonzero with
 * a message on err (a module whose externals cannot be resolved). */
int kit_jit_run_ctors(KitJit *j, FILE *err);
int kit_jit_run_dtors(KitJit *j, FILE *err);
/* Calls a jitted function with the same scalar convention as kit_interp_call
 * (the signature is taken from f). */
int kit_jit_call(KitJit *j, KitCgModule *m, KitCgFunc *f, const KitCgScalar *args, uint32_t nargs,
                 KitCgScalar ret[2]);

/* ---- baseline x86-64 compiler (cg/baseline) ----------------------------------- */

/* A one-pass compiler from CG straight to x86-64 machine code, no LLVM: the
 * emulator's baseline tier, which compiles a block in microseconds where
 * LLVM takes most of a millisecond (docs/baseline.md). It
 * handles the integer subset lifted guest code is made of (i1..i64 and ptr:
 * arithmetic, shifts, min/max, division, compares, selects, conversions,
 * ptradd, loads and stores, branches, direct and indirect calls with up to
 * six integer arguments, tail calls) and declines anything else (floats,
 * i128, phi, switch, atomics, memcpy, stack objects, varargs), leaving the
 * function to the other executors. Code follows the SysV ABI; an integer
 * result narrower than 64 bits is returned zero-extended (a tail call's
 * result is what the callee leaves). Blocks must be numbered so that a
 * value's definition comes before its uses (it declines others). Code memory lives
 * as long as the KitBaseline. NULL on hosts that are not x86-64. */
typedef struct KitBaseline KitBaseline;
KitBaseline *kit_baseline_new(KitCgResolver resolve, void *user);
void kit_baseline_free(KitBaseline *x);
/* f's code, or NULL when f is outside the subset or an external does not
 * resolve (*why, when non-NULL, then says what). */
void *kit_baseline_compile(KitBaseline *x, const KitCgModule *m, const KitCgFunc *f, const char **why);
/* bytes of code emitted so far */
size_t kit_baseline_code_size(const KitBaseline *x);
/* A STORE flagged KIT_CG_F_FAULT_PC is not emitted: its constant is kept in
 * a side table of the code that follows it. For a host pc inside compiled
 * code after such a store, the value of the last one before it (true), else
 * false. Safe in a signal handler of the thread that compiles. */
bool kit_baseline_fault_value(const KitBaseline *x, uintptr_t host_pc, uint64_t *value);

#ifdef __cplusplus
}
#endif
#endif
