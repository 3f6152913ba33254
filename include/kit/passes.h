/* include/kit/passes.h — the instrumentation pipeline over CG shared by kitcc
 * and kit-emu: the one parser of clang's -fsanitize= family of options, the
 * options it fills, the ASan pass's configuration (compiled code and lifted
 * guest code differ only there), and kit_passes_run. */
#ifndef KIT_PASSES_H
#define KIT_PASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kit/cg.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One bit per sanitizer or UBSan check, named as clang names them. */
enum {
  KIT_SAN_ADDRESS = 1ull << 0,
  KIT_SAN_ALIGNMENT = 1ull << 1,
  KIT_SAN_BOOL = 1ull << 2,
  KIT_SAN_BUILTIN = 1ull << 3,
  KIT_SAN_ARRAY_BOUNDS = 1ull << 4,
  KIT_SAN_LOCAL_BOUNDS = 1ull << 5,
  KIT_SAN_ENUM = 1ull << 6,
  KIT_SAN_FLOAT_CAST_OVERFLOW = 1ull << 7,
  KIT_SAN_FLOAT_DIVIDE_BY_ZERO = 1ull << 8,
  KIT_SAN_FUNCTION = 1ull << 9,
  KIT_SAN_INTEGER_DIVIDE_BY_ZERO = 1ull << 10,
  KIT_SAN_NONNULL_ATTRIBUTE = 1ull << 11,
  KIT_SAN_NULL = 1ull << 12,
  KIT_SAN_NULLABILITY_ARG = 1ull << 13,
  KIT_SAN_NULLABILITY_ASSIGN = 1ull << 14,
  KIT_SAN_NULLABILITY_RETURN = 1ull << 15,
  KIT_SAN_OBJECT_SIZE = 1ull << 16,
  KIT_SAN_POINTER_OVERFLOW = 1ull << 17,
  KIT_SAN_RETURN = 1ull << 18,
  KIT_SAN_RETURNS_NONNULL_ATTRIBUTE = 1ull << 19,
  KIT_SAN_SHIFT_BASE = 1ull << 20,
  KIT_SAN_SHIFT_EXPONENT = 1ull << 21,
  KIT_SAN_SIGNED_INTEGER_OVERFLOW = 1ull << 22,
  KIT_SAN_UNREACHABLE = 1ull << 23,
  KIT_SAN_VLA_BOUND = 1ull << 24,
  KIT_SAN_VPTR = 1ull << 25,
  KIT_SAN_UNSIGNED_INTEGER_OVERFLOW = 1ull << 26,
  KIT_SAN_UNSIGNED_SHIFT_BASE = 1ull << 27,
  KIT_SAN_IMPLICIT_UNSIGNED_INTEGER_TRUNCATION = 1ull << 28,
  KIT_SAN_IMPLICIT_SIGNED_INTEGER_TRUNCATION = 1ull << 29,
  KIT_SAN_IMPLICIT_INTEGER_SIGN_CHANGE = 1ull << 30,
  KIT_SAN_COVERAGE = 1ull << 31, /* -fsanitize=coverage (kit's spelling for "coverage on") */
  KIT_SAN_MEMORY = 1ull << 32,
};

/* clang's groups */
#define KIT_SAN_SHIFT (KIT_SAN_SHIFT_BASE | KIT_SAN_SHIFT_EXPONENT)
#define KIT_SAN_BOUNDS (KIT_SAN_ARRAY_BOUNDS | KIT_SAN_LOCAL_BOUNDS)
#define KIT_SAN_NULLABILITY (KIT_SAN_NULLABILITY_ARG | KIT_SAN_NULLABILITY_ASSIGN | KIT_SAN_NULLABILITY_RETURN)
#define KIT_SAN_IMPLICIT_INTEGER_TRUNCATION \
  (KIT_SAN_IMPLICIT_UNSIGNED_INTEGER_TRUNCATION | KIT_SAN_IMPLICIT_SIGNED_INTEGER_TRUNCATION)
