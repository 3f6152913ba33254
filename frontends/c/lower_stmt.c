/* frontends/c/lower_stmt.c — lowering C statements to CG blocks: control
 * flow, switch tables with GNU case ranges, labels and goto, returns through
 * the ABI, local declarations (VLAs, initializers, lifetime markers) and the
 * cleanup attribute on every way out of a scope. */
#include <string.h>

#include "lower_expr.h"

/* after a jump: further code in the same C statement list is unreachable */
static void dead_block(Lower *L) { lower_start_block(L, lower_new_block(L)); }

static int depth(Lower *L) { return L->scope ? L->scope->depth : 0; }

static void run_cleanups_of(Lower *L, CStmt *blk) {
  /* reverse declaration order */
  CObj *objs[256];
  int n = 0;
  for (CObjList *l = blk->locals; l && n < 256; l = l->next)
    if (l->obj->cleanup_fn) objs[n++] = l->obj;
  while (n--) {
    CObj *o = objs[n];
    KitCgVal a = (KitCgVal)(uintptr_t)o->cg;
    kit_cg_call(&L->b, lower_obj_sym(L, o->cleanup_fn), KIT_CG_VOID, &a, 1);
  }
}

/* leave every scope deeper than `to` */
static void unwind_to(Lower *L, int to) {
  for (Scope *s = L->scope; s && s->depth > to; s = s->up) run_cleanups_of(L, s->block);
}

static LabelBlk *label_of(Lower *L, const char *name, CPos pos) {
  for (LabelBlk *lb = L->labels; lb; lb = lb->next)
    if (strcmp(lb->name, name) == 0) return lb;
  LabelBlk *lb = c_alloc(sizeof *lb);
  lb->name = name;
  lb->blk = lower_new_block(L);
  lb->pos = pos;
  lb->next = L->labels;
  L->labels = lb;
  return lb;
}

static KitCgBlkId label_block(Lower *L, const char *name, CPos pos) { return label_of(L, name, pos)->blk; }
KitCgBlkId lower_goto_block(Lower *L, const char *label, CPos pos) { return label_block(L, label, pos); }

/* ---- labels as values (GNU) ---------------------------------------------------------- */

KitCgVal lower_label_addr(Lower *L, CExpr *e) {
  LabelBlk *lb = label_of(L, e->label, e->pos);
  lb->addressed = true;
  return kit_cg_blockaddr(&L->b, lb->blk);
}

static void add_label_reloc(Lower *L, const LabelReloc *r) {
  LabelBlk *a = label_of(L, r->ac.label, r->pos), *b = r->ac.label2 ? label_of(L, r->ac.label2, r->pos) : NULL;
  a->addressed = true;
  if (b) b->addressed = true;
  kit_cg_global_add_blockaddr(L->m, r->g, r->offset, L->f->sym, a->blk, b ? b->blk : 0, r->ac.offset, r->size);
}

void lower_label_reloc(Lower *L, KitCgGlobal *g, uint64_t offset, unsigned size, const CAddrConst *ac, CPos pos) {
  LabelReloc r = {NULL, g, offset, size, *ac, pos};
  if (L->fn && L->fn == ac->label_fn) {
    add_label_reloc(L, &r);
    return;
  }
  LabelReloc *p = c_alloc(sizeof *p);
  *p = r;
  p->next = L->label_relocs;
  L->label_relocs = p;
}

/* `goto *p`: a branch to the function's one indirect-goto block, whose phi
 * takes p and whose indirectbr goes to every label the function takes the
 * address of (known at the end of the function). One indirectbr, as clang
 * emits: LLVM's codegen tail-duplicates it into each predecessor, while an
 * indirectbr per site (each with every label as successor) leaves the
 * optimizer a CFG with sites x labels edges and worse code (Lua's lvm.c). */
static void lower_goto_ptr(Lower *L, CStmt *s) {
  KitCgVal a = lower_expr(L, s->expr); /* a pointer: the parser checked */
  if (L->ngotos == L->gotos_cap) {
    uint32_t cap = L->gotos_cap ? 2 * L->gotos_cap : 8;
    KitCgBlkId *n = c_alloc(cap * sizeof *n);
    KitCgVal *v = c_alloc(cap * sizeof *v);
    if (L->ngotos) {
      memcpy(n, L->gotos, L->ngotos * sizeof *n);
      memcpy(v, L->goto_vals, L->ngotos * sizeof *v);
    }
    L->gotos = n;
    L->goto_vals = v;
    L->gotos_cap = cap;
  }
  if (!L->igoto_blk) L->igoto_blk = lower_new_block(L);
  L->gotos[L->ngotos] = L->b.blk;
  L->goto_vals[L->ngotos++] = a;
  kit_cg_br(&L->b, L->igoto_blk);
  dead_block(L);
}

