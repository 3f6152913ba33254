/* frontends/c/lower_asm.c — lowers GNU asm statements (parsed by asm.c) to
 * CG's asm and asm.goto ops: outputs by address, memory inputs by address,
 * other inputs by value, and file-scope asm to the module's asm. */
#include "lower.h"

/* the CG type a memory operand points to (i8 for an aggregate) */
static KitCgType pointee(CType *t) {
  CType *u = type_unqual(t);
  if (u->kind == TY_ARRAY || u->kind == TY_FUNC) return KIT_CG_I8;
  KitCgType k = abi_cg_type(t);
  return k == KIT_CG_VOID ? KIT_CG_I8 : k;
}

static bool is_volatile(CExpr *e) { return (e->type->quals & Q_VOLATILE) != 0; }

/* an input by value; tied to an output, in the output's type as clang does */
static KitCgVal input_value(Lower *L, CAsm *a, int i, KitCgVal *out_addr) {
  CAsmOperand *in = &a->ins[i];
  bool plus = in->tied >= 0 && in->expr == a->outs[in->tied].expr; /* the old value of a '+' output */
  KitCgVal v = plus ? lower_load(L, out_addr[in->tied], in->expr->type, is_volatile(in->expr)) : lower_expr(L, in->expr);
  if (in->tied < 0) return v;
  CType *from = in->expr->type, *to = a->outs[in->tied].expr->type;
  if (abi_cg_type(from) != abi_cg_type(to) && abi_cg_type(to) != KIT_CG_VOID) v = lower_convert(L, v, from, to);
  return v;
}

void lower_asm(Lower *L, CStmt *s) {
  CAsm *a = s->asm_;
  lower_set_loc(L, s->pos);
  int n = a->nout + a->nin;
  KitCgVal *args = c_alloc((size_t)(n + 1) * sizeof *args), *out_addr = c_alloc((size_t)(a->nout + 1) * sizeof *out_addr);
  KitCgType *types = c_alloc((size_t)(n + 1) * sizeof *types);
  for (int i = 0; i < a->nout; i++) {
    out_addr[i] = args[i] = lower_addr(L, a->outs[i].expr);
    types[i] = pointee(a->outs[i].expr->type);
  }
  for (int i = 0; i < a->nin; i++) {
    CAsmOperand *in = &a->ins[i];
    int k = a->nout + i;
    if (in->indirect) {
      /* a '+' memory operand reads the output's address; a plain one its own */
      bool plus = in->tied >= 0 && in->expr == a->outs[in->tied].expr;
      args[k] = plus ? out_addr[in->tied] : lower_addr(L, in->expr);
      types[k] = pointee(in->expr->type);
    } else {
      args[k] = input_value(L, a, i, out_addr);
      types[k] = KIT_CG_VOID;
    }
  }
  if (!a->nlabels) {
    kit_cg_asm(&L->b, a->tmpl, a->constraints, a->side_effects, args, types, (uint32_t)n, NULL, 0);
    return;
  }
  KitCgBlkId *blks = c_alloc((size_t)(a->nlabels + 1) * sizeof *blks);
  blks[0] = lower_new_block(L);
  for (int j = 0; j < a->nlabels; j++) blks[j + 1] = lower_goto_block(L, a->labels[j], a->label_pos[j]);
  kit_cg_asm(&L->b, a->tmpl, a->constraints, true, args, types, (uint32_t)n, blks, (uint32_t)a->nlabels + 1);
  lower_start_block(L, blks[0]);
}

void lower_file_asms(Lower *L, CUnit *u) {
  for (CStmtList *l = u->file_asms; l; l = l->next) kit_cg_module_asm(L->m, l->stmt->asm_->tmpl);
}
