/* frontends/c/lower.c — lowering a translation unit to a CG module: symbols
 * for functions and globals (with their ABI-lowered signatures, linkage and
 * attributes), string literals, and function bodies (prologue, parameters,
 * the implicit return). Expressions and statements live in their own files. */
#include "lower.h"

#include "lower_expr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *sym_name(CObj *o) { return o->asm_name ? o->asm_name : o->name; }

/* the module string naming the file of a source position */
/* the module string of pos's file; consecutive positions mostly share a file,
 * so the last one is kept (the interning hashes the whole path) */
static uint32_t pos_file(Lower *L, CPos pos) {
  if (L->pos_file_key == pos.file + 1) return L->pos_file_str;
  const char *file = L->diag->pp ? cpp_file_name(L->diag->pp, pos.file) : NULL;
  L->pos_file_key = pos.file + 1;
  L->pos_file_str = file ? kit_cg_str(L->m, file) : L->file_str;
  return L->pos_file_str;
}

KitCgLoc lower_pos_loc(Lower *L, CPos pos) {
  return (KitCgLoc){.file = pos_file(L, pos), .line = pos.line, .col = pos.col};
}

void lower_set_loc(Lower *L, CPos pos) {
  if (!pos.line) return;
  L->b.loc.file = pos_file(L, pos);
  L->b.loc.line = pos.line;
  L->b.loc.col = pos.col;
}

KitCgBlkId lower_new_block(Lower *L) { return kit_cg_block_new(L->m, L->f); }

void lower_start_block(Lower *L, KitCgBlkId blk) { kit_cg_builder_at(&L->b, blk); }

bool lower_reachable(Lower *L) { return !kit_cg_block_terminated(L->f, L->b.blk); }

/* -Wreturn-type: the open block at the end of a non-void function (not main)
 * is reached from the entry; blocks only computed gotos reach are not counted */
static bool falls_off_end(Lower *L, const CObj *fn) {
  CType *ret = type_unqual(type_unqual(fn->type)->base);
  if (ret->kind == TY_VOID || !strcmp(fn->name, "main") || fn->attr_noreturn || !c_warn_on(L->diag, W_RETURN_TYPE)) return false;
  KitCgFunc *f = L->f;
  uint8_t *seen = calloc(f->nblocks, 1);
  KitCgBlkId *stack = malloc(f->nblocks * sizeof *stack);
  if (!seen || !stack) abort();
  size_t n = 0;
  stack[n++] = 0;
  seen[0] = 1;
  while (n) {
    KitCgBlkId b = stack[--n];
    const KitCgBlkId *succ;
    uint32_t ns = kit_cg_block_terminated(f, b) ? kit_cg_block_succs(f, b, &succ) : 0;
    for (uint32_t k = 0; k < ns; k++)
      if (!seen[succ[k]]) {
        seen[succ[k]] = 1;
        stack[n++] = succ[k];
      }
  }
  bool reached = seen[L->b.blk];
  free(seen);
  free(stack);
  return reached;
}

/* the CG parameter list of an ABI-classified signature */
static uint32_t cg_params(const AbiSig *sig, KitCgParam *out, CType *fn) {
  uint32_t n = 0;
  if (sig->ret.kind == ABI_MEMORY) out[n++] = (KitCgParam){.type = KIT_CG_PTR, .attrs = KIT_CG_PA_SRET};
  CParam *p = type_unqual(fn)->params;
  for (int i = 0; i < sig->nparams; i++, p = p ? p->next : NULL) {
    const AbiArg *a = &sig->params[i];
    switch (a->kind) {
    case ABI_IGNORE:
      break;
    case ABI_DIRECT:
      out[n++] = (KitCgParam){.type = a->cg[0], .attrs = a->attrs};
      break;
    case ABI_SPLIT:
      for (int k = 0; k < a->n; k++) out[n++] = (KitCgParam){.type = a->cg[k], .attrs = KIT_CG_PA_PARTIAL};
      break;
    case ABI_MEMORY: {
      CType *t = p ? p->type : NULL;
      out[n++] = (KitCgParam){.type = KIT_CG_PTR,
                              .attrs = KIT_CG_PA_BYVAL,
                              .byval_size = t ? (uint32_t)t->size : 0,
                              .byval_align = t ? (uint32_t)(t->align < 8 ? 8 : t->align) : 8};
      break;
    }
    }
  }
  return n;
}

