/* cg/interp/ffi.c — the host boundary through libffi: calls from interpreted
 * code to host functions (fixed and variadic, byval structs, two-register
 * returns), and closures that let host code call interpreted functions. */
#include "interp.h"

#include <stdlib.h>
#include <string.h>

typedef struct Owned {
  struct Owned *next;
  ffi_type type;
  ffi_type *elems[];
} Owned;

static ffi_type *new_struct(KitInterp *ip, uint32_t nelems) {
  Owned *o = calloc(1, sizeof(Owned) + (nelems + 1) * sizeof(ffi_type *));
  if (!o) return NULL;
  o->next = ip->owned_types;
  ip->owned_types = o;
  o->type.type = FFI_TYPE_STRUCT;
  o->type.elements = o->elems;
  return &o->type;
}

void kit_interp__free_types(KitInterp *ip) {
  for (Owned *o = ip->owned_types, *n; o; o = n) {
    n = o->next;
    free(o);
  }
  ip->owned_types = NULL;
}

static ffi_type *i128_elems[] = {&ffi_type_uint64, &ffi_type_uint64, NULL};
static ffi_type ffi_i128 = {0, 0, FFI_TYPE_STRUCT, i128_elems};

ffi_type *kit_interp__ffi_type(KitCgType t, uint8_t attrs) {
  bool s = (attrs & KIT_CG_PA_SEXT) != 0;
  switch (t) {
  case KIT_CG_VOID: return &ffi_type_void;
  case KIT_CG_I1: case KIT_CG_I8: return s ? &ffi_type_sint8 : &ffi_type_uint8;
  case KIT_CG_I16: return s ? &ffi_type_sint16 : &ffi_type_uint16;
  case KIT_CG_I32: return (attrs & KIT_CG_PA_ZEXT) ? &ffi_type_uint32 : &ffi_type_sint32;
  case KIT_CG_I64: return &ffi_type_sint64;
  case KIT_CG_PTR: return &ffi_type_pointer;
  case KIT_CG_F32: return &ffi_type_float;
  case KIT_CG_F64: return &ffi_type_double;
  case KIT_CG_F80: return &ffi_type_longdouble;
  case KIT_CG_I128: return &ffi_i128;
  default: return NULL;
  }
}

/* A byval aggregate: only its size matters to the ABI once it is larger than
 * 16 bytes (MEMORY class, copied onto the stack). */
static ffi_type *byval_type(KitInterp *ip, uint32_t size) {
  uint32_t n8 = size / 8, n1 = size % 8;
  ffi_type *t = new_struct(ip, n8 + n1);
  if (!t) return NULL;
  uint32_t k = 0;
  for (uint32_t i = 0; i < n8; i++) t->elements[k++] = &ffi_type_uint64;
  for (uint32_t i = 0; i < n1; i++) t->elements[k++] = &ffi_type_uint8;
  t->elements[k] = NULL;
  return t;
}

/* {T1, T2} returned in two registers: lay the struct out so that T2 starts
 * at offset 8, which makes SysV put each half in its own register. */
static ffi_type *pair_type(KitInterp *ip, KitCgType a, KitCgType b) {
  if (a == KIT_CG_F80 || a == KIT_CG_I128 || b == KIT_CG_F80 || b == KIT_CG_I128) return NULL;
  ffi_type *t = new_struct(ip, 3);
  if (!t) return NULL;
  uint32_t k = 0;
  if (a == KIT_CG_F32) {
    t->elements[k++] = &ffi_type_float;
    t->elements[k++] = &ffi_type_float;
  } else if (a == KIT_CG_F64) {
    t->elements[k++] = &ffi_type_double;
  } else {
    t->elements[k++] = &ffi_type_uint64;
  }
  t->elements[k++] = kit_interp__ffi_type(b, 0);
  t->elements[k] = NULL;
  return t;
}

/* pa[i]: the ABI attributes of argument i (call site or declaration), or NULL */
int kit_interp__prep_call(KitInterp *ip, CallDesc *cd, const KitCgParam *const *pa, uint8_t ret_attrs, bool variadic) {
  cd->atypes = calloc(cd->nargs + 1, sizeof(ffi_type *));
  if (!cd->atypes) return -1;
  for (uint32_t i = 0; i < cd->nargs; i++) {
    uint8_t attrs = pa[i] ? pa[i]->attrs : 0;
    cd->byval[i] = (attrs & KIT_CG_PA_BYVAL) != 0;
    if (cd->byval[i])
      cd->atypes[i] = byval_type(ip, pa[i]->byval_size);
    else
      cd->atypes[i] = kit_interp__ffi_type((KitCgType)cd->types[i], attrs);
    if (!cd->atypes[i]) return -1;
  }
  cd->rtype = cd->rt2 != KIT_CG_VOID ? pair_type(ip, (KitCgType)cd->rt, (KitCgType)cd->rt2)
                                     : kit_interp__ffi_type((KitCgType)cd->rt, ret_attrs);
  if (!cd->rtype) return -1;
  ffi_status st = FFI_BAD_TYPEDEF;
  if (variadic && cd->nfixed < cd->nargs)
    st = ffi_prep_cif_var(&cd->cif, FFI_DEFAULT_ABI, cd->nfixed, cd->nargs, cd->rtype, cd->atypes);
  if (st != FFI_OK) st = ffi_prep_cif(&cd->cif, FFI_DEFAULT_ABI, cd->nargs, cd->rtype, cd->atypes);
  cd->cif_ok = st == FFI_OK;
  return cd->cif_ok ? 0 : -1;
}

