/* tests/cgtext/test_cgtext.c — cmocka tests of the CG printer, parser and
 * verifier on modules built with the builder: byte-exact round trips over
 * every op and modifier, preserved value ids, verifier messages, and
 * garbage structures that must be reported, not crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "kit/cg.h"
#include "kit/cg_exec.h"

static char *print_str(const KitCgModule *m) {
  char *s = NULL;
  size_t n = 0;
  FILE *out = open_memstream(&s, &n);
  kit_cg_print(m, out);
  fclose(out);
  return s;
}

static char *verify_str(const KitCgModule *m, int *count) {
  char *s = NULL;
  size_t n = 0;
  FILE *out = open_memstream(&s, &n);
  *count = kit_cg_verify(m, out);
  fclose(out);
  return s;
}

static KitCgInst *last(KitCgBuilder *b) {
  KitCgBlock *bb = &b->f->blocks[b->blk];
  return &bb->insts[bb->ninsts - 1];
}

/* A module using every op, every inst flag, locations of both kinds,
 * tydescs, globals with blobs and relocs, aliases, ctors and dtors, stack
 * objects, parameter and function attributes, and two-result calls. */
static KitCgModule *build_everything(void) {
  KitCgModule *m = kit_cg_module_new("everything");
  uint32_t ti = kit_cg_tydesc(m, "int", KIT_CG_TD_INT, true, 32);
  uint32_t tp = kit_cg_tydesc(m, "int *", KIT_CG_TD_PTR, false, 64);
  m->tydescs[tp].align = 4;
  m->tydescs[tp].pointee = ti;

  KitCgGlobal *g = kit_cg_global_new(m, "g", 32, 16);
  uint8_t blob[5] = {1, 0, 0, 0xff, 0x7f};
  kit_cg_global_set_init(m, g, blob, sizeof blob);
  g->tydesc = ti;
  g->loc = (KitCgLoc){.file = kit_cg_str(m, "g.c"), .line = 4, .col = 9};
  g->section = kit_cg_str(m, ".mydata");
  g->no_redzone = true;
  KitCgGlobal *tl = kit_cg_global_new(m, "tls \"q\"", 8, 8);
  tl->is_tls = true;
  tl->is_const = true;
  m->syms[tl->sym].linkage = KIT_CG_LINK_WEAK;
  m->syms[tl->sym].visibility = KIT_CG_VIS_PROTECTED;
  m->syms[tl->sym].asm_name = kit_cg_str(m, "tls_label");
  kit_cg_global_declare(m, "ext_global");

  KitCgType cparams[2] = {KIT_CG_I32, KIT_CG_F64};
  KitCgFunc *callee = kit_cg_func_declare(m, "callee", KIT_CG_I32, cparams, 2, false);
  callee->params[0].attrs = KIT_CG_PA_SEXT;
  callee->ret_attrs = KIT_CG_PA_ZEXT;
  KitCgType vparams[1] = {KIT_CG_PTR};
  KitCgFunc *vf = kit_cg_func_declare(m, "vf", KIT_CG_VOID, vparams, 1, true);
  vf->params[0].attrs = KIT_CG_PA_BYVAL | KIT_CG_PA_SRET;
  vf->params[0].byval_size = 24;
  vf->params[0].byval_align = 8;
  vf->params[0].name = kit_cg_str(m, "out");
  vf->attrs = KIT_CG_FA_NORETURN | KIT_CG_FA_NOUNWIND | KIT_CG_FA_COLD;
  KitCgFunc *two = kit_cg_func_declare(m, "two", KIT_CG_I64, NULL, 0, false);
  two->ret[1] = KIT_CG_F64;

  KitCgType params[8] = {KIT_CG_I32, KIT_CG_I64, KIT_CG_F32, KIT_CG_F64, KIT_CG_PTR, KIT_CG_I128, KIT_CG_F80, KIT_CG_PTR};
  KitCgFunc *f = kit_cg_func_declare(m, "all", KIT_CG_I32, params, 8, true);
  f->ret[1] = KIT_CG_I64;
  f->attrs = KIT_CG_FA_NOINLINE | KIT_CG_FA_ALWAYSINLINE | KIT_CG_FA_NOSANITIZE | KIT_CG_FA_USED |
             KIT_CG_FA_RETURNS_TWICE;
  f->loc = (KitCgLoc){.file = kit_cg_str(m, "a.c"), .line = 1, .col = 1};
  kit_cg_func_set_linkage(m, f, KIT_CG_LINK_INTERNAL);
  m->syms[f->sym].visibility = KIT_CG_VIS_HIDDEN;

  kit_cg_global_add_reloc(m, g, 8, f->sym, -4, 8);
  kit_cg_global_add_reloc(m, g, 16, tl->sym, 12, 4);
  kit_cg_alias_new(m, "all_alias", f->sym);
  KitCgSym al2 = kit_cg_alias_new(m, "callee alias", callee->sym);
  m->syms[al2].linkage = KIT_CG_LINK_WEAK;
  kit_cg_add_ctor(m, f->sym, 65535);
  kit_cg_add_dtor(m, al2, 7);

  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  uint32_t s0 = kit_cg_stack_new(m, f, 64, 16, kit_cg_str(m, "arr"));
  uint32_t s1 = kit_cg_stack_new(m, f, 8, 8, 0);
  f->stack[s1].escapes = 0;
  f->stack[s1].tydesc = ti;
  f->stack[s1].loc = (KitCgLoc){.pc = 0x1234};
  KitCgBlkId b0 = kit_cg_block_new(m, f), b1 = kit_cg_block_new(m, f), b2 = kit_cg_block_new(m, f),
             b3 = kit_cg_block_new(m, f), b4 = kit_cg_block_new(m, f), b5 = kit_cg_block_new(m, f),
             b6 = kit_cg_block_new(m, f), b7 = kit_cg_block_new(m, f);
  f->blocks[b1].name = kit_cg_str(m, "then");
  kit_cg_builder_at(&b, b0);
  KitCgVal p0 = kit_cg_param(f, 0), p1 = kit_cg_param(f, 1), p2 = kit_cg_param(f, 2), p3 = kit_cg_param(f, 3),
           p4 = kit_cg_param(f, 4), p5 = kit_cg_param(f, 5), p6 = kit_cg_param(f, 6), p7 = kit_cg_param(f, 7);

  b.loc = (KitCgLoc){.file = kit_cg_str(m, "a.c"), .line = 3, .col = 5};
  kit_cg_iconst(&b, KIT_CG_I1, 1);
  kit_cg_iconst(&b, KIT_CG_I8, (uint64_t)-5);
  kit_cg_iconst(&b, KIT_CG_I16, 40000);
  KitCgVal c32 = kit_cg_iconst(&b, KIT_CG_I32, 7);
  kit_cg_val_new(m, f, KIT_CG_I32); /* a gap in the value ids */
  kit_cg_iconst(&b, KIT_CG_I64, (uint64_t)INT64_MIN);
  kit_cg_i128const(&b, 0x1122334455667788ull, 0x99aabbccddeeff00ull);
  KitCgVal cf32 = kit_cg_fconst(&b, KIT_CG_F32, 1.5);
  KitCgVal cf64 = kit_cg_fconst(&b, KIT_CG_F64, -0.1);
  kit_cg_f80const(&b, 3.25L);
  b.loc = (KitCgLoc){.pc = 0x80001000};
  kit_cg_symaddr(&b, g->sym, 12);
  KitCgVal sa = kit_cg_stackaddr(&b, s0);
  KitCgInst *pin = kit_cg_emit(&b, KIT_CG_OP_PARAM, KIT_CG_I64, NULL, 0);
  pin->aux = 1;
  b.loc = (KitCgLoc){.file = kit_cg_str(m, "a.c"), .line = 9, .col = 2, .pc = 0x42};

  static const KitCgOp ibin[] = {KIT_CG_OP_ADD,  KIT_CG_OP_SUB,  KIT_CG_OP_MUL,  KIT_CG_OP_SDIV, KIT_CG_OP_UDIV,
                                 KIT_CG_OP_SREM, KIT_CG_OP_UREM, KIT_CG_OP_AND,  KIT_CG_OP_OR,   KIT_CG_OP_XOR,
                                 KIT_CG_OP_SHL,  KIT_CG_OP_LSHR, KIT_CG_OP_ASHR, KIT_CG_OP_SMIN, KIT_CG_OP_SMAX,
                                 KIT_CG_OP_UMIN, KIT_CG_OP_UMAX, KIT_CG_OP_SADDO, KIT_CG_OP_UADDO, KIT_CG_OP_SSUBO,
                                 KIT_CG_OP_USUBO, KIT_CG_OP_SMULO, KIT_CG_OP_UMULO};
  KitCgVal sum = 0;
  for (size_t i = 0; i < sizeof ibin / sizeof *ibin; i++) {
    KitCgVal r = kit_cg_binop(&b, ibin[i], p0, c32);
    last(&b)->flags = (uint16_t)(1u << (i % 12)); /* every flag, also on ops it does not fit */
    last(&b)->tydesc = (uint32_t)(i % 3);
    if (!sum) sum = r;
  }
  static const KitCgOp iun[] = {KIT_CG_OP_NEG, KIT_CG_OP_NOT, KIT_CG_OP_BSWAP, KIT_CG_OP_CLZ, KIT_CG_OP_CTZ,
                                KIT_CG_OP_POPCNT};
  for (size_t i = 0; i < sizeof iun / sizeof *iun; i++) kit_cg_unop(&b, iun[i], p1);
  static const KitCgOp fbin[] = {KIT_CG_OP_FADD, KIT_CG_OP_FSUB, KIT_CG_OP_FMUL, KIT_CG_OP_FDIV, KIT_CG_OP_FREM,
                                 KIT_CG_OP_FMIN, KIT_CG_OP_FMAX, KIT_CG_OP_FCOPYSIGN};
  for (size_t i = 0; i < sizeof fbin / sizeof *fbin; i++) kit_cg_binop(&b, fbin[i], p3, cf64);
  static const KitCgOp fun[] = {KIT_CG_OP_FNEG, KIT_CG_OP_FABS, KIT_CG_OP_FSQRT};
  for (size_t i = 0; i < sizeof fun / sizeof *fun; i++) kit_cg_unop(&b, fun[i], p6);
  KitCgVal fa[3] = {p2, cf32, p2};
  kit_cg_emit(&b, KIT_CG_OP_FMA, KIT_CG_F32, fa, 3);
  KitCgVal cmp = 0;
  for (int p = KIT_CG_EQ; p <= KIT_CG_UGE; p++) cmp = kit_cg_cmp(&b, (KitCgPred)p, p0, c32);
  kit_cg_cmp(&b, KIT_CG_EQ, p4, p7);
  for (int p = KIT_CG_FOEQ; p <= KIT_CG_FUNO; p++) kit_cg_cmp(&b, (KitCgPred)p, p3, cf64);
  kit_cg_select(&b, cmp, p0, c32);
  /* vectors: splat, a lane-wise op and compare, extract, insert, shuffle */
  KitCgType v4 = kit_cg_vec_type(KIT_CG_I32, 4);
  KitCgVal vs = kit_cg_emit(&b, KIT_CG_OP_SPLAT, v4, &p0, 1)->id;
  KitCgVal vm = kit_cg_cmp(&b, KIT_CG_SLT, kit_cg_binop(&b, KIT_CG_OP_ADD, vs, vs), vs);
  KitCgVal xa[2] = {vm, p1};
  KitCgVal lane0 = kit_cg_emit(&b, KIT_CG_OP_EXTRACT, KIT_CG_I32, xa, 2)->id;
  KitCgVal ia[3] = {vs, lane0, p1};
  KitCgVal vi = kit_cg_emit(&b, KIT_CG_OP_INSERT, v4, ia, 3)->id;
  KitCgVal sa2[2] = {vi, vm};
  KitCgInst *sh = kit_cg_emit(&b, KIT_CG_OP_SHUFFLE, kit_cg_vec_type(KIT_CG_I32, 2), sa2, 2);
  sh->cases = kit_cg_alloc(m, 2 * sizeof(int64_t));
  sh->cases[0] = 7;
  sh->cases[1] = 0;
  kit_cg_conv(&b, KIT_CG_OP_TRUNC, KIT_CG_I16, p0);
  kit_cg_conv(&b, KIT_CG_OP_ZEXT, KIT_CG_I64, p0);
  kit_cg_conv(&b, KIT_CG_OP_SEXT, KIT_CG_I128, p1);
  kit_cg_conv(&b, KIT_CG_OP_FPTRUNC, KIT_CG_F32, p6);
  kit_cg_conv(&b, KIT_CG_OP_FPEXT, KIT_CG_F64, p2);
  kit_cg_conv(&b, KIT_CG_OP_FPTOSI, KIT_CG_I32, p3);
  kit_cg_conv(&b, KIT_CG_OP_FPTOUI, KIT_CG_I128, p6);
  kit_cg_conv(&b, KIT_CG_OP_SITOFP, KIT_CG_F80, p5);
  kit_cg_conv(&b, KIT_CG_OP_UITOFP, KIT_CG_F32, p0);
  kit_cg_conv(&b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, p4);
  KitCgVal ip = kit_cg_conv(&b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, p1);
  kit_cg_conv(&b, KIT_CG_OP_BITCAST, KIT_CG_F64, p1);
  KitCgVal ld = kit_cg_load(&b, KIT_CG_I32, ip, 4, KIT_CG_INTERNAL);
  last(&b)->flags = KIT_CG_F_VOLATILE | KIT_CG_F_NOINSTR;
  kit_cg_store(&b, ld, sa, 0, KIT_CG_PROGRAM);
  KitCgVal pa = kit_cg_ptradd(&b, sa, p1);
  last(&b)->flags = KIT_CG_F_BOUNDS | KIT_CG_F_NUW;
  last(&b)->bound = 16;
  KitCgVal byte = kit_cg_conv(&b, KIT_CG_OP_TRUNC, KIT_CG_I8, p0);
  kit_cg_memop(&b, KIT_CG_OP_MEMCPY, sa, p4, p1, KIT_CG_PROGRAM);
  last(&b)->imm = 16;
  kit_cg_memop(&b, KIT_CG_OP_MEMMOVE, pa, p4, p1, KIT_CG_INTERNAL);
  kit_cg_memop(&b, KIT_CG_OP_MEMSET, sa, byte, p1, KIT_CG_PROGRAM);
  last(&b)->flags = KIT_CG_F_VOLATILE;
  kit_cg_emit(&b, KIT_CG_OP_LIFETIME_START, KIT_CG_VOID, NULL, 0)->aux = s1;
  kit_cg_emit(&b, KIT_CG_OP_LIFETIME_END, KIT_CG_VOID, NULL, 0)->aux = s1;
  KitCgInst *in = kit_cg_emit(&b, KIT_CG_OP_ALOAD, KIT_CG_I64, &p4, 1);
  in->pred = KIT_CG_ACQUIRE;
  KitCgVal as[2] = {p1, p4};
  in = kit_cg_emit(&b, KIT_CG_OP_ASTORE, KIT_CG_VOID, as, 2);
  in->pred = KIT_CG_RELEASE;
  in->imm = 8;
  for (int r = KIT_CG_RMW_XCHG; r <= KIT_CG_RMW_UMIN; r++) {
    KitCgVal ra[2] = {p4, p1};
    in = kit_cg_emit(&b, KIT_CG_OP_ARMW, KIT_CG_I64, ra, 2);
    in->aux = (uint32_t)r;
    in->pred = (uint8_t)(r % 5 == 1 || r % 5 == 2 ? KIT_CG_SEQCST : r % 5);
  }
  KitCgVal ca[3] = {p4, p1, p1};
  in = kit_cg_emit(&b, KIT_CG_OP_ACMPXCHG, KIT_CG_I64, ca, 3);
  in->pred = KIT_CG_ACQREL;
  in->cls = KIT_CG_INTERNAL;
  kit_cg_emit(&b, KIT_CG_OP_FENCE, KIT_CG_VOID, NULL, 0)->pred = KIT_CG_SEQCST;
  KitCgVal cargs[2] = {p0, p3};
  KitCgVal cr = kit_cg_call(&b, callee->sym, KIT_CG_I32, cargs, 2);
  last(&b)->flags |= KIT_CG_F_COLD | KIT_CG_F_NOMERGE;
  KitCgVal vargs[3] = {p4, p0, p3};
  kit_cg_call(&b, vf->sym, KIT_CG_VOID, vargs, 3);
  kit_cg_calli(&b, p7, KIT_CG_I32, cargs, 2);
  /* call-site ABI attributes: one set with attributes, one present but empty */
  KitCgVal aargs[3] = {p4, p0, p5};
  kit_cg_calli(&b, p7, KIT_CG_VOID, aargs, 3);
  KitCgParam *aa = kit_cg_alloc(m, 4 * sizeof *aa);
  aa[0] = (KitCgParam){.type = KIT_CG_PTR, .attrs = KIT_CG_PA_BYVAL | KIT_CG_PA_SRET, .byval_size = 40, .byval_align = 16};
  aa[1] = (KitCgParam){.type = KIT_CG_I32, .attrs = KIT_CG_PA_ZEXT};
  aa[2] = (KitCgParam){.type = KIT_CG_I128};
  last(&b)->argattrs = aa;
  kit_cg_call(&b, callee->sym, KIT_CG_I32, cargs, 2);
  last(&b)->argattrs = kit_cg_alloc(m, 3 * sizeof(KitCgParam));
  last(&b)->argattrs[0].type = KIT_CG_I32;
  last(&b)->argattrs[1].type = KIT_CG_F64;
  KitCgVal pr = kit_cg_call(&b, two->sym, KIT_CG_I64, NULL, 0);
  last(&b)->type2 = KIT_CG_F64;
  KitCgVal ci = kit_cg_calli(&b, p7, KIT_CG_I64, NULL, 0);
  last(&b)->type2 = KIT_CG_F64;
  last(&b)->flags |= KIT_CG_F_VARARGS;
  kit_cg_emit(&b, KIT_CG_OP_SECOND, KIT_CG_F64, &pr, 1);
  kit_cg_emit(&b, KIT_CG_OP_SECOND, KIT_CG_F64, &ci, 1);
  kit_cg_emit(&b, KIT_CG_OP_VASTART, KIT_CG_VOID, &sa, 1);
  kit_cg_emit(&b, KIT_CG_OP_VAARG, KIT_CG_F64, &sa, 1);
  KitCgVal vc[2] = {pa, sa};
  kit_cg_emit(&b, KIT_CG_OP_VACOPY, KIT_CG_VOID, vc, 2);
  kit_cg_emit(&b, KIT_CG_OP_VAEND, KIT_CG_VOID, &sa, 1);
  KitCgVal sv = kit_cg_emit(&b, KIT_CG_OP_STACKSAVE, KIT_CG_PTR, NULL, 0)->id;
  kit_cg_emit(&b, KIT_CG_OP_ALLOCA, KIT_CG_PTR, &p1, 1)->imm = 32;
  kit_cg_emit(&b, KIT_CG_OP_ALLOCA, KIT_CG_PTR, &p1, 1);
  kit_cg_emit(&b, KIT_CG_OP_STACKRESTORE, KIT_CG_VOID, &sv, 1);
  kit_cg_emit(&b, KIT_CG_OP_FRAMEADDR, KIT_CG_PTR, NULL, 0);
  kit_cg_emit(&b, KIT_CG_OP_RETADDR, KIT_CG_PTR, NULL, 0);
  kit_cg_emit(&b, KIT_CG_OP_ISCONST, KIT_CG_I32, &p1, 1);
  kit_cg_condbr(&b, cmp, b1, b2);
  last(&b)->flags = KIT_CG_F_LIKELY;

  kit_cg_builder_at(&b, b1);
  b.loc = (KitCgLoc){0};
  kit_cg_br(&b, b3);
  kit_cg_builder_at(&b, b2);
  int64_t cases[3] = {1, -9, INT64_MAX};
  KitCgBlkId tg[3] = {b1, b4, b4};
  kit_cg_switch(&b, p0, b3, cases, tg, 3);
  kit_cg_builder_at(&b, b3);
  KitCgInst *phi = kit_cg_phi(&b, KIT_CG_I32);
  kit_cg_phi_add(m, phi, sum, b1);
  kit_cg_phi_add(m, phi, cr, b2);
  KitCgVal rv[2] = {phi->id, p1};
  kit_cg_call(&b, vf->sym, KIT_CG_VOID, &p4, 1);
  last(&b)->flags |= KIT_CG_F_TAIL;
  kit_cg_emit(&b, KIT_CG_OP_RET, KIT_CG_VOID, rv, 2);
  kit_cg_builder_at(&b, b4);
  kit_cg_emit(&b, KIT_CG_OP_TRAP, KIT_CG_VOID, NULL, 0);
  kit_cg_builder_at(&b, b5);
  /* inline asm: an output through a pointer, a value input, a memory operand, then asm goto */
  KitCgVal asm_args[3] = {p4, p0, p4};
  KitCgType asm_types[3] = {KIT_CG_I64, KIT_CG_VOID, KIT_CG_I32};
  kit_cg_asm(&b, "movl $1, $0", "=r,r,*m,~{memory}", true, asm_args, asm_types, 3, NULL, 0);
  KitCgBlkId asm_blks[2] = {b7, b1};
  kit_cg_asm(&b, "jmp ${1:l}", "=r,!i", false, asm_args, asm_types, 1, asm_blks, 2);
  kit_cg_module_asm(m, ".globl top\ntop:\n\tret");
  kit_cg_builder_at(&b, b7);
  kit_cg_unreachable(&b);
  kit_cg_builder_at(&b, b6);
  KitCgBlkId ib[2] = {b4, b1};
  kit_cg_indirectbr(&b, kit_cg_blockaddr(&b, b4), ib, 2);
  kit_cg_global_add_blockaddr(m, g, 0, f->sym, b4, b1, 3, 4);
  return m;
}