static KitCgFunc *declare_func(Lower *L, CObj *o) {
  const char *name = sym_name(o);
  KitCgSym s = kit_cg_sym_find(L->m, name);
  if (s != UINT32_MAX) return L->m->syms[s].kind == KIT_CG_SYM_FUNC ? kit_cg_func_of(L->m, s) : NULL;
  AbiSig sig;
  abi_classify(o->type, NULL, 0, &sig);
  KitCgParam params[256];
  int count = 1 + 2 * sig.nparams;
  KitCgParam *pp = count <= 256 ? params : c_alloc(sizeof(KitCgParam) * count);
  uint32_t n = cg_params(&sig, pp, o->type);
  KitCgType types[512];
  KitCgType *tt = n <= 512 ? types : c_alloc(sizeof(KitCgType) * n);
  for (uint32_t i = 0; i < n; i++) tt[i] = pp[i].type;
  KitCgType ret = KIT_CG_VOID;
  if (sig.ret.kind == ABI_DIRECT || sig.ret.kind == ABI_SPLIT) ret = sig.ret.cg[0];
  bool variadic = type_unqual(o->type)->variadic || type_unqual(o->type)->old_style;
  KitCgFunc *f = kit_cg_func_declare(L->m, name, ret, tt, n, variadic && type_unqual(o->type)->variadic);
  if (!f) return NULL;
  for (uint32_t i = 0; i < n; i++) f->params[i] = pp[i];
  if (sig.ret.kind == ABI_SPLIT && sig.ret.n == 2) f->ret[1] = sig.ret.cg[1];
  if (sig.ret.kind == ABI_DIRECT) f->ret_attrs = sig.ret.attrs;
  if (sig.ret.kind == ABI_SPLIT) f->ret_attrs = KIT_CG_PA_PARTIAL;
  if (o->attr_noinline) f->attrs |= KIT_CG_FA_NOINLINE;
  if (o->attr_always_inline) f->attrs |= KIT_CG_FA_ALWAYSINLINE;
  if (o->attr_noreturn) f->attrs |= KIT_CG_FA_NORETURN;
  if (o->attr_no_sanitize_address) f->attrs |= KIT_CG_FA_NOSANITIZE;
  if (o->attr_used) f->attrs |= KIT_CG_FA_USED;
  if (o->attr_returns_twice) f->attrs |= KIT_CG_FA_RETURNS_TWICE;
  if (o->attr_cold) f->attrs |= KIT_CG_FA_COLD;
  /* C has no exceptions (kitcc has no -fexceptions): as clang, every function
   * is nounwind; the definitions keep their unwind tables (uwtable) */
  f->attrs |= KIT_CG_FA_NOUNWIND;
  return f;
}

static void set_symbol_attrs(Lower *L, CObj *o, KitCgSym s) {
  KitCgSymbol *sy = &L->m->syms[s];
  if (o->storage == SC_STATIC) sy->linkage = KIT_CG_LINK_INTERNAL;
  if (o->attr_weak) sy->linkage = KIT_CG_LINK_WEAK;
  sy->visibility = (uint8_t)(o->visibility == VIS_HIDDEN      ? KIT_CG_VIS_HIDDEN
                             : o->visibility == VIS_PROTECTED ? KIT_CG_VIS_PROTECTED
                                                              : KIT_CG_VIS_DEFAULT);
}

KitCgSym lower_obj_sym(Lower *L, CObj *o) {
  if (o->cg) return (KitCgSym)(uintptr_t)o->cg - 1;
  KitCgSym s;
  if (o->is_function) {
    KitCgFunc *f = declare_func(L, o);
    if (!f) {
      c_error(L->diag, o->pos, "'%s' redeclared as a different kind of symbol", o->name);
      return 0;
    }
    s = f->sym;
  } else {
    KitCgGlobal *g = kit_cg_global_declare(L->m, sym_name(o));
    if (!g) {
      c_error(L->diag, o->pos, "'%s' redeclared as a different kind of symbol", o->name);
      return 0;
    }
    g->is_tls = o->is_thread_local;
    if (o->attr_used) g->used = true;
    s = g->sym;
  }
  set_symbol_attrs(L, o, s);
  o->cg = (void *)(uintptr_t)(s + 1);
  return s;
}