#define KIT_SAN_IMPLICIT_CONVERSION (KIT_SAN_IMPLICIT_INTEGER_TRUNCATION | KIT_SAN_IMPLICIT_INTEGER_SIGN_CHANGE)
/* -fsanitize=undefined: everything UBSan checks except the opt-in ones */
#define KIT_SAN_UNDEFINED                                                                                   \
  (KIT_SAN_ALIGNMENT | KIT_SAN_BOOL | KIT_SAN_BUILTIN | KIT_SAN_ARRAY_BOUNDS | KIT_SAN_ENUM |               \
   KIT_SAN_FLOAT_CAST_OVERFLOW | KIT_SAN_FUNCTION | KIT_SAN_INTEGER_DIVIDE_BY_ZERO |                         \
   KIT_SAN_NONNULL_ATTRIBUTE | KIT_SAN_NULL | KIT_SAN_OBJECT_SIZE | KIT_SAN_POINTER_OVERFLOW |               \
   KIT_SAN_RETURN | KIT_SAN_RETURNS_NONNULL_ATTRIBUTE | KIT_SAN_SHIFT | KIT_SAN_SIGNED_INTEGER_OVERFLOW |    \
   KIT_SAN_UNREACHABLE | KIT_SAN_VLA_BOUND | KIT_SAN_VPTR)
#define KIT_SAN_INTEGER                                                                                   \
  (KIT_SAN_IMPLICIT_CONVERSION | KIT_SAN_INTEGER_DIVIDE_BY_ZERO | KIT_SAN_SHIFT |                          \
   KIT_SAN_SIGNED_INTEGER_OVERFLOW | KIT_SAN_UNSIGNED_INTEGER_OVERFLOW | KIT_SAN_UNSIGNED_SHIFT_BASE)
/* everything a UBSan pass would implement (all checks but address and coverage) */
#define KIT_SAN_UB_ALL                                                                                   \
  (KIT_SAN_UNDEFINED | KIT_SAN_INTEGER | KIT_SAN_NULLABILITY | KIT_SAN_LOCAL_BOUNDS |                     \
   KIT_SAN_FLOAT_DIVIDE_BY_ZERO)
/* checks that cannot continue after a report (clang: -fsanitize-recover refuses them) */
#define KIT_SAN_UNRECOVERABLE (KIT_SAN_RETURN | KIT_SAN_UNREACHABLE)

/* -fsanitize-coverage= options */
enum {
  KIT_COV_FUNC = 1u << 0,
  KIT_COV_BB = 1u << 1,
  KIT_COV_EDGE = 1u << 2,
  KIT_COV_TRACE_PC = 1u << 3,
  KIT_COV_TRACE_PC_GUARD = 1u << 4,
  KIT_COV_TRACE_CMP = 1u << 5,
  KIT_COV_TRACE_DIV = 1u << 6,
  KIT_COV_TRACE_GEP = 1u << 7,
  KIT_COV_INLINE_8BIT_COUNTERS = 1u << 8,
  KIT_COV_INLINE_BOOL_FLAG = 1u << 9,
  KIT_COV_PC_TABLE = 1u << 10,
  KIT_COV_NO_PRUNE = 1u << 11,
  KIT_COV_STACK_DEPTH = 1u << 12,
  KIT_COV_TRACE_LOADS = 1u << 13,
  KIT_COV_TRACE_STORES = 1u << 14,
};

/* How the ASan pass instruments one module. The compiled-mode config comes from
 * kit_asan_config_compiled; the emulator fills its own (no stack or global
 * redzones, its shadow base, its guest address). */