static void test_every_op_round_trip(void **state) {
  (void)state;
  KitCgModule *m = build_everything();
  int n;
  char *msgs = verify_str(m, &n);
  if (n) fprintf(stderr, "%s", msgs);
  assert_int_equal(n, 0);
  free(msgs);
  char *p1 = print_str(m);
  /* every op of the table is in the text */
  for (int op = 0; op < KIT_CG_NOPS; op++) {
    char pat[64];
    snprintf(pat, sizeof pat, " %s ", kit_cg_op_info[op].name);
    char pat2[64];
    snprintf(pat2, sizeof pat2, " %s\n", kit_cg_op_info[op].name);
    if (!strstr(p1, pat) && !strstr(p1, pat2)) fail_msg("op %s missing from the printed module", kit_cg_op_info[op].name);
  }
  KitCgModule *m2 = kit_cg_parse(p1, strlen(p1), "p1", stderr);
  assert_non_null(m2);
  char *p2 = print_str(m2);
  assert_string_equal(p1, p2); /* builder -> text -> module -> text is exact */
  assert_int_equal(kit_cg_verify(m2, stderr), 0);
  /* value ids survive, including the gap */
  KitCgFunc *f1 = kit_cg_func_of(m, kit_cg_sym_find(m, "all"));
  KitCgFunc *f2 = kit_cg_func_of(m2, kit_cg_sym_find(m2, "all"));
  assert_int_equal(f1->nblocks, f2->nblocks);
  for (uint32_t b = 0; b < f1->nblocks; b++) {
    assert_int_equal(f1->blocks[b].ninsts, f2->blocks[b].ninsts);
    for (uint32_t i = 0; i < f1->blocks[b].ninsts; i++) {
      KitCgInst *a = &f1->blocks[b].insts[i], *c = &f2->blocks[b].insts[i];
      assert_int_equal(a->id, c->id);
      assert_int_equal(a->op, c->op);
      assert_int_equal(a->flags, c->flags);
      if (a->op == KIT_CG_OP_ASM || a->op == KIT_CG_OP_ASMGOTO) { /* template, constraints: module strings */
        assert_string_equal(kit_cg_strget(m, a->aux), kit_cg_strget(m2, c->aux));
        assert_string_equal(kit_cg_strget(m, (uint32_t)a->imm), kit_cg_strget(m2, (uint32_t)c->imm));
      } else {
        assert_int_equal(a->imm, c->imm);
      }
      assert_int_equal(a->imm2, c->imm2);
      assert_int_equal(a->argattrs != NULL, c->argattrs != NULL);
      for (uint32_t k = a->op == KIT_CG_OP_CALLI; a->argattrs && k < a->nargs; k++)
        assert_memory_equal(&a->argattrs[k - (a->op == KIT_CG_OP_CALLI)], &c->argattrs[k - (a->op == KIT_CG_OP_CALLI)],
                            sizeof(KitCgParam));
      assert_string_equal(kit_cg_strget(m, a->loc.file), kit_cg_strget(m2, c->loc.file));
      assert_int_equal(a->loc.line, c->loc.line);
      assert_int_equal(a->loc.col, c->loc.col);
      assert_int_equal(a->loc.pc, c->loc.pc);
    }
  }
  assert_string_equal(kit_cg_type_name(kit_cg_val_type(f2, 13)), "void"); /* the gap stays a gap */
  kit_cg_module_free(m2);
  free(p1);
  free(p2);
  kit_cg_module_free(m);
}

