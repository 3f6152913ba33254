/* cg/llvm/llvm.h — private to cg/llvm: the lowering context shared by the
 * module lowering (lower.c), the instruction lowering (lower_inst.c), the
 * object emitter (target.c) and the JIT (jit.c). */
#ifndef KIT_CG_LLVM_H
#define KIT_CG_LLVM_H

#include "kit/cg_exec.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/TargetMachine.h>

/* Per-module lowering state. */
typedef struct KitLower {
  KitCgModule *m;
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;
  KitTarget target;
  FILE *err;
  int nerrs;
  bool f80_told;
  bool jit;
  bool no_unwind; /* KIT_JIT_NO_UNWIND */
  LLVMValueRef *syms;    /* LLVM value of each CG symbol */
  LLVMValueRef *tlsctl;  /* JIT: per CG symbol, the control object of a TLS global (else NULL) */
  LLVMValueRef tls_get;  /* JIT: the declaration of __kit_tls_get, once used */
  LLVMTypeRef *ftypes;   /* LLVM function type of each CG function */
  LLVMTypeRef tys[KIT_CG_NTYPES];
  LLVMTypeRef i8, i32, i64, ptr, voidt;
  /* debug info (dib == NULL: none) */
  LLVMDIBuilderRef dib;
  LLVMMetadataRef cu;
  LLVMMetadataRef *difiles; /* per module string, lazily */
  LLVMMetadataRef cu_file;
  LLVMMetadataRef *ditypes, *ditemps; /* per ditype: its DI type, a placeholder while it is built */
  uint8_t *dibusy;                    /* per ditype: being built */
  /* the function being lowered */
  KitCgFunc *f;
  LLVMValueRef fn;
  LLVMValueRef *vals, *aggs; /* per value id: the value; two-result calls: the struct */
  LLVMBasicBlockRef *blocks;
  LLVMBasicBlockRef *ends;  /* per CG block: the LLVM block its terminator ends up in */
  LLVMValueRef *allocas;
  LLVMMetadataRef sp;       /* DISubprogram of f or NULL */
  uint32_t sp_file;         /* module string of sp's file */
  LLVMMetadataRef *scopes;  /* per module string: lexical block file inside sp */
} KitLower;

/* Lower a (verified) module into a fresh LLVM module in ctx, with the target's
 * triple and data layout from tm. init_tag != NULL (the JIT): the module's
 * ctors and dtors are gathered into two external functions
 * "__kit_init.<tag>" / "__kit_fini.<tag>" instead of llvm.global_ctors.
 * jit: TLS is emulated (LLJIT without a platform cannot allocate TLS): a TLS
 * global @x becomes an ordinary global holding the initial image, plus a
 * control object "__kit_tls.x" = {i64 size, i64 align, ptr image, i64 key};
 * its address is __kit_tls_get(&control), this thread's copy (jit_tls.c).
 * jit_flags: KIT_JIT_NO_UNWIND, KIT_JIT_NO_VERIFY of kit_jit_new (0 ahead of
 * time). Returns NULL and writes messages on err on failure. */
LLVMModuleRef kit_llvm__lower(KitCgModule *m, LLVMContextRef ctx, LLVMTargetMachineRef tm, KitTarget target,
                              bool debug_info, const char *source_name, bool jit, int jit_flags, const char *init_tag,
                              FILE *err);

/* Lower the body of one function (lower_inst.c). Returns the number of errors. */
int kit_llvm__lower_body(KitLower *l, KitCgFunc *f, LLVMValueRef fn);

LLVMTypeRef kit_llvm__type(KitLower *l, KitCgType t);
void kit_llvm__error(KitLower *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* call the intrinsic `name` overloaded on tys */
LLVMValueRef kit_llvm__intrinsic(KitLower *l, const char *name, LLVMTypeRef *tys, unsigned ntys, LLVMValueRef *args,
                                 unsigned nargs);
LLVMMetadataRef kit_llvm__difile(KitLower *l, uint32_t str);

/* lower_asm.c: an ASM or ASMGOTO inst at the builder; the module's file-scope asm */
void kit_llvm__asm(KitLower *l, const KitCgInst *in);
void kit_llvm__module_asm(KitLower *l);

/* debug.c: the debug-info side table (ditypes, variables, described globals) */
void kit_llvm__debug_begin_types(KitLower *l);
void kit_llvm__debug_end_types(KitLower *l);
LLVMMetadataRef kit_llvm__disubroutine(KitLower *l, const KitCgFunc *f, LLVMMetadataRef file);
void kit_llvm__debug_globals(KitLower *l);
void kit_llvm__debug_vars(KitLower *l);
void kit_llvm__param_attrs(KitLower *l, const KitCgFunc *f, LLVMValueRef v, bool call_site);
void kit_llvm__site_attrs(KitLower *l, unsigned ret_attrs, const KitCgParam *pa, uint32_t n, LLVMValueRef call);
LLVMAttributeRef kit_llvm__attr(LLVMContextRef ctx, const char *name);

/* Emulated TLS for the JIT (jit_tls.c): this thread's copy of the TLS
 * variable described by a control object; NULL for a NULL control (an
 * undefined weak TLS declaration). */
void *kit_jit__tls_get(void *control);
#define KIT_JIT_TLS_GET "__kit_tls_get"
#define KIT_JIT_TLS_PREFIX "__kit_tls."

/* Targets (target.c). */
void kit_llvm__init(void);
LLVMTargetMachineRef kit_llvm__machine(KitTarget t, int opt_level, bool pic, bool jit, FILE *err);
int kit_llvm__optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt_level, bool size_level, FILE *err);

#endif