void lower_labels_finish(Lower *L) {
  for (LabelReloc **pp = &L->label_relocs; *pp;) {
    if ((*pp)->ac.label_fn == L->fn) {
      add_label_reloc(L, *pp);
      *pp = (*pp)->next;
    } else {
      pp = &(*pp)->next;
    }
  }
  uint32_t n = 0;
  for (LabelBlk *lb = L->labels; lb; lb = lb->next) {
    if (!lb->defined) c_error(L->diag, lb->pos, "label '%s' used but not defined", lb->name);
    n += lb->addressed;
  }
  if (L->igoto_blk) {
    KitCgBlkId *dests = c_alloc((n ? n : 1) * sizeof *dests);
    n = 0;
    for (LabelBlk *lb = L->labels; lb; lb = lb->next)
      if (lb->addressed) dests[n++] = lb->blk;
    lower_start_block(L, L->igoto_blk);
    KitCgInst *phi = kit_cg_phi(&L->b, KIT_CG_PTR);
    for (uint32_t i = 0; i < L->ngotos; i++) kit_cg_phi_add(L->m, phi, L->goto_vals[i], L->gotos[i]);
    kit_cg_indirectbr(&L->b, phi->id, dests, n);
  }
  L->ngotos = 0;
  L->igoto_blk = 0;
}

static void lifetime(Lower *L, CObj *o, KitCgOp op) {
  if (!o->cg_slot) return;
  kit_cg_emit(&L->b, op, KIT_CG_VOID, NULL, 0)->aux = o->cg_slot - 1;
}

/* Control that reaches a VLA's declaration again (a loop, a backward goto)
 * has left the scope of every VLA allocated since it was first reached, as
 * gcc does: restore the stack saved then, so loops do not grow it. The save
 * lives in a slot that the entry block clears. */
static void vla_reclaim(Lower *L) {
  KitCgModule *m = L->m;
  KitCgFunc *f = L->f;
  uint32_t slot = kit_cg_stack_new(m, f, 8, 8, 0);
  /* at the top of the entry block: slot = null */
  KitCgVal zero = kit_cg_insert(m, f, 0, 0, KIT_CG_OP_CONST, KIT_CG_I64, NULL, 0)->id;
  KitCgVal at = kit_cg_insert(m, f, 0, 1, KIT_CG_OP_STACKADDR, KIT_CG_PTR, NULL, 0)->id;
  f->blocks[0].insts[1].aux = slot;
  KitCgVal init[2] = {zero, at};
  KitCgInst *st = kit_cg_insert(m, f, 0, 2, KIT_CG_OP_STORE, KIT_CG_VOID, init, 2);
  st->imm = 8;
  st->cls = KIT_CG_INTERNAL;
  /* here: if (slot) stackrestore(slot); slot = stacksave() */
  KitCgVal addr = kit_cg_stackaddr(&L->b, slot);
  KitCgVal saved = kit_cg_load(&L->b, KIT_CG_I64, addr, 8, KIT_CG_INTERNAL);
  KitCgVal again = kit_cg_cmp(&L->b, KIT_CG_NE, saved, lower_i64(L, 0));
  KitCgBlkId restore = lower_new_block(L), cont = lower_new_block(L);
  kit_cg_condbr(&L->b, again, restore, cont);
  lower_start_block(L, restore);
  KitCgVal sp = kit_cg_conv(&L->b, KIT_CG_OP_INTTOPTR, KIT_CG_PTR, saved);
  kit_cg_emit(&L->b, KIT_CG_OP_STACKRESTORE, KIT_CG_VOID, &sp, 1);
  kit_cg_br(&L->b, cont);
  lower_start_block(L, cont);
  KitCgVal now = kit_cg_emit(&L->b, KIT_CG_OP_STACKSAVE, KIT_CG_PTR, NULL, 0)->id;
  kit_cg_store(&L->b, kit_cg_conv(&L->b, KIT_CG_OP_PTRTOINT, KIT_CG_I64, now), addr, 8, KIT_CG_INTERNAL);
}

