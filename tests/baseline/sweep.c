/* tests/baseline/sweep.c — the op sweep: every integer op, icmp predicate,
 * conversion and select on corner values, with the operands as parameters,
 * as immediates on either side, and both constant (the compiler folds
 * those); each function compiled once and run on every value set against
 * the interpreter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg_gen.h"
#include "rng.h"
#include "suite.h"

#define T_I1 KIT_CG_I1
#define T_I8 KIT_CG_I8
#define T_I16 KIT_CG_I16
#define T_I32 KIT_CG_I32
#define T_I64 KIT_CG_I64
#define T_PTR KIT_CG_PTR

static SweepStats st;
static int sweep_reported;
static int sweep_group_bad, sweep_group_reported, sweep_group_funcs; /* per op and type */
static unsigned long sweep_group_f0;
static void sweep_group_begin(void) {
  sweep_group_bad = sweep_group_reported = 0;
  sweep_group_f0 = st.funcs;
}
static void sweep_group_end(const char *what, KitCgType t) {
  sweep_group_funcs = (int)(st.funcs - sweep_group_f0);
  if (sweep_group_bad)
    fprintf(stderr, "sweep: %s %s: %d of %d functions differ\n", what, kit_cg_type_name(t), sweep_group_bad,
            sweep_group_funcs);
}

/* runs f on each argument set; returns the mismatches */
static int sweep_fn(KitCgModule *m, KitCgFunc *f, const uint64_t *sets, int nsets) {
  if (kit_cg_verify(m, stderr)) {
    kit_cg_print(m, stderr);
    st.fail++;
    return 1;
  }
  st.funcs++;
  KitInterp *ip = kit_interp_new(m, host_resolve, NULL, NULL);
  const char *why = NULL;
  void *code = compile_fn(m, f, &why);
  if (!code) {
    st.declined++;
    kit_interp_free(ip);
    return 0;
  }
  int bad = 0, first = -1, ran = 0;
  uint64_t first_i = 0, first_x = 0;
  const char *first_what = NULL;
  uint64_t msk = type_mask((KitCgType)f->ret[0]);
  for (int k = 0; k < nsets; k++) {
    const uint64_t *a = sets + (size_t)k * f->nparams;
    KitCgScalar sa[6], r[2];
    memset(sa, 0, sizeof sa);
    memset(r, 0, sizeof r);
    for (uint32_t i = 0; i < f->nparams; i++) sa[i].i = a[i];
    if (kit_interp_call(ip, f, sa, f->nparams, r)) continue; /* division by 0, MIN/-1 */
    int sig;
    uint64_t x = run_light(code, f->nparams, a, &sig);
    st.runs++;
    ran++;
    bool zext_ok = (x & ~msk) == 0;
    if (sig || (x & msk) != (r[0].i & msk) || !zext_ok) {
      if (!bad++) {
        first = k;
        first_i = r[0].i & msk;
        first_x = x;
        first_what = sig > 0                                           ? "compiled code died"
                     : sig < 0                                         ? "callee-saved register clobbered"
                     : !zext_ok && (x & msk) == (r[0].i & msk) ? "narrow result not zero-extended"
                                                                       : "result";
      }
    }
  }
  if (bad) sweep_group_bad++;
  if (bad && sweep_group_reported++ < 2 && sweep_reported++ < 400) {
    char *text = module_text(m), *body = strstr(text, "b0:\n");
    /* one line: the function's body, then the first failing arguments */
    char line[512];
    size_t n = 0;
    for (const char *q = body ? body + 4 : text; *q && n < sizeof line - 2; q++)
      if (*q == '\n') {
        if (n && line[n - 1] != ';') line[n++] = ';';
      } else if (!(*q == ' ' && n && (line[n - 1] == ' ' || line[n - 1] == ';'))) {
        line[n++] = *q;
      }
    line[n] = 0;
    if (n >= 2 && !strcmp(line + n - 2, "};")) line[n - 2] = 0;
    fprintf(stderr, "sweep: %s(", kit_cg_type_name((KitCgType)f->ret[0]));
    for (uint32_t i = 0; i < f->nparams; i++)
      fprintf(stderr, "%s%s", i ? "," : "", kit_cg_type_name((KitCgType)f->params[i].type));
    fprintf(stderr, ") {%s} %d/%d runs differ; first: %s, args", line, bad, ran, first_what);
    for (uint32_t i = 0; i < f->nparams; i++)
      fprintf(stderr, " 0x%llx", (unsigned long long)sets[(size_t)first * f->nparams + i]);
    fprintf(stderr, ": interp 0x%llx, compiled 0x%llx\n", (unsigned long long)first_i, (unsigned long long)first_x);
    free(text);
  }
  kit_interp_free(ip);
  st.fail += bad;
  return bad;
}