KitCgSym lower_string_sym(Lower *L, CExpr *str) {
  if (str->cg) return (KitCgSym)(uintptr_t)str->cg - 1;
  char name[64];
  snprintf(name, sizeof name, ".str.%d", L->nstrings++);
  int64_t size = str->type->size > 0 ? str->type->size : str->str_len;
  KitCgGlobal *g = kit_cg_global_new(L->m, name, (uint64_t)size, (uint32_t)str->type->base->align);
  g->is_const = true;
  kit_cg_global_set_init(L->m, g, str->str, (uint64_t)(str->str_len < size ? str->str_len : size));
  L->m->syms[g->sym].linkage = KIT_CG_LINK_INTERNAL;
  /* where the literal is written: ASan describes '.str' as defined there */
  g->loc.file = pos_file(L, str->pos);
  g->loc.line = str->pos.line;
  g->loc.col = str->pos.col;
  str->cg = (void *)(uintptr_t)(g->sym + 1);
  return g->sym;
}

static void lower_global(Lower *L, CObj *o) {
  KitCgSym s = lower_obj_sym(L, o);
  if (!o->is_definition) return;
  KitCgGlobal *g = kit_cg_global_of(L->m, s);
  CType *t = o->init && o->init->type ? o->init->type : o->type;
  int64_t size = t->size > 0 ? t->size : 0;
  if (type_unqual(t)->flexible && o->init) {
    /* a struct with an initialized flexible array member grows to hold it */
    for (int i = 0; i < o->init->nitems; i++) {
      CInitItem *it = &o->init->items[i];
      int64_t end = it->offset + (it->type->size > 0 ? it->type->size : 0);
      if (it->expr && it->expr->kind == EX_STRING && it->type->kind == TY_ARRAY) end = it->offset + it->expr->str_len;
      if (end > size) size = end;
    }
  }
  g->size = (uint64_t)size;
  g->align = (uint32_t)(o->align > t->align ? o->align : t->align);
  if (type_unqual(t)->kind == TY_ARRAY && size >= 16 && g->align < 16) g->align = 16; /* SysV: arrays of 16+ bytes */
  g->is_const = (t->quals & Q_CONST) && !(t->quals & Q_VOLATILE);
  L->m->syms[s].defined = true;
  if (o->section) g->section = kit_cg_str(L->m, o->section);
  g->loc.file = pos_file(L, o->pos);
  g->loc.line = o->pos.line;
  g->loc.col = o->pos.col;
  lower_debug_global(L, o, g, t);
  if (o->init) lower_global_init(L, o, g);
}

/* materialise a parameter's incoming CG values into its stack object */
static void store_param(Lower *L, CObj *p, const AbiArg *a, uint32_t *cgi) {
  KitCgFunc *f = L->f;
  CType *t = p->type;
  if (a->kind == ABI_MEMORY) {
    /* the caller's byval copy is the object itself */
    p->cg = (void *)(uintptr_t)(kit_cg_param(f, (*cgi)++));
    lower_debug_var(L, p, KIT_CG_DV_VALUE, (uint32_t)(uintptr_t)p->cg);
    return;
  }
  int64_t size = t->size > 0 ? t->size : 1;
  if (a->kind == ABI_SPLIT) size = size < 16 ? 16 : size;
  uint32_t so = kit_cg_stack_new(L->m, f, (uint64_t)size, (uint32_t)(t->align < 8 && a->kind == ABI_SPLIT ? 8 : t->align),
                                 kit_cg_str(L->m, p->name ? p->name : ""));
  f->stack[so].escapes = p->address_taken || type_unqual(t)->kind == TY_STRUCT || type_unqual(t)->kind == TY_UNION;
  lower_debug_var(L, p, KIT_CG_DV_STACK, so);
  KitCgVal addr = kit_cg_stackaddr(&L->b, so);
  if (a->kind == ABI_DIRECT) {
    KitCgVal v = kit_cg_param(f, (*cgi)++);
    kit_cg_store(&L->b, v, addr, 0, KIT_CG_PROGRAM);
  } else if (a->kind == ABI_SPLIT) {
    for (int k = 0; k < a->n; k++) {
      KitCgVal v = kit_cg_param(f, (*cgi)++);
      KitCgVal at = k ? kit_cg_ptradd(&L->b, addr, lower_i64(L, 8)) : addr;
      kit_cg_store(&L->b, v, at, 8, KIT_CG_PROGRAM);
    }
  }
  /* p->cg holds the stack address value (a CG value id, not a symbol) */
  p->cg = (void *)(uintptr_t)addr;
}

/* -finstrument-functions: gcc's __cyg_profile_func_enter(this_fn, call_site)
 * once the parameters are stored, and __cyg_profile_func_exit before each
 * return, after its value is computed; no_instrument_function opts out. */