void lower_local_init(Lower *L, CObj *o) {
  lower_set_loc(L, o->pos);
  if (type_is_vla(o->type)) {
    /* each bound must be positive: an ICMP carrying the bound's tydesc is that
     * fact for UBSan's vla-bound check (unused otherwise, and dropped by LLVM) */
    for (CType *t = type_unqual(o->type); t->kind == TY_ARRAY && type_is_vla(t); t = type_unqual(t->base)) {
      if (!t->vla_len) continue;
      KitCgVal n = lower_expr(L, t->vla_len);
      lower_set_loc(L, t->vla_len->pos);
      KitCgVal args[2] = {n, kit_cg_iconst(&L->b, kit_cg_val_type(L->f, n), 0)};
      KitCgInst *c = kit_cg_emit(&L->b, KIT_CG_OP_ICMP, KIT_CG_I1, args, 2);
      c->pred = type_is_signed(t->vla_len->type) ? KIT_CG_SGT : KIT_CG_UGT;
      c->tydesc = lower_ub_tydesc(L, t->vla_len->type, true);
    }
    KitCgVal size = lower_vla_size(L, o->type);
    vla_reclaim(L);
    KitCgInst *in = kit_cg_emit(&L->b, KIT_CG_OP_ALLOCA, KIT_CG_PTR, &size, 1);
    in->imm = (uint64_t)(o->align > 16 ? o->align : 16);
    in->tydesc = lower_tydesc(L, o->type); /* a VLA (MSan's origins name it 'vla', as clang's) */
    o->cg = (void *)(uintptr_t)in->id;
    return;
  }
  lifetime(L, o, KIT_CG_OP_LIFETIME_START);
  if (o->init) lower_runtime_init(L, o->init, (KitCgVal)(uintptr_t)o->cg);
}

static void lower_return(Lower *L, CStmt *s) {
  KitCgVal v = s->expr ? lower_expr(L, s->expr) : 0;
  if (v && L->fn->attr_returns_nonnull) lower_nonnull_fact(L, v, s->pos, L->fn->attr_returns_nonnull_pos, 0);
  lower_set_loc(L, s->pos);
  unwind_to(L, 0);
  lower_profile_hook(L, false);
  const AbiArg *r = &L->sig.ret;
  CType *rt = type_unqual(L->fn->type)->base;
  switch (r->kind) {
  case ABI_DIRECT:
    if (type_unqual(rt)->kind == TY_VECTOR) v = lower_vector_abi(L, v, r->cg[0]);
    if (!v) v = kit_cg_type_is_float(r->cg[0]) ? kit_cg_fconst(&L->b, r->cg[0], 0) : kit_cg_iconst(&L->b, r->cg[0], 0);
    kit_cg_ret(&L->b, v);
    break;
  case ABI_SPLIT: {
    KitCgVal tmp = kit_cg_stackaddr(&L->b, kit_cg_stack_new(L->m, L->f, ABI_SPLIT_TEMP, 16, 0));
    if (v) kit_cg_memop(&L->b, KIT_CG_OP_MEMCPY, tmp, v, lower_i64(L, rt->size), KIT_CG_PROGRAM);
    KitCgVal parts[2];
    for (int k = 0; k < r->n; k++)
      parts[k] = kit_cg_load(&L->b, r->cg[k], k ? kit_cg_ptradd(&L->b, tmp, lower_i64(L, abi_split_offset(r, k))) : tmp,
                             8, KIT_CG_PROGRAM);
    kit_cg_emit(&L->b, KIT_CG_OP_RET, KIT_CG_VOID, parts, r->n);
    break;
  }
  case ABI_MEMORY:
    if (v && type_unqual(rt)->kind == TY_VECTOR) kit_cg_store(&L->b, v, L->sret, 0, KIT_CG_PROGRAM);
    else if (v) kit_cg_memop(&L->b, KIT_CG_OP_MEMCPY, L->sret, v, lower_i64(L, rt->size), KIT_CG_PROGRAM);
    kit_cg_ret(&L->b, 0);
    break;
  default:
    kit_cg_ret(&L->b, 0);
    break;
  }
  dead_block(L);
}