static int sweep_values(KitCgType t, uint64_t *out) {
  static const uint64_t base[] = {0, 1, 2, 3, 5, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 0x7f, 0x80, 0x81, 0xfe, 0xff,
                                  0x100, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0x80000001,
                                  0xffffffff, 0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                  0xfffffffffffffffeull, 0xffffffffffffffffull, 0x123456789abcdef0ull,
                                  0xfedcba9876543210ull, 0xffffffff80000000ull, 0xffffffffffff8000ull,
                                  0xffffffffffffff80ull};
  int n = 0;
  for (unsigned i = 0; i < sizeof base / sizeof base[0]; i++) {
    uint64_t v = base[i] & type_mask(t);
    bool dup = false;
    for (int k = 0; k < n; k++) dup |= out[k] == v;
    if (!dup) out[n++] = v;
  }
  return n;
}

typedef enum { SW_PP, SW_PC, SW_CP, SW_CC } SwShape;

/* f(x, y) = op(x', y') where x'/y' are the parameters or constants */
static KitCgModule *sweep_build(KitCgOp op, KitCgPred pred, KitCgType t, SwShape sh, uint64_t cx, uint64_t cy,
                                KitCgFunc **fo, KitCgType rt) {
  KitCgType ps[2] = {t, t};
  uint32_t np = sh == SW_PP ? 2 : sh == SW_CC ? 0 : 1;
  NewFunc d = new_func("sweep", rt, ps, np);
  KitCgModule *m = d.m;
  KitCgFunc *f = d.f;
  KitCgBuilder b = d.b;
  KitCgVal x, y;
  switch (sh) {
  case SW_PP: x = 1, y = 2; break;
  case SW_PC: x = 1, y = kit_cg_iconst(&b, t, cy); break;
  case SW_CP: x = kit_cg_iconst(&b, t, cx), y = 1; break;
  default: x = kit_cg_iconst(&b, t, cx), y = kit_cg_iconst(&b, t, cy); break;
  }
  KitCgVal r;
  if (op == KIT_CG_OP_ICMP) r = kit_cg_cmp(&b, pred, x, y);
  else if (kit_cg_op_info[op].nargs == 1) r = kit_cg_unop(&b, op, x);
  else r = kit_cg_binop(&b, op, x, y);
  kit_cg_ret(&b, r);
  *fo = f;
  return m;
}

static void sweep_op1(KitCgOp op, KitCgPred pred, KitCgType t, Rng *rng);
static void sweep_op(KitCgOp op, KitCgPred pred, KitCgType t, Rng *rng) {
  char what[64];
  snprintf(what, sizeof what, "%s%s%s", kit_cg_op_info[op].name, op == KIT_CG_OP_ICMP ? " " : "",
           op == KIT_CG_OP_ICMP ? kit_cg_pred_name(pred) : "");
  sweep_group_begin();
  sweep_op1(op, pred, t, rng);
  sweep_group_end(what, t);
}
static void sweep_op1(KitCgOp op, KitCgPred pred, KitCgType t, Rng *rng) {
  uint64_t vals[64];
  int nv = sweep_values(t, vals);
  bool unary = op != KIT_CG_OP_ICMP && kit_cg_op_info[op].nargs == 1;
  KitCgType rt = op == KIT_CG_OP_ICMP ? T_I1 : t;
  static uint64_t sets[64 * 64 * 2];
  KitCgFunc *f;
  KitCgModule *m;
  /* both parameters */
  int ns = 0;
  for (int i = 0; i < nv; i++)
    for (int j = 0; j < (unary ? 1 : nv); j++) {
      sets[2 * ns] = vals[i];
      sets[2 * ns + 1] = vals[j];
      ns++;
    }
  if (unary) {
    m = sweep_build(op, pred, t, SW_PP, 0, 0, &f, rt);
    for (int i = 0; i < nv; i++) sets[2 * i] = vals[i], sets[2 * i + 1] = 0;
    sweep_fn(m, f, sets, nv);
    kit_cg_module_free(m);
    for (int i = 0; i < nv; i++) { /* folded */
      m = sweep_build(op, pred, t, SW_CP, vals[i], 0, &f, rt);
      /* SW_CP with a unary op: the op reads the constant; the parameter is unused */
      uint64_t one[1] = {0};
      sweep_fn(m, f, one, 1);
      kit_cg_module_free(m);
    }
    return;
  }
  m = sweep_build(op, pred, t, SW_PP, 0, 0, &f, rt);
  sweep_fn(m, f, sets, ns);
  kit_cg_module_free(m);
  /* one side an immediate */
  for (int c = 0; c < nv; c++) {
    m = sweep_build(op, pred, t, SW_PC, 0, vals[c], &f, rt);
    sweep_fn(m, f, vals, nv);
    kit_cg_module_free(m);
    m = sweep_build(op, pred, t, SW_CP, vals[c], 0, &f, rt);
    sweep_fn(m, f, vals, nv);
    kit_cg_module_free(m);
  }
  /* both constant: a sample */
  for (int k = 0; k < 24; k++) {
    uint64_t cx = vals[rng_below(rng, (uint32_t)nv)], cy = vals[rng_below(rng, (uint32_t)nv)];
    m = sweep_build(op, pred, t, SW_CC, cx, cy, &f, rt);
    sweep_fn(m, f, NULL, 1);
    kit_cg_module_free(m);
  }
}