typedef struct KitAsanConfig {
  /* shadow byte of address a: shadow_base(...) + (a >> 3), or shadow_offset + (a >> 3)
   * when shadow_base is NULL */
  uint64_t shadow_offset;
  /* optional: emit, at the builder's position, the i64 shadow base (a constant, a
   * load of emulator state marked INTERNAL, ...) */
  KitCgVal (*shadow_base)(void *user, KitCgBuilder *b);
  /* optional: emit the i64 address to check and report for the pointer an access
   * uses (guest address = host pointer - guest_base); NULL = ptrtoint. When set,
   * PROGRAM memcpy/memmove/memset become range checks plus the original op (the
   * runtime's __asan_memcpy would need host pointers). */
  KitCgVal (*check_addr)(void *user, KitCgBuilder *b, KitCgVal ptr);
  void *user;
  bool stack;             /* redzones around escaping stack objects */
  bool globals;           /* redzones around defined globals, registered at startup */
  bool use_after_scope;   /* lifetime markers poison/unpoison with f8 */
  bool use_after_return;  /* fake frames behind __asan_option_detect_stack_use_after_return */
  bool recover;           /* _noabort report calls, execution continues */
  bool skip_safe;         /* skip provably in-bounds constant-offset accesses */
} KitAsanConfig;

/* x86-64 compiled code: shadow offset 0x7fff8000, stack and global redzones,
 * use-after-scope and use-after-return on. */
void kit_asan_config_compiled(KitAsanConfig *c, bool recover);
/* Instrument every function of m (those without KIT_CG_FA_NOSANITIZE). Returns 0. */
int kit_asan_run(KitCgModule *m, const KitAsanConfig *c);
/* Instrument f alone (unless KIT_CG_FA_NOSANITIZE), no globals: lifted code,
 * where a JIT batch module also holds blocks instrumented before. Returns 0. */
int kit_asan_run_func(KitCgModule *m, KitCgFunc *f, const KitAsanConfig *c);

/* The options of one compilation (kitcc) or emulation (kit-emu). */
typedef struct KitPassOptions {
  uint64_t sanitize;   /* KIT_SAN_* enabled */
  uint64_t recover;    /* KIT_SAN_* that continue after a report */
  uint64_t trap;       /* KIT_SAN_* that trap instead of calling the runtime */
  uint32_t coverage;   /* KIT_COV_* */
  /* ASan's config; NULL = kit_asan_config_compiled with recover from `recover` */
  const KitAsanConfig *asan;
  /* MSan: -f[no-]sanitize-memory-param-retval (clang-16's default: on) and
   * -fsanitize-memory-track-origins[=N] (0 off, 1 allocation origins, 2 with stores) */
  bool msan_param_retval;
  int msan_track_origins;
  int opt_level; /* the compilation's -O level (MSan treats value-only branches as selects from -O1) */
} KitPassOptions;