static void lower_switch(Lower *L, CStmt *s) {
  KitCgVal v = lower_expr(L, s->expr);
  KitCgBlkId exit = lower_new_block(L), dflt = exit;
  uint32_t n = 0, cap = 16;
  int64_t *vals = c_alloc(sizeof(int64_t) * cap);
  KitCgBlkId *tgts = c_alloc(sizeof(KitCgBlkId) * cap);
  for (CStmtList *c = s->cases; c; c = c->next) {
    CStmt *cs = c->stmt;
    KitCgBlkId blk = lower_new_block(L);
    cs->cg = (void *)(uintptr_t)(blk + 1);
    if (cs->case_hi - cs->case_lo > 1024) continue; /* huge GNU ranges are tested below */
    for (int64_t x = cs->case_lo;; x++) {
      if (n == cap) {
        cap *= 2;
        int64_t *nv = c_alloc(sizeof(int64_t) * cap);
        KitCgBlkId *nt = c_alloc(sizeof(KitCgBlkId) * cap);
        memcpy(nv, vals, n * sizeof *vals);
        memcpy(nt, tgts, n * sizeof *tgts);
        vals = nv;
        tgts = nt;
      }
      vals[n] = x;
      tgts[n++] = blk;
      if (x == cs->case_hi) break;
    }
  }
  if (s->default_case) {
    dflt = lower_new_block(L);
    s->default_case->cg = (void *)(uintptr_t)(dflt + 1);
  }
  /* large ranges: compare before the table */
  bool sgn = type_is_signed(s->expr->type);
  KitCgType ct = kit_cg_val_type(L->f, v);
  for (CStmtList *c = s->cases; c; c = c->next) {
    CStmt *cs = c->stmt;
    if (cs->case_hi - cs->case_lo <= 1024) continue;
    KitCgVal lo = kit_cg_cmp(&L->b, sgn ? KIT_CG_SGE : KIT_CG_UGE, v, kit_cg_iconst(&L->b, ct, (uint64_t)cs->case_lo));
    KitCgVal hi = kit_cg_cmp(&L->b, sgn ? KIT_CG_SLE : KIT_CG_ULE, v, kit_cg_iconst(&L->b, ct, (uint64_t)cs->case_hi));
    KitCgBlkId next = lower_new_block(L);
    kit_cg_condbr(&L->b, kit_cg_binop(&L->b, KIT_CG_OP_AND, lo, hi), (KitCgBlkId)((uintptr_t)cs->cg - 1), next);
    lower_start_block(L, next);
  }
  kit_cg_switch(&L->b, v, dflt, vals, tgts, n);
  dead_block(L);
  Targets saved = L->tg;
  CStmt *saved_sw = L->cur_switch;
  L->tg.brk = exit;
  L->tg.has_brk = true;
  L->tg.brk_depth = depth(L);
  L->cur_switch = s;
  lower_stmt(L, s->body);
  L->tg = saved;
  L->cur_switch = saved_sw;
  if (lower_reachable(L)) kit_cg_br(&L->b, exit);
  lower_start_block(L, exit);
}

/* a loop: cond at top (while/for) or bottom (do) */
static void lower_loop(Lower *L, CStmt *s) {
  KitCgBlkId cond = lower_new_block(L), body = lower_new_block(L), step = lower_new_block(L), exit = lower_new_block(L);
  if (s->kind == ST_FOR && s->init) lower_stmt(L, s->init);
  kit_cg_br(&L->b, s->kind == ST_DO ? body : cond);
  lower_start_block(L, cond);
  if (s->expr)
    lower_cond_branch(L, s->expr, body, exit);
  else
    kit_cg_br(&L->b, body);
  lower_start_block(L, body);
  Targets saved = L->tg;
  L->tg.brk = exit;
  L->tg.cont = step;
  L->tg.has_brk = L->tg.has_cont = true;
  L->tg.brk_depth = L->tg.cont_depth = depth(L);
  lower_stmt(L, s->body);
  L->tg = saved;
  if (lower_reachable(L)) kit_cg_br(&L->b, step);
  lower_start_block(L, step);
  if (s->kind == ST_FOR && s->step) lower_expr(L, s->step);
  kit_cg_br(&L->b, cond);
  lower_start_block(L, exit);
}

/* does statement s contain a label, case or default a jump can land on? */
static bool has_jump_target(const CStmt *s) {
  if (!s) return false;
  switch (s->kind) {
  case ST_LABEL: case ST_CASE: case ST_DEFAULT:
    return true;
  case ST_BLOCK:
    for (CStmtList *l = s->stmts; l; l = l->next)
      if (has_jump_target(l->stmt)) return true;
    return false;
  case ST_IF:
    return has_jump_target(s->then) || has_jump_target(s->els);
  case ST_WHILE: case ST_DO: case ST_FOR: case ST_SWITCH:
    return has_jump_target(s->init) || has_jump_target(s->body);
  default:
    return false;
  }
}

/* A local whose declaration a goto or a case label can jump past starts its
 * life without passing its lifetime.start; with markers, ASan would see it
 * as out of scope. Such locals get no markers (clang does the same): they
 * live for the whole function, and only use-after-scope detection is lost. */