void lower_profile_hook(Lower *L, bool enter) {
  if (!L->opt->instrument_functions || L->fn->attr_no_instrument_function) return;
  const char *name = enter ? "__cyg_profile_func_enter" : "__cyg_profile_func_exit";
  KitCgType params[2] = {KIT_CG_PTR, KIT_CG_PTR};
  KitCgFunc *hook = kit_cg_func_declare(L->m, name, KIT_CG_VOID, params, 2, false);
  if (!hook) return;
  KitCgVal args[2] = {kit_cg_symaddr(&L->b, lower_obj_sym(L, L->fn), 0),
                      kit_cg_emit(&L->b, KIT_CG_OP_RETADDR, KIT_CG_PTR, NULL, 0)->id};
  kit_cg_call(&L->b, hook->sym, KIT_CG_VOID, args, 2);
}

static void lower_function(Lower *L, CObj *o) {
  KitCgSym s = lower_obj_sym(L, o);
  KitCgFunc *f = kit_cg_func_of(L->m, s);
  if (!f || !kit_cg_func_is_decl(f)) {
    if (f) c_error(L->diag, o->pos, "redefinition of '%s'", o->name);
    return;
  }
  L->fn = o;
  L->f = f;
  L->labels = NULL;
  L->tg = (Targets){0};
  L->cur_switch = NULL;
  abi_classify(o->type, NULL, 0, &L->sig);
  f->loc.file = pos_file(L, o->pos);
  f->loc.line = o->pos.line;
  f->loc.col = o->pos.col;
  lower_debug_func(L, o, f);
  kit_cg_builder_init(&L->b, L->m, f);
  kit_cg_builder_at(&L->b, lower_new_block(L));
  uint32_t cgi = 0;
  L->sret = 0;
  if (L->sig.ret.kind == ABI_MEMORY) L->sret = kit_cg_param(f, cgi++);
  int i = 0;
  /* the parameter stores carry no location, as clang's: a debugger's
   * breakpoint on the function (after the prologue) then sees them done */
  for (CObjList *p = o->params; p; p = p->next, i++) {
    if (i < L->sig.nparams) store_param(L, p->obj, &L->sig.params[i], &cgi);
  }
  lower_set_loc(L, o->pos);
  lower_profile_hook(L, true);
  /* locals get their stack objects up front; ST_DECL starts their lifetime */
  for (CObjList *l = o->locals; l; l = l->next) {
    CObj *v = l->obj;
    if (!v->is_local || v->is_param || v->cg || type_is_vla(v->type)) continue;
    int64_t size = v->type->size > 0 ? v->type->size : 1;
    if (v->init && v->init->type && v->init->type->size > size) size = v->init->type->size;
    int align = v->align > v->type->align ? v->align : v->type->align;
    if (type_unqual(v->type)->kind == TY_ARRAY && size >= 16 && align < 16) align = 16; /* SysV: arrays of 16+ bytes */
    uint32_t so = kit_cg_stack_new(L->m, f, (uint64_t)size, (uint32_t)(align ? align : 1),
                                   kit_cg_str(L->m, v->name ? v->name : ""));
    f->stack[so].escapes = v->address_taken || !type_is_scalar(v->type);
    f->stack[so].loc = (KitCgLoc){pos_file(L, v->pos), v->pos.line, v->pos.col, 0};
    f->stack[so].tydesc = lower_tydesc(L, v->type);
    v->cg = (void *)(uintptr_t)kit_cg_stackaddr(&L->b, so);
    v->cg_slot = so + 1;
    lower_debug_var(L, v, KIT_CG_DV_STACK, so);
  }
  lower_stmt(L, o->body);
  if (lower_reachable(L) && falls_off_end(L, o))
    c_warn(L->diag, W_RETURN_TYPE, o->body->end, "control reaches end of non-void function");
  if (lower_reachable(L)) {
    lower_profile_hook(L, false);
    /* falling off the end: main returns 0 (C99 5.1.2.2.3), others return garbage-free zero */
    if (L->sig.ret.kind == ABI_DIRECT) {
      KitCgType t = L->sig.ret.cg[0];
      KitCgVal z = kit_cg_type_is_vec(t) ? lower_vector_abi(L, 0, t)
                   : kit_cg_type_is_float(t) ? kit_cg_fconst(&L->b, t, 0) : kit_cg_iconst(&L->b, t, 0);
      kit_cg_ret(&L->b, z);
    } else if (L->sig.ret.kind == ABI_SPLIT) {
      KitCgVal v[2];
      for (int k = 0; k < L->sig.ret.n; k++)
        v[k] = kit_cg_type_is_vec(L->sig.ret.cg[k])     ? lower_vector_abi(L, 0, L->sig.ret.cg[k])
               : kit_cg_type_is_float(L->sig.ret.cg[k]) ? kit_cg_fconst(&L->b, L->sig.ret.cg[k], 0)
                                                        : kit_cg_iconst(&L->b, L->sig.ret.cg[k], 0);
      kit_cg_emit(&L->b, KIT_CG_OP_RET, KIT_CG_VOID, v, L->sig.ret.n);
    } else {
      kit_cg_ret(&L->b, 0);
    }
  }
  lower_labels_finish(L);
  /* blocks created for labels/joins that nothing reaches still need a terminator */
  for (KitCgBlkId bi = 0; bi < f->nblocks; bi++)
    if (!kit_cg_block_terminated(f, bi)) {
      kit_cg_builder_at(&L->b, bi);
      kit_cg_unreachable(&L->b);
    }
  if (o->constructor_prio) kit_cg_add_ctor(L->m, s, o->constructor_prio);
  if (o->destructor_prio) kit_cg_add_dtor(L->m, s, o->destructor_prio);
  L->fn = NULL;
  L->f = NULL;
}

