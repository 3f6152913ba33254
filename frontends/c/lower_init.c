/* frontends/c/lower_init.c — initializers: static ones become a global's
 * bytes and relocations (constant expressions, address constants, string
 * literals, bitfields); automatic ones become a zero fill and stores. */
#include <string.h>

#include "lower_expr.h"

static void put_bytes(uint8_t *dst, int64_t off, int64_t cap, const void *src, int64_t n) {
  if (off < 0 || off >= cap) return;
  if (off + n > cap) n = cap - off;
  memcpy(dst + off, src, (size_t)n);
}

static void put_bits(uint8_t *dst, int64_t cap, const CInitItem *it, uint64_t v) {
  const CMember *m = it->bitfield;
  int64_t bit = (int64_t)it->offset * 8 + m->bit_offset;
  for (int i = 0; i < m->bit_width && i < 64; i++, bit++) {
    int64_t byte = bit / 8;
    if (byte >= cap) return;
    if ((v >> i) & 1)
      dst[byte] |= (uint8_t)(1u << (bit % 8));
    else
      dst[byte] &= (uint8_t)~(1u << (bit % 8));
  }
}

/* a real floating (or a complex integer's part) of type t */
static void put_real(uint8_t *buf, int64_t off, int64_t cap, CType *t, long double v) {
  if (t->kind == TY_FLOAT) {
    float f = (float)v;
    put_bytes(buf, off, cap, &f, 4);
  } else if (t->kind == TY_DOUBLE) {
    double d = (double)v;
    put_bytes(buf, off, cap, &d, 8);
  } else if (t->kind == TY_LDOUBLE) {
    put_bytes(buf, off, cap, &v, 10);
  } else {
    __int128 w = (int64_t)v;
    put_bytes(buf, off, cap, &w, t->size);
  }
}

static void static_item(Lower *L, CObj *obj, KitCgGlobal *g, CInitItem *it) {
  uint8_t *buf = g->init;
  int64_t cap = (int64_t)g->size;
  CType *t = type_unqual(it->type);
  CExpr *e = it->expr;
  if (e->kind == EX_STRING && t->kind == TY_ARRAY) {
    int64_t n = t->size > 0 && t->size < e->str_len ? t->size : e->str_len;
    if (t->size <= 0) n = e->str_len;
    put_bytes(buf, it->offset, cap, e->str, n);
    return;
  }
  if (t->kind == TY_VECTOR) { /* a vector compound literal (behind same-size casts): its lanes */
    CExpr *c = e;
    while (c->kind == EX_CAST && type_unqual(c->lhs->type)->kind == TY_VECTOR) c = c->lhs;
    if (c->kind == EX_COMPOUND_LIT && c->obj->init) {
      for (int i = 0; i < c->obj->init->nitems; i++) {
        CInitItem lane = c->obj->init->items[i];
        lane.offset += it->offset;
        static_item(L, obj, g, &lane);
      }
      return;
    }
  }
  int64_t iv;
  if (type_is_integer(t) && c_eval_int(e, &iv)) {
    if (it->bitfield) {
      put_bits(buf, cap, it, (uint64_t)iv);
    } else if (t->kind == TY_BOOL) {
      uint8_t b = iv != 0;
      put_bytes(buf, it->offset, cap, &b, 1);
    } else {
      __int128 w = iv; /* little endian: the low bytes of the (sign-extended) value */
      put_bytes(buf, it->offset, cap, &w, t->size);
    }
    return;
  }
  long double fv, im;
  if (type_is_float(t) && c_eval_float(e, &fv)) {
    put_real(buf, it->offset, cap, t, fv);
    return;
  }
  if (type_is_complex(t) && c_eval_complex(e, &fv, &im)) {
    put_real(buf, it->offset, cap, t->base, fv);
    put_real(buf, it->offset + t->base->size, cap, t->base, im);
    return;
  }
  CAddrConst ac;
  if ((t->kind == TY_PTR || type_is_integer(t)) && t->size >= 4 && c_eval_addr(e, &ac)) {
    if (ac.label) {
      lower_label_reloc(L, g, (uint64_t)it->offset, t->size >= 8 ? 8 : 4, &ac, e->pos);
      return;
    }
    if (!ac.obj && !ac.str) {
      put_bytes(buf, it->offset, cap, &ac.offset, t->size);
      return;
    }
    KitCgSym s = ac.str ? lower_string_sym(L, ac.str) : lower_obj_sym(L, ac.obj);
    kit_cg_global_add_reloc(L->m, g, (uint64_t)it->offset, s, ac.offset, t->size >= 8 ? 8 : 4);
    return;
  }
  c_error(L->diag, e->pos, "initializer element is not constant (initializing '%s')", obj->name ? obj->name : "?");
}

void lower_global_init(Lower *L, CObj *obj, KitCgGlobal *g) {
  if (!g->init) g->init = kit_cg_alloc(L->m, g->size ? g->size : 1);
  for (int i = 0; i < obj->init->nitems; i++) static_item(L, obj, g, &obj->init->items[i]);
}

void lower_runtime_init(Lower *L, CInit *init, KitCgVal addr) {
  CType *t = init->type;
  int64_t size = t && t->size > 0 ? t->size : 0;
  bool whole = init->nitems == 1 && !init->items[0].bitfield && init->items[0].offset == 0 &&
               init->items[0].type->size == size && init->items[0].expr->kind != EX_STRING;
  if (!whole && size > 0)
    kit_cg_memop(&L->b, KIT_CG_OP_MEMSET, addr, kit_cg_iconst(&L->b, KIT_CG_I8, 0), lower_i64(L, size), KIT_CG_PROGRAM);
  for (int i = 0; i < init->nitems; i++) {
    CInitItem *it = &init->items[i];
    CType *it_t = type_unqual(it->type);
    lower_set_loc(L, it->expr->pos);
    if (it->expr->kind == EX_STRING && it_t->kind == TY_ARRAY) {
      int64_t n = it_t->size > 0 && it_t->size < it->expr->str_len ? it_t->size : it->expr->str_len;
      KitCgVal src = kit_cg_symaddr(&L->b, lower_string_sym(L, it->expr), 0);
      KitCgVal dst = it->offset ? kit_cg_ptradd(&L->b, addr, lower_i64(L, it->offset)) : addr;
      kit_cg_memop(&L->b, KIT_CG_OP_MEMCPY, dst, src, lower_i64(L, n), KIT_CG_PROGRAM);
      continue;
    }
    KitCgVal v = lower_expr(L, it->expr);
    KitCgVal dst = it->offset ? kit_cg_ptradd(&L->b, addr, lower_i64(L, it->offset)) : addr;
    LValue lv = {.addr = dst, .bf = it->bitfield, .type = it->type};
    /* a leaf of a packed struct may sit below its type's alignment: the object's
     * alignment and the offset bound what the store may assume */
    int64_t a = it_t->align > 0 ? it_t->align : 1, obj_align = t && t->align > 0 ? type_unqual(t)->align : a;
    while (a > 1 && (it->offset % a || a > obj_align)) a /= 2;
    if (a < it_t->align) lv.align = (uint32_t)a;
    lv_store(L, &lv, v);
  }
}