/* the example the brief asks for: a small module, verified and printed */
static void test_example_print(void **state) {
  (void)state;
  KitCgModule *m = kit_cg_module_new("ex");
  KitCgType ps[2] = {KIT_CG_I32, KIT_CG_I32};
  KitCgFunc *f = kit_cg_func_declare(m, "max", KIT_CG_I32, ps, 2, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  KitCgBlkId e = kit_cg_block_new(m, f), t = kit_cg_block_new(m, f), j = kit_cg_block_new(m, f);
  kit_cg_builder_at(&b, e);
  KitCgVal c = kit_cg_cmp(&b, KIT_CG_SGT, 1, 2);
  kit_cg_condbr(&b, c, t, j);
  kit_cg_builder_at(&b, t);
  b.loc = (KitCgLoc){.file = kit_cg_str(m, "max.c"), .line = 2, .col = 14};
  KitCgVal d = kit_cg_binop(&b, KIT_CG_OP_SUB, 1, 2);
  last(&b)->flags = KIT_CG_F_NSW;
  kit_cg_br(&b, j);
  kit_cg_builder_at(&b, j);
  b.loc = (KitCgLoc){0};
  KitCgInst *phi = kit_cg_phi(&b, KIT_CG_I32);
  kit_cg_phi_add(m, phi, 2, e);
  kit_cg_phi_add(m, phi, d, t);
  kit_cg_ret(&b, phi->id);
  assert_int_equal(kit_cg_verify(m, stderr), 0);
  char *s = print_str(m);
  assert_string_equal(s, "module \"ex\"\n"
                         "\n"
                         "func @max(i32, i32) -> i32 {\n"
                         "b0:\n"
                         "  %3 = icmp sgt i32 %1, %2\n"
                         "  condbr %3, b1, b2\n"
                         "b1:\n"
                         "  %4 = sub i32 %1, %2 !nsw !loc \"max.c\" 2:14\n"
                         "  br b2 !loc \"max.c\" 2:14\n"
                         "b2:\n"
                         "  %5 = phi i32 [%2, b0], [%4, b1]\n"
                         "  ret %5\n"
                         "}\n");
  /* one function alone prints exactly as it does inside its module */
  char *fs = NULL;
  size_t fn = 0;
  FILE *out = open_memstream(&fs, &fn);
  kit_cg_print_func(m, f, out);
  fclose(out);
  assert_string_equal(fs, strstr(s, "func @max"));
  free(fs);
  free(s);
  kit_cg_module_free(m);
}

static void test_verify_message(void **state) {
  (void)state;
  KitCgModule *m = kit_cg_module_new("bad");
  KitCgType ps[2] = {KIT_CG_I32, KIT_CG_I64};
  KitCgFunc *f = kit_cg_func_declare(m, "f", KIT_CG_VOID, ps, 2, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_builder_at(&b, kit_cg_block_new(m, f));
  kit_cg_builder_at(&b, kit_cg_block_new(m, f));
  kit_cg_ret(&b, 0);
  kit_cg_builder_at(&b, 0);
  kit_cg_br(&b, 1);
  kit_cg_builder_at(&b, 1);
  /* after the ret: a terminator in the middle, then a mistyped add */
  kit_cg_binop(&b, KIT_CG_OP_ADD, 1, 2);
  kit_cg_ret(&b, 0);
  int n;
  char *s = verify_str(m, &n);
  assert_int_equal(n, 2);
  assert_string_equal(s, "verify: func @f, block b1, inst 0 (ret): terminator in the middle of the block\n"
                         "verify: func @f, block b1, inst 1 (add): operand types differ (i32 vs i64)\n");
  free(s);
  kit_cg_module_free(m);
}

/* every index a builder user could get wrong, set out of range at once */
static void test_verify_garbage(void **state) {
  (void)state;
  KitCgModule *m = build_everything();
  KitCgFunc *f = kit_cg_func_of(m, kit_cg_sym_find(m, "all"));
  KitCgBlock *b0 = &f->blocks[0];
  uint32_t k = 0;
  for (uint32_t i = 0; i < b0->ninsts; i++) {
    KitCgInst *in = &b0->insts[i];
    switch (k++ % 9) {
    case 0: if (in->nargs) in->args[0] = 4000000000u; break;
    case 1: in->aux = 123456789; break;
    case 2: in->tydesc = 77777; break;
    case 3: in->type = 200; break;
    case 4: in->nargs = in->nargs ? in->nargs - 1 : 0; break;
    case 5: in->op = 9999; break;
    case 6: in->pred = 250; in->cls = 7; break;
    case 7: in->id = 3000000000u; break;
    case 8: in->loc.file = 999999; in->type2 = 99; break;
    }
  }
  f->blocks[1].insts[0].blks[0] = 555;
  f->blocks[3].insts[0].nblks = 0; /* phi without its blocks */
  f->stack[0].align = 3;
  m->globals[0]->relocs[0].offset = UINT64_MAX - 2;
  m->globals[0]->relocs[1].sym = 99999;
  m->syms[kit_cg_sym_find(m, "all_alias")].index = 424242;
  m->ctors[0].func = 31337;
  m->tydescs[1].pointee = 99;
  int n = kit_cg_verify(m, NULL);
  assert_true(n > 30);
  /* the printer reads the same garbage without crashing */
  char *s = print_str(m);
  assert_non_null(strstr(s, "?op9999"));
  free(s);
  kit_cg_module_free(m);
}

static void test_parse_errors(void **state) {
  (void)state;
  static const struct {
    const char *text, *msg;
  } cases[] = {
      {"func @f() -> void {\nb0:\n  ret %99999999999\n}\n", "t:3:7: error: value id %99999999999 out of range\n"},
      {"global @g size 4 align 4 = x\"0102030405\"\n", "t:1:28: error: initializer longer than the global's size\n"},
      {"global @g size 999999999999 align 1 = x\"00\"\n", "t:1:1: error: initialized global larger than"},
      {"\xff\xfe", "t:1:1: error: unexpected character (byte 0xff)\n"},
      {"module \"a\\q\"", "t:1:10: error: unknown escape in string 'q'\n"},
      {"func @f() -> void {\n  ret\n}\n", "t:2:3: error: instruction before the first block label\n"},
      {"func @f(i32, ..., i32) -> void\n", "t:1:19: error: '...' must end the parameter list\n"},
      {"declare @f() -> void\nfunc @f() -> void {\nb0:\n  ret\n}\n", "t:2:6: error: redefinition of @f\n"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    char *s = NULL;
    size_t n = 0;
    FILE *err = open_memstream(&s, &n);
    KitCgModule *m = kit_cg_parse(cases[i].text, strlen(cases[i].text), "t", err);
    fclose(err);
    if (m || strncmp(s, cases[i].msg, strlen(cases[i].msg)))
      fail_msg("case %zu: expected '%s', got '%s'", i, cases[i].msg, s);
    free(s);
  }
  /* nothing at all is an empty module */
  KitCgModule *m = kit_cg_parse(NULL, 0, NULL, stderr);
  assert_non_null(m);
  assert_int_equal(m->nsyms, 0);
  kit_cg_module_free(m);
}

/* the interpreter and the baseline x86-64 compiler decline a function with
 * inline asm, with a message, instead of running it */
static void test_asm_declined(void **state) {
  (void)state;
  KitCgModule *m = kit_cg_module_new("asm");
  KitCgFunc *f = kit_cg_func_declare(m, "f", KIT_CG_I32, NULL, 0, false);
  KitCgBuilder b;
  kit_cg_builder_init(&b, m, f);
  kit_cg_builder_at(&b, kit_cg_block_new(m, f));
  kit_cg_asm(&b, "nop", "~{dirflag}", true, NULL, NULL, 0, NULL, 0);
  kit_cg_ret(&b, kit_cg_iconst(&b, KIT_CG_I32, 7));
  assert_int_equal(kit_cg_verify(m, stderr), 0);
  char *msg = NULL;
  size_t len = 0;
  FILE *err = open_memstream(&msg, &len);
  KitInterp *ip = kit_interp_new(m, NULL, NULL, err);
  assert_non_null(ip);
  KitCgScalar ret[2];
  assert_int_not_equal(kit_interp_call(ip, f, NULL, 0, ret), 0);
  kit_interp_free(ip);
  fclose(err);
  assert_non_null(strstr(msg, "inline asm is not supported by the interpreter"));
  free(msg);
  KitBaseline *x = kit_baseline_new(NULL, NULL);
  if (x) {
    const char *why = NULL;
    assert_null(kit_baseline_compile(x, m, f, &why));
    assert_string_equal(why, "inline asm");
    kit_baseline_free(x);
  }
  /* module-level asm: the interpreter declines the module */
  kit_cg_module_asm(m, ".globl g\ng: ret");
  err = open_memstream(&msg, &len);
  assert_null(kit_interp_new(m, NULL, NULL, err));
  fclose(err);
  assert_non_null(strstr(msg, "module-level asm is not supported by the interpreter"));
  free(msg);
  kit_cg_module_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_op_round_trip), cmocka_unit_test(test_example_print),
      cmocka_unit_test(test_verify_message),      cmocka_unit_test(test_verify_garbage),
      cmocka_unit_test(test_parse_errors),        cmocka_unit_test(test_asm_declined),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