/* a static always_inline function is lowered only once something refers to
 * it: the x86 intrinsics headers define hundreds, most of them unused */
static bool on_demand(const CObj *o) {
  return o->is_inline && o->attr_always_inline && o->storage == SC_STATIC && !o->attr_used && !o->constructor_prio &&
         !o->destructor_prio;
}

/* One pass over the functions lowered only when used: the gnu_inline bodies
 * some call used (a call declares the symbol) and the on_demand ones something
 * referred to. True when it lowered any: a body may use another one. */
static bool lower_used_bodies(Lower *L, CUnit *u) {
  bool lowered = false;
  for (CObjList *l = u->objs; l; l = l->next) {
    CObj *o = l->obj;
    if (o->is_gnu_inline_body) {
      KitCgSym s = kit_cg_sym_find(L->m, sym_name(o));
      if (s == UINT32_MAX || L->m->syms[s].defined) continue;
    } else if (o->storage == SC_TYPEDEF || o->alias_target || !o->is_function || !o->body || !on_demand(o) || !o->cg ||
               !kit_cg_func_is_decl(kit_cg_func_of(L->m, lower_obj_sym(L, o)))) {
      continue;
    }
    lower_function(L, o);
    lowered = true;
  }
  return lowered;
}

KitCgModule *c_lower(CUnit *u, CDiag *diag, const CLowerOptions *opt) {
  Lower L = {0};
  L.m = kit_cg_module_new(u->main_file ? u->main_file : "module");
  L.diag = diag;
  L.opt = opt;
  L.unit = u;
  L.file_str = kit_cg_str(L.m, u->main_file ? u->main_file : "");
  lower_file_asms(&L, u);
  for (CObjList *l = u->objs; l; l = l->next) {
    CObj *o = l->obj;
    if (o->storage == SC_TYPEDEF || o->alias_target || o->is_function) continue;
    lower_global(&L, o);
  }
  /* aliases before the function bodies, which may use them by name; a
   * function target is declared here and defined below */
  for (CObjList *l = u->objs; l; l = l->next) {
    CObj *o = l->obj;
    if (!o->alias_target) continue;
    KitCgSym target = kit_cg_sym_find(L.m, o->alias_target);
    for (CObjList *t = u->objs; target == UINT32_MAX && t; t = t->next)
      if (t->obj->is_function && !t->obj->alias_target && !strcmp(t->obj->name, o->alias_target))
        target = lower_obj_sym(&L, t->obj);
    if (target == UINT32_MAX) {
      c_error(diag, o->pos, "alias '%s' refers to an undefined symbol '%s'", o->name, o->alias_target);
      continue;
    }
    KitCgSym s = kit_cg_alias_new(L.m, sym_name(o), target);
    if (s != UINT32_MAX) {
      set_symbol_attrs(&L, o, s);
      o->cg = (void *)(uintptr_t)(s + 1); /* uses of the alias name this symbol */
    }
  }
  for (CObjList *l = u->objs; l; l = l->next) {
    CObj *o = l->obj;
    if (o->storage == SC_TYPEDEF || o->alias_target || !o->is_function || o->is_gnu_inline_body) continue;
    if (o->body && !on_demand(o))
      lower_function(&L, o);
    else if (!o->body)
      lower_obj_sym(&L, o);
  }
  while (lower_used_bodies(&L, u)) {
  }
  if (diag->errors) {
    kit_cg_module_free(L.m);
    return NULL;
  }
  return L.m;
}