/* How the MSan pass instruments one module (passes/msan.c). */
typedef struct KitMsanConfig {
  uint64_t shadow_xor; /* shadow of address a: a ^ shadow_xor (x86-64: 0x500000000000) */
  bool eager_checks;   /* param-retval: check scalar arguments at calls and results at returns */
  bool recover;        /* __msan_warning (continue) instead of __msan_warning_noreturn */
  bool selects;        /* branches that only pick a value are selects, as clang's optimiser makes them */
  /* -fsanitize-memory-track-origins=N (0 = off): an i32 origin beside each
   * shadow, the origin memory at (shadow address) + 0x100000000000,
   * __msan_warning_with_origin[_noreturn](u32); 2: stores of uninitialized
   * values chain it (__msan_chain_origin). Lifted code: level 1 when
   * origin_add is set (below) */
  int origins;
  /* Lifted code (kit-emu --sanitize=memory); all zero for compiled code.
   * shadow_add: when nonzero, the shadow of address a is a + shadow_add (no xor).
   * state_size: INTERNAL loads and stores at [parameter 0 + k], k < state_size, are
   * the guest CPU state; their shadow lives at host address state_shadow + k (same
   * layout), except state_pc's (the guest pc); the block's result (the next pc:
   * control flow) is checked at its ret; a store at state_sp calls
   * __msan_emu_sp(old, new) first (the runtime poisons a new frame).
   * Reports call __msan_emu_warning(i64 guest pc) and continue (the runtime decides
   * whether they return); calls (the emulator's helpers) get no argument checks and
   * no TLS: a result is uninitialized when an integer argument has an uninitialized
   * bit; functions have no parameters to shadow and results to hand back. */
  uint64_t shadow_add;
  uint64_t state_shadow, state_size, state_pc, state_sp;
  /* lifted code with origins: the origin of host address a is at (a +
   * origin_add) & ~3, the CPU state's at state_origin + (k & ~3); reports call
   * __msan_emu_warning_origin(i64 guest pc, i32 origin), a store at state_sp
   * __msan_emu_sp_origin(old, new, i64 guest pc) */
  uint64_t origin_add, state_origin;
  /* optional: the guest branch at pc only picks a value (a short forward branch
   * over arms that compute without memory or calls, as compiled code's
   * selects): an uninitialized condition calls __msan_emu_select(i64 pc) instead
   * of the report (the runtime poisons what the arms write). May run on the JIT
   * thread. */
  bool (*select_pc)(void *user, uint64_t pc);
  void *user;
} KitMsanConfig;
/* the MSan pass: every value gets a bit-for-bit shadow; uninitialized bits that
 * decide a branch, an address, a call target or (eager) an argument or result
 * are reported through the runtime. Returns 0. */
int kit_msan_run(KitCgModule *m, const KitMsanConfig *c);
/* f alone (lifted code: state_size set; no TLS arrays). Returns 0. */
int kit_msan_run_func(KitCgModule *m, KitCgFunc *f, const KitMsanConfig *c);

/* clang's defaults: nothing enabled, UBSan checks recover. */
void kit_pass_options_init(KitPassOptions *o);

/* Parse one command-line argument of the -fsanitize family:
 *   -fsanitize=LIST  -fno-sanitize=LIST  -fsanitize-recover[=LIST]
 *   -fno-sanitize-recover[=LIST]  -fsanitize-trap[=LIST]  -fno-sanitize-trap[=LIST]
 *   -fsanitize-coverage=LIST  -fno-sanitize-coverage=LIST
 * (LIST is comma-separated; "all" is accepted where clang accepts it). Returns 1
 * when consumed, 0 when arg is not one of these, -1 on error with a message
 * ("unsupported argument 'foo' to option '-fsanitize='") written to err. */
int kit_sanitize_parse_arg(KitPassOptions *o, const char *arg, char *err, size_t errsz);
/* Parse a sanitizer name list ("address,undefined") into KIT_SAN_* bits;
 * returns 0, or -1 with a message. allow_all: accept "all". */
int kit_sanitize_parse_list(const char *list, bool allow_all, uint64_t *mask, char *err, size_t errsz);
/* the clang name of one KIT_SAN_* bit ("signed-integer-overflow") */
const char *kit_sanitize_name(uint64_t bit);

/* The UBSan pass (passes/ubsan.c): instruments the checks enabled in o->sanitize
 * from the UB facts on CG ops; recover/trap per check from o. Returns 0. */
int kit_ubsan_run(KitCgModule *m, const KitPassOptions *o);

/* The SanitizerCoverage pass (passes/coverage.c): KIT_COV_* options, clang's
 * callbacks and sections. Returns 0. */
int kit_coverage_run(KitCgModule *m, uint32_t opts);

/* Run the enabled passes over m, in order: UBSan, coverage, then ASan or MSan.
 * Returns 0, or the number of problems. */
int kit_passes_run(KitCgModule *m, const KitPassOptions *o);
/* the enabled KIT_SAN_* bits no pass implements (UBSan checks clang has and
 * kit's UBSan pass does not; kitcc refuses them by name) */
uint64_t kit_passes_unimplemented(const KitPassOptions *o);

#ifdef __cplusplus
}
#endif
#endif
