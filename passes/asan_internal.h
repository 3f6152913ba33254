/* passes/asan_internal.h — state shared by the files of the ASan pass:
 * asan.c (driver, pointer facts, body rewriting), asan_access.c (inline
 * shadow checks, mem ops), asan_stack.c (frame layout, redzones, scopes, fake
 * frames) and asan_globals.c (global redzones and their registration). */
#ifndef KIT_PASSES_ASAN_INTERNAL_H
#define KIT_PASSES_ASAN_INTERNAL_H

#include "kit/passes.h"
#include "rewrite.h"

/* What an original value is known to be: an address at a constant offset
 * into a stack object or a global, or an integer constant. */
typedef enum AsanFactKind { FACT_NONE, FACT_STACK, FACT_GLOBAL, FACT_CONST } AsanFactKind;
typedef struct AsanFact {
  uint8_t kind;
  uint32_t id;  /* stack object or symbol */
  int64_t off;  /* offset, or the constant */
} AsanFact;

/* one stack object laid out in the ASan frame */
typedef struct AsanVar {
  uint32_t obj;
  uint64_t size, off;
  uint32_t align;
  bool scoped;      /* has lifetime markers: starts poisoned f8 */
  KitCgVal offval;  /* i64 constant holding off (made in the prologue) */
} AsanVar;

typedef struct AsanFn {
  KitCgModule *m;
  KitCgFunc *f;
  const KitAsanConfig *c;
  KitCgBuilder b;     /* where new code goes; b.blk moves as blocks split */
  uint32_t nvals0;    /* values below this id existed before the pass */
  AsanFact *fact;     /* per original value */
  uint64_t *obj_size; /* original stack object sizes */
  /* stack frame */
  uint32_t nvars;
  AsanVar *vars;
  int32_t *var_of;    /* stack object -> index in vars, or -1 */
  uint64_t frame_size;
  uint32_t frame_align;
  int fake_class;     /* __asan_stack_malloc_N class, -1 = no fake frame */
  KitCgVal frame;     /* ptr: the frame in use (real or fake) */
  KitCgVal fake;      /* i64: the fake frame or 0 */
  KitCgSym desc;      /* frame description string */
  /* dynamic allocas (VLAs, alloca()) */
  bool has_alloca;
  uint32_t last_alloca; /* stack object: [low, high) of the allocas made so far */
} AsanFn;

/* asan.c */
KitCgInst *asan_emit(AsanFn *A, KitCgOp op, KitCgType t, const KitCgVal *args, uint32_t n);
KitCgVal asan_i64(AsanFn *A, uint64_t v);
KitCgVal asan_call(AsanFn *A, KitCgSym fn, KitCgType ret, const KitCgVal *args, uint32_t n);
/* the shadow byte's address (ptr) for the i64 address a */
KitCgVal asan_shadow_ptr(AsanFn *A, KitCgVal a);
/* internal constant string global */
KitCgSym asan_cstring(KitCgModule *m, const char *s);
/* true when [p, p+size) is a constant in-bounds offset into an object the
 * pass may trust (see the skip rules in asan.c) */
bool asan_provably_safe(AsanFn *A, KitCgVal p, uint64_t size);
uint64_t asan_type_access_size(KitCgType t);

/* asan_access.c */
void asan_check_access(AsanFn *A, KitCgVal ptr, uint64_t size, bool is_write);
/* rewrite a PROGRAM memcpy/memmove/memset; returns true when the original op
 * must still be appended (emulator mode) */
bool asan_memop(AsanFn *A, const KitCgInst *in);

/* asan_stack.c */
void asan_stack_plan(AsanFn *A);
void asan_stack_prologue(AsanFn *A);
void asan_stack_lifetime(AsanFn *A, uint32_t var, bool start);
void asan_stack_epilogue(AsanFn *A);
/* dynamic allocas: ca/cb redzones through the runtime, unpoisoned at
 * stackrestore and return */
void asan_alloca_prologue(AsanFn *A);
void asan_alloca(AsanFn *A, KitCgInst *in);
void asan_allocas_unpoison(AsanFn *A, KitCgVal bottom); /* bottom 0: at return */
/* shadow bytes[0..n) for the granules starting at app address base + off */
void asan_shadow_write(AsanFn *A, KitCgVal base, uint64_t off, const uint8_t *bytes, uint64_t n);

/* asan_globals.c */
void asan_globals(KitCgModule *m, const KitAsanConfig *c);

#endif