/* reads one scalar of type t at p into a canonical slot */
static void read_scalar(Slot *d, KitCgType t, const void *p, bool from_ffi_arg) {
  memset(d, 0, sizeof *d);
  switch (t) {
  case KIT_CG_VOID: break;
  case KIT_CG_F32: memcpy(&d->f, p, 4); break;
  case KIT_CG_F64: memcpy(&d->d, p, 8); break;
  case KIT_CG_F80: memcpy(&d->ld, p, 10); break;
  case KIT_CG_I128: memcpy(&d->q, p, 16); break;
  default:
    if (from_ffi_arg) {
      ffi_arg v;
      memcpy(&v, p, sizeof v);
      d->i = (uint64_t)v & kit_interp__mask(t);
    } else {
      memcpy(&d->i, p, kit_cg_type_size(t));
      d->i &= kit_interp__mask(t);
    }
    break;
  }
}

void kit_interp__host_call(KitInterp *ip, const CallDesc *cd, Slot *S, void *fnp) {
  (void)ip;
  void *av[cd->nargs + 1];
  for (uint32_t i = 0; i < cd->nargs; i++) av[i] = cd->byval[i] ? S[cd->args[i]].p : (void *)&S[cd->args[i]];
  _Alignas(16) unsigned char rv[64];
  memset(rv, 0, sizeof rv);
  ffi_call((ffi_cif *)&cd->cif, FFI_FN(fnp), rv, av);
  if (cd->rt2 != KIT_CG_VOID) {
    read_scalar(&S[cd->rd], (KitCgType)cd->rt, rv, false);
    read_scalar(&S[cd->rd2], (KitCgType)cd->rt2, rv + 8, false);
  } else if (cd->rt != KIT_CG_VOID) {
    KitCgType t = (KitCgType)cd->rt;
    read_scalar(&S[cd->rd], t, rv, kit_cg_type_is_int(t) && t != KIT_CG_I128);
  }
}

static void closure_entry(ffi_cif *cif, void *ret, void **args, void *user) {
  (void)cif;
  Fn *fn = user;
  KitInterp *ip = fn->ip;
  const KitCgFunc *f = fn->f;
  KitCgScalar a[f->nparams + 1];
  for (uint32_t i = 0; i < f->nparams; i++) {
    KitCgType t = (KitCgType)f->params[i].type;
    memset(&a[i], 0, sizeof a[i]);
    if (f->params[i].attrs & KIT_CG_PA_BYVAL) {
      a[i].i = (uint64_t)(uintptr_t)args[i];
      continue;
    }
    Slot s;
    read_scalar(&s, t, args[i], false);
    memcpy(&a[i], &s, sizeof a[i]);
  }
  KitCgScalar r[2];
  memset(r, 0, sizeof r);
  if (kit_interp_call(ip, (KitCgFunc *)f, a, f->nparams, r)) {
    Ctx *cx = kit_interp__ctx();
    if (cx) cx->trap_pending = 1;
  }
  KitCgType t = (KitCgType)f->ret[0], t2 = (KitCgType)f->ret[1];
  if (t2 != KIT_CG_VOID) {
    memcpy(ret, &r[0], t == KIT_CG_F32 ? 4 : 8);
    memcpy((char *)ret + 8, &r[1], kit_cg_type_size(t2));
  } else if (t == KIT_CG_F32 || t == KIT_CG_F64 || t == KIT_CG_F80 || t == KIT_CG_I128) {
    memcpy(ret, &r[0], t == KIT_CG_F80 ? sizeof(long double) : kit_cg_type_size(t));
  } else if (t != KIT_CG_VOID) {
    ffi_arg v = (ffi_arg)r[0].i;
    memcpy(ret, &v, sizeof v);
  }
}

int kit_interp__make_closure(KitInterp *ip, Fn *fn) {
  const KitCgFunc *f = fn->f;
  fn->cat = calloc(f->nparams + 1, sizeof(ffi_type *));
  if (!fn->cat) return -1;
  for (uint32_t i = 0; i < f->nparams; i++) {
    const KitCgParam *p = &f->params[i];
    fn->cat[i] = (p->attrs & KIT_CG_PA_BYVAL) ? byval_type(ip, p->byval_size)
                                              : kit_interp__ffi_type((KitCgType)p->type, p->attrs);
    if (!fn->cat[i]) return -1;
  }
  fn->crt = f->ret[1] != KIT_CG_VOID ? pair_type(ip, (KitCgType)f->ret[0], (KitCgType)f->ret[1])
                                     : kit_interp__ffi_type((KitCgType)f->ret[0], f->ret_attrs);
  if (!fn->crt) return -1;
  if (ffi_prep_cif(&fn->ccif, FFI_DEFAULT_ABI, f->nparams, fn->crt, fn->cat) != FFI_OK) return -1;
  fn->closure = ffi_closure_alloc(sizeof(ffi_closure), &fn->closure_code);
  if (!fn->closure) return -1;
  if (ffi_prep_closure_loc(fn->closure, &fn->ccif, closure_entry, fn, fn->closure_code) != FFI_OK) {
    ffi_closure_free(fn->closure);
    fn->closure = NULL;
    fn->closure_code = NULL;
    return -1;
  }
  return 0;
}