static void drop_bypassed_lifetimes(CStmt *blk) {
  for (CStmtList *l = blk->stmts; l; l = l->next) {
    if (l->stmt->kind != ST_DECL || !l->stmt->obj->cg_slot) continue;
    for (CStmtList *after = l->next; after; after = after->next)
      if (has_jump_target(after->stmt)) {
        l->stmt->obj->cg_slot = 0;
        break;
      }
  }
}

static void lower_block(Lower *L, CStmt *s) {
  drop_bypassed_lifetimes(s);
  Scope sc = {L->scope, s, depth(L) + 1};
  L->scope = &sc;
  for (CStmtList *l = s->stmts; l; l = l->next) lower_stmt(L, l->stmt);
  L->scope = sc.up;
  if (lower_reachable(L)) {
    run_cleanups_of(L, s);
    for (CObjList *l = s->locals; l; l = l->next) lifetime(L, l->obj, KIT_CG_OP_LIFETIME_END);
  }
}

void lower_stmt(Lower *L, CStmt *s) {
  if (!s) return;
  lower_set_loc(L, s->pos);
  switch (s->kind) {
  case ST_NULL:
    return;
  case ST_EXPR:
    lower_expr(L, s->expr);
    return;
  case ST_DECL:
    lower_local_init(L, s->obj);
    return;
  case ST_BLOCK:
    lower_block(L, s);
    return;
  case ST_IF: {
    KitCgBlkId t = lower_new_block(L), f = lower_new_block(L), join = s->els ? lower_new_block(L) : f;
    lower_cond_branch(L, s->expr, t, f);
    lower_start_block(L, t);
    lower_stmt(L, s->then);
    if (lower_reachable(L)) kit_cg_br(&L->b, join);
    if (s->els) {
      lower_start_block(L, f);
      lower_stmt(L, s->els);
      if (lower_reachable(L)) kit_cg_br(&L->b, join);
    }
    lower_start_block(L, join);
    return;
  }
  case ST_WHILE: case ST_DO: case ST_FOR:
    lower_loop(L, s);
    return;
  case ST_SWITCH:
    lower_switch(L, s);
    return;
  case ST_CASE: case ST_DEFAULT: {
    KitCgBlkId blk = s->cg ? (KitCgBlkId)((uintptr_t)s->cg - 1) : lower_new_block(L);
    if (lower_reachable(L)) kit_cg_br(&L->b, blk);
    lower_start_block(L, blk);
    lower_stmt(L, s->body);
    return;
  }
  case ST_BREAK: case ST_CONTINUE: {
    bool brk = s->kind == ST_BREAK;
    if (brk ? !L->tg.has_brk : !L->tg.has_cont) {
      c_error(L->diag, s->pos, "'%s' statement not in loop%s", brk ? "break" : "continue", brk ? " or switch statement" : " statement");
      return;
    }
    unwind_to(L, brk ? L->tg.brk_depth : L->tg.cont_depth);
    kit_cg_br(&L->b, brk ? L->tg.brk : L->tg.cont);
    dead_block(L);
    return;
  }
  case ST_RETURN:
    lower_return(L, s);
    return;
  case ST_GOTO:
    kit_cg_br(&L->b, label_block(L, s->label, s->pos));
    dead_block(L);
    return;
  case ST_LABEL: {
    LabelBlk *lb = label_of(L, s->label, s->pos);
    KitCgBlkId blk = lb->blk;
    if (lb->defined) c_error(L->diag, s->pos, "duplicate label '%s'", s->label);
    lb->defined = true;
    if (lower_reachable(L)) kit_cg_br(&L->b, blk);
    lower_start_block(L, blk);
    lower_stmt(L, s->body);
    return;
  }
  case ST_GOTO_PTR:
    lower_goto_ptr(L, s);
    return;
  case ST_ASM:
    lower_asm(L, s);
    return;
  }
}

KitCgVal lower_stmt_expr(Lower *L, CExpr *e) {
  CStmt *blk = e->body;
  if (!blk || blk->kind != ST_BLOCK) {
    lower_stmt(L, blk);
    return 0;
  }
  Scope sc = {L->scope, blk, depth(L) + 1};
  L->scope = &sc;
  KitCgVal v = 0;
  for (CStmtList *l = blk->stmts; l; l = l->next) {
    if (!l->next && l->stmt->kind == ST_EXPR)
      v = lower_expr(L, l->stmt->expr);
    else
      lower_stmt(L, l->stmt);
  }
  L->scope = sc.up;
  if (lower_reachable(L)) run_cleanups_of(L, blk);
  return v;
}
