/* cg/llvm/target.c — the two Linux targets (x86-64, riscv64 rv64gc/lp64d):
 * target machines, the new-pass-manager optimisation pipeline, and object /
 * assembly / IR-text emission for a CG module. */
#include "llvm.h"

#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static void init_once(void) {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMInitializeX86AsmParser(); /* inline asm (lower_asm.c) is assembled by the object writer */
  LLVMInitializeRISCVTargetInfo();
  LLVMInitializeRISCVTarget();
  LLVMInitializeRISCVTargetMC();
  LLVMInitializeRISCVAsmParser();
  LLVMInitializeRISCVAsmPrinter();
}

void kit_llvm__init(void) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_once);
}

static LLVMCodeGenOptLevel cg_level(int opt) {
  switch (opt) {
  case 0: return LLVMCodeGenLevelNone;
  case 1: return LLVMCodeGenLevelLess;
  case 3: return LLVMCodeGenLevelAggressive;
  default: return LLVMCodeGenLevelDefault;
  }
}

LLVMTargetMachineRef kit_llvm__machine(KitTarget t, int opt_level, bool pic, bool jit, FILE *err) {
  kit_llvm__init();
  const char *triple, *cpu, *features;
  char *host_triple = NULL, *host_cpu = NULL, *host_feat = NULL;
  if (t == KIT_TARGET_RISCV64_LINUX) {
    triple = "riscv64-unknown-linux-gnu";
    cpu = "generic-rv64";
    features = "+m,+a,+f,+d,+c";
  } else if (jit) {
    /* the JIT runs here: use this machine's CPU */
    triple = host_triple = LLVMGetDefaultTargetTriple();
    cpu = host_cpu = LLVMGetHostCPUName();
    features = host_feat = LLVMGetHostCPUFeatures();
  } else {
    triple = "x86_64-pc-linux-gnu";
    cpu = "x86-64";
    /* cmpxchg16b, so 16-byte atomics are inline code instead of __sync_*_16
     * libcalls nobody provides: every x86-64 CPU kit supports has it */
    features = "+cx16";
  }
  LLVMTargetRef target;
  char *msg = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
    if (err) fprintf(err, "llvm: no target for %s: %s\n", triple, msg ? msg : "?");
  } else {
    tm = LLVMCreateTargetMachine(target, triple, cpu, features, cg_level(opt_level),
                                 pic ? LLVMRelocPIC : LLVMRelocStatic, jit ? LLVMCodeModelJITDefault : LLVMCodeModelDefault);
    if (!tm && err) fprintf(err, "llvm: cannot create a target machine for %s\n", triple);
  }
  LLVMDisposeMessage(msg);
  LLVMDisposeMessage(host_triple);
  LLVMDisposeMessage(host_cpu);
  LLVMDisposeMessage(host_feat);
  return tm;
}

int kit_llvm__optimize(LLVMModuleRef mod, LLVMTargetMachineRef tm, int opt_level, bool size_level, FILE *err) {
  if (opt_level < 0) opt_level = 0;
  if (opt_level > 3) opt_level = 3;
  char pipeline[32];
  if (size_level && opt_level > 0)
    snprintf(pipeline, sizeof pipeline, "default<Os>");
  else
    snprintf(pipeline, sizeof pipeline, "default<O%d>", opt_level);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(mod, pipeline, tm, po);
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    if (err) fprintf(err, "llvm: optimisation failed: %s\n", msg);
    LLVMDisposeErrorMessage(msg);
    return 1;
  }
  return 0;
}

/* lower + optimise into a fresh context; the caller disposes both */
static LLVMModuleRef build(KitCgModule *m, const KitLlvmOptions *opt, LLVMContextRef *ctx, LLVMTargetMachineRef *tm,
                           FILE *err) {
  *tm = kit_llvm__machine(opt->target, opt->opt_level, opt->pic, false, err);
  if (!*tm) return NULL;
  *ctx = LLVMContextCreate();
  LLVMModuleRef mod =
      kit_llvm__lower(m, *ctx, *tm, opt->target, opt->debug_info, opt->source_name, false, 0, NULL, err);
  if (mod && opt->omit_frame_pointer)
    for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
      LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "frame-pointer", 13);
  if (opt->phase_done) opt->phase_done(opt->phase_ctx, "cg->llvm");
  if (mod && kit_llvm__optimize(mod, *tm, opt->opt_level, opt->size_level, err)) {
    LLVMDisposeModule(mod);
    mod = NULL;
  }
  if (opt->phase_done) opt->phase_done(opt->phase_ctx, "llvm opt");
  if (!mod) {
    LLVMContextDispose(*ctx);
    LLVMDisposeTargetMachine(*tm);
  }
  return mod;
}

int kit_llvm_emit(KitCgModule *m, const KitLlvmOptions *opt, const char *path, bool asm_text, FILE *err) {
  LLVMContextRef ctx;
  LLVMTargetMachineRef tm;
  LLVMModuleRef mod = build(m, opt, &ctx, &tm, err);
  if (!mod) return 1;
  char *msg = NULL;
  char *p = strdup(path);
  int rc = 0;
  if (LLVMTargetMachineEmitToFile(tm, mod, p, asm_text ? LLVMAssemblyFile : LLVMObjectFile, &msg)) {
    if (err) fprintf(err, "llvm: cannot write %s: %s\n", path, msg ? msg : "?");
    rc = 1;
  }
  if (opt->phase_done) opt->phase_done(opt->phase_ctx, "llvm codegen");
  free(p);
  LLVMDisposeMessage(msg);
  LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
  LLVMDisposeTargetMachine(tm);
  return rc;
}

int kit_llvm_print_ir(KitCgModule *m, const KitLlvmOptions *opt, FILE *out, FILE *err) {
  LLVMContextRef ctx;
  LLVMTargetMachineRef tm;
  LLVMModuleRef mod = build(m, opt, &ctx, &tm, err);
  if (!mod) return 1;
  char *s = LLVMPrintModuleToString(mod);
  fputs(s, out);
  LLVMDisposeMessage(s);
  LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
  LLVMDisposeTargetMachine(tm);
  return 0;
}