/* f(x) = conv(x) and f() = conv(const) for every integer conversion */
static void sweep_convs(void) {
  static const KitCgType ts[6] = {T_I1, T_I8, T_I16, T_I32, T_I64, T_PTR};
  for (int a = 0; a < 6; a++)
    for (int b = 0; b < 6; b++) {
      KitCgType from = ts[a], to = ts[b];
      KitCgOp ops[3];
      int nops = 0;
      if (from == T_PTR && to == T_PTR) continue;
      if (from == T_PTR) ops[nops++] = KIT_CG_OP_PTRTOINT;
      else if (to == T_PTR) ops[nops++] = KIT_CG_OP_INTTOPTR;
      else if (a > b) ops[nops++] = KIT_CG_OP_TRUNC;
      else if (a < b) ops[nops++] = KIT_CG_OP_ZEXT, ops[nops++] = KIT_CG_OP_SEXT;
      for (int o = 0; o < nops; o++) {
        sweep_group_begin();
        uint64_t vals[64];
        int nv = sweep_values(from == T_PTR ? T_I64 : from, vals);
        NewFunc d = new_func("sweep", to, &from, 1);
        kit_cg_ret(&d.b, kit_cg_conv(&d.b, ops[o], to, 1));
        sweep_fn(d.m, d.f, vals, nv);
        kit_cg_module_free(d.m);
        for (int i = 0; i < nv; i++) {
          d = new_func("sweep", to, NULL, 0);
          kit_cg_ret(&d.b, kit_cg_conv(&d.b, ops[o], to, kit_cg_iconst(&d.b, from, vals[i])));
          sweep_fn(d.m, d.f, NULL, 1);
          kit_cg_module_free(d.m);
        }
        char what[64];
        snprintf(what, sizeof what, "%s from %s to", kit_cg_op_info[ops[o]].name, kit_cg_type_name(from));
        sweep_group_end(what, to);
      }
    }
}

/* select with a parameter or constant condition and operands */
static void sweep_selects(void) {
  static const KitCgType ts[6] = {T_I1, T_I8, T_I16, T_I32, T_I64, T_PTR};
  for (int k = 0; k < 6; k++) {
    KitCgType t = ts[k];
    sweep_group_begin();
    for (int shape = 0; shape < 8; shape++) {
      KitCgType ps[3] = {T_I1, t, t};
      NewFunc d = new_func("sweep", t, ps, 3);
      KitCgModule *m = d.m;
      KitCgFunc *f = d.f;
      KitCgBuilder bd = d.b;
      KitCgVal c = shape & 1 ? kit_cg_iconst(&bd, T_I1, shape >> 2 & 1) : 1;
      KitCgVal x = shape & 2 ? kit_cg_iconst(&bd, t, 0x8000000000000081ull) : 2;
      KitCgVal y = shape & 4 ? kit_cg_iconst(&bd, t, 0x7fffffffffff7ffeull) : 3;
      kit_cg_ret(&bd, kit_cg_select(&bd, c, x, y));
      uint64_t sets[4 * 3] = {0, 0x11, type_mask(t), 1, 0x11, type_mask(t), 0, type_mask(t), 0x22, 1, 0, 5};
      for (int i = 0; i < 12; i++) sets[i] &= type_mask(ps[i % 3]);
      sweep_fn(m, f, sets, 4);
      kit_cg_module_free(m);
    }
    sweep_group_end("select", t);
  }
}

SweepStats sweep(void) {
  Rng rng = {7};
  static const KitCgType ts[5] = {T_I1, T_I8, T_I16, T_I32, T_I64};
  static const KitCgOp bins[] = {KIT_CG_OP_ADD,  KIT_CG_OP_SUB,  KIT_CG_OP_MUL,  KIT_CG_OP_AND,  KIT_CG_OP_OR,
                                 KIT_CG_OP_XOR,  KIT_CG_OP_SHL,  KIT_CG_OP_LSHR, KIT_CG_OP_ASHR, KIT_CG_OP_SMIN,
                                 KIT_CG_OP_SMAX, KIT_CG_OP_UMIN, KIT_CG_OP_UMAX, KIT_CG_OP_UDIV, KIT_CG_OP_SDIV,
                                 KIT_CG_OP_UREM, KIT_CG_OP_SREM, KIT_CG_OP_NEG,  KIT_CG_OP_NOT};
  for (unsigned o = 0; o < sizeof bins / sizeof bins[0]; o++)
    for (int k = 0; k < 5; k++) sweep_op(bins[o], 0, ts[k], &rng);
  for (int p = 0; p < 10; p++)
    for (int k = 0; k < 5; k++) sweep_op(KIT_CG_OP_ICMP, (KitCgPred)p, ts[k], &rng);
  sweep_convs();
  sweep_selects();
  return st;
}
