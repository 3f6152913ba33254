/* cg/print.c — the CG printer: writes a module or one function in the textual
 * form of docs/cg-text.md. It reads any structure without crashing (garbage
 * fields print as `?` or raw numbers); parse.c reads the text back. */
#include "text.h"

#include <inttypes.h>
#include <string.h>

static const char *tname(unsigned t) { return kit_cg_type_name((KitCgType)t); }

static const char *mstr(const KitCgModule *m, uint32_t i) { return i < m->nstrs && m->strs[i] ? m->strs[i] : ""; }

static void pstr(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
    else if (*p == '\n') fputs("\\n", out);
    else if (*p == '\t') fputs("\\t", out);
    else if (*p < 0x20 || *p >= 0x7f) fprintf(out, "\\x%02x", *p);
    else fputc(*p, out);
  }
  fputc('"', out);
}

static bool plain_name(const char *s) {
  if (!*s) return false;
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
          *p == '.' || *p == '$'))
      return false;
  return true;
}

static void psym(const KitCgModule *m, KitCgSym s, FILE *out) {
  if (s >= m->nsyms) {
    fprintf(out, "@\"?%" PRIu32 "\"", s);
    return;
  }
  const char *n = mstr(m, m->syms[s].name);
  fputc('@', out);
  if (plain_name(n)) fputs(n, out);
  else pstr(out, n);
}

static void ploc(const KitCgModule *m, const KitCgLoc *l, FILE *out) {
  if (l->file || l->line || l->col) {
    fputs(" !loc ", out);
    pstr(out, mstr(m, l->file));
    fprintf(out, " %" PRIu32 ":%" PRIu32, l->line, l->col);
  }
  if (l->pc) fprintf(out, " !pc 0x%" PRIx64, l->pc);
}

static void psymattrs(const KitCgModule *m, const KitCgSymbol *sy, FILE *out) {
  if (sy->linkage && sy->linkage < 4) fprintf(out, " %s", kit_cg_text_linkage[sy->linkage]);
  if (sy->visibility && sy->visibility < 3) fprintf(out, " %s", kit_cg_text_vis[sy->visibility]);
  (void)m;
}

static void pasm(const KitCgModule *m, const KitCgSymbol *sy, FILE *out) {
  if (sy->asm_name) {
    fputs(" asm ", out);
    pstr(out, mstr(m, sy->asm_name));
  }
}

static void ptydesc(const KitCgModule *m, uint32_t i, FILE *out) {
  const KitCgTyDesc *d = &m->tydescs[i];
  fprintf(out, "tydesc %" PRIu32 " ", i);
  pstr(out, mstr(m, d->name));
  fprintf(out, " %s %s %u", d->kind < 4 ? kit_cg_text_tdkind[d->kind] : "?", d->is_signed ? "signed" : "unsigned",
          (unsigned)d->bits);
  if (d->align) fprintf(out, " align %" PRIu32, d->align);
  if (d->pointee) fprintf(out, " pointee %" PRIu32, d->pointee);
  fputc('\n', out);
}

/* `["name"] [type T] [off BITS] [bits W] [val V]`: the fields that are not
 * zero (an all-zero member prints `val 0`) */
static void pmember(const KitCgModule *m, const KitCgDiMember *mb, FILE *out) {
  const char *sep = "";
  if (mb->name) {
    pstr(out, mstr(m, mb->name));
    sep = " ";
  }
  if (mb->type) {
    fprintf(out, "%stype %" PRIu32, sep, mb->type);
    sep = " ";
  }
  if (mb->offset_bits) {
    fprintf(out, "%soff %" PRIu64, sep, mb->offset_bits);
    sep = " ";
  }
  if (mb->bit_size) {
    fprintf(out, "%sbits %" PRIu32, sep, mb->bit_size);
    sep = " ";
  }
  if (mb->value || !*sep) fprintf(out, "%sval %" PRId64, sep, mb->value);
}

static void pditype(const KitCgModule *m, uint32_t i, FILE *out) {
  const KitCgDiType *d = &m->ditypes[i];
  fprintf(out, "ditype %" PRIu32 " %s", i, d->kind < KIT_CG_DI_NKINDS ? kit_cg_text_dikind[d->kind] : "?");
  if (d->name) {
    fputc(' ', out);
    pstr(out, mstr(m, d->name));
  }
  if (d->base) fprintf(out, " of %" PRIu32, d->base);
  if (d->size) fprintf(out, " size %" PRIu64, d->size);
  if (d->align) fprintf(out, " align %" PRIu32, d->align);
  if (d->kind == KIT_CG_DI_ARRAY) fprintf(out, " count %" PRId64, d->count);
  if (d->encoding) { /* a word, or the number of an encoding without one */
    const char *enc = NULL;
    for (size_t k = 0; k < KIT_CG_TEXT_NATE; k++)
      if (kit_cg_text_ate[k].bit == d->encoding) enc = kit_cg_text_ate[k].name;
    if (enc) fprintf(out, " enc %s", enc);
    else fprintf(out, " enc %u", (unsigned)d->encoding);
  }
  if (d->flags & KIT_CG_DIF_DECL) fputs(" decl", out);
  if (d->flags & KIT_CG_DIF_VARIADIC) fputs(" variadic", out);
  ploc(m, &d->loc, out);
  if (d->nmembers && d->members) {
    fputs(" {", out);
    for (uint32_t k = 0; k < d->nmembers; k++) {
      fputs(k ? ", " : " ", out);
      pmember(m, &d->members[k], out);
    }
    fputs(" }", out);
  }
  fputc('\n', out);
}

static void pdivar(const KitCgModule *m, const KitCgDiVar *v, FILE *out) {
  fputs("  dvar ", out);
  pstr(out, mstr(m, v->name));
  fprintf(out, " type %" PRIu32 " %s%" PRIu32, v->type, v->at == KIT_CG_DV_VALUE ? "%" : "$", v->where);
  if (v->offset) fprintf(out, " off %" PRIu64, v->offset);
  if (v->deref) fputs(" deref", out);
  if (v->arg) fprintf(out, " arg %" PRIu32, v->arg);
  ploc(m, &v->loc, out);
  fputc('\n', out);
}

static void pglobal(const KitCgModule *m, const KitCgGlobal *g, FILE *out) {
  const KitCgSymbol *sy = g->sym < m->nsyms ? &m->syms[g->sym] : NULL;
  bool defined = sy && sy->defined;
  fputs(defined ? "global " : "extern ", out);
  psym(m, g->sym, out);
  if (defined || g->size) fprintf(out, " size %" PRIu64, g->size);
  if (defined || g->align != 1) fprintf(out, " align %" PRIu32, g->align);
  if (g->is_const) fputs(" const", out);
  if (g->is_tls) fputs(" tls", out);
  if (sy) psymattrs(m, sy, out);
  if (g->section) {
    fputs(" section ", out);
    pstr(out, mstr(m, g->section));
  }
  if (g->no_redzone) fputs(" noredzone", out);
  if (g->used) fputs(" used", out);
  if (sy) pasm(m, sy, out);
  if (g->tydesc) fprintf(out, " !ty %" PRIu32, g->tydesc);
  if (g->ditype) fprintf(out, " !di %" PRIu32, g->ditype);
  if (g->diname) {
    fputs(" !diname ", out);
    pstr(out, mstr(m, g->diname));
  }
  ploc(m, &g->loc, out);
  if (g->init) {
    uint64_t n = g->size;
    while (n && !g->init[n - 1]) n--;
    fputs(" = x\"", out);
    for (uint64_t i = 0; i < n; i++) fprintf(out, "%02x", g->init[i]);
    fputc('"', out);
  }
  for (uint32_t i = 0; i < g->nrelocs; i++) {
    const KitCgReloc *r = &g->relocs[i];
    fprintf(out, " reloc %" PRIu64 " ", r->offset);
    psym(m, r->sym, out);
    fprintf(out, " %" PRId64 " %u", r->addend, (unsigned)r->size);
    if (r->blk) fprintf(out, " b%" PRIu32, r->blk);
    if (r->blk && r->blk2) fprintf(out, " minus b%" PRIu32, r->blk2);
  }
  fputc('\n', out);
}

static void palias(const KitCgModule *m, KitCgSym s, FILE *out) {
  const KitCgSymbol *sy = &m->syms[s];
  fputs("alias ", out);
  psym(m, s, out);
  fputs(" = ", out);
  psym(m, sy->index, out);
  psymattrs(m, sy, out);
  pasm(m, sy, out);
  fputc('\n', out);
}

static void pparamattrs(const KitCgParam *p, FILE *out) {
  if (p->attrs & KIT_CG_PA_ZEXT) fputs(" zeroext", out);
  if (p->attrs & KIT_CG_PA_SEXT) fputs(" signext", out);
  if (p->attrs & KIT_CG_PA_BYVAL) fprintf(out, " byval(%" PRIu32 ", %" PRIu32 ")", p->byval_size, p->byval_align);
  if (p->attrs & KIT_CG_PA_SRET) fputs(" sret", out);
}

static void pfuncheader(const KitCgModule *m, const KitCgFunc *f, FILE *out) {
  fputs(f->nblocks ? "func " : "declare ", out);
  psym(m, f->sym, out);
  fputc('(', out);
  for (uint32_t i = 0; i < f->nparams; i++) {
    const KitCgParam *p = &f->params[i];
    if (i) fputs(", ", out);
    fputs(tname(p->type), out);
    pparamattrs(p, out);
    if (p->name) {
      fputc(' ', out);
      pstr(out, mstr(m, p->name));
    }
  }
  if (f->variadic) fputs(f->nparams ? ", ..." : "...", out);
  fputs(") -> ", out);
  if (f->ret[1]) fprintf(out, "{%s, %s}", tname(f->ret[0]), tname(f->ret[1]));
  else fputs(tname(f->ret[0]), out);
  if (f->ret_attrs & KIT_CG_PA_ZEXT) fputs(" zeroext", out);
  if (f->ret_attrs & KIT_CG_PA_SEXT) fputs(" signext", out);
  const KitCgSymbol *sy = f->sym < m->nsyms ? &m->syms[f->sym] : NULL;
  if (sy) psymattrs(m, sy, out);
  for (size_t i = 0; i < KIT_CG_TEXT_NFATTRS; i++)
    if (f->attrs & kit_cg_text_fattrs[i].bit) fprintf(out, " %s", kit_cg_text_fattrs[i].name);
  if (sy) pasm(m, sy, out);
  if (f->ditype) fprintf(out, " !di %" PRIu32, f->ditype);
  ploc(m, &f->loc, out);
}

static KitCgType vtype(const KitCgFunc *f, KitCgVal v) {
  return v < f->nvals && f->vtype ? (KitCgType)f->vtype[v] : KIT_CG_VOID;
}

static void pargs(const KitCgInst *in, uint32_t from, FILE *out) {
  for (uint32_t i = from; i < in->nargs; i++) fprintf(out, "%s%%%" PRIu32, i > from ? ", " : "", in->args[i]);
}

static KitCgVal arg(const KitCgInst *in, uint32_t i) { return i < in->nargs ? in->args[i] : 0; }
static KitCgBlkId blk(const KitCgInst *in, uint32_t i) { return i < in->nblks ? in->blks[i] : 0; }

static void pconst(const KitCgInst *in, FILE *out) {
  switch (in->type) {
  case KIT_CG_I1: fprintf(out, "%" PRIu64, in->imm & 1); break;
  case KIT_CG_I8: fprintf(out, "%d", (int8_t)in->imm); break;
  case KIT_CG_I16: fprintf(out, "%d", (int16_t)in->imm); break;
  case KIT_CG_I32: fprintf(out, "%" PRId32, (int32_t)in->imm); break;
  case KIT_CG_I64: fprintf(out, "%" PRId64, (int64_t)in->imm); break;
  case KIT_CG_I128: fprintf(out, "0x%016" PRIx64 "%016" PRIx64, in->imm2, in->imm); break;
  case KIT_CG_F32: fprintf(out, "0x%08" PRIx32, (uint32_t)in->imm); break;
  case KIT_CG_F80: fprintf(out, "0x%04x%016" PRIx64, (unsigned)(in->imm2 & 0xffff), in->imm); break;
  case KIT_CG_F64: fprintf(out, "0x%016" PRIx64, in->imm); break;
  default: fprintf(out, "0x%" PRIx64, in->imm); break;
  }
}

static void pcallargs(const KitCgInst *in, uint32_t from, FILE *out) {
  bool va = in->flags & KIT_CG_F_VARARGS, first = true;
  uint64_t fixed = in->imm;
  fputc('(', out);
  for (uint32_t i = from; i <= in->nargs; i++) {
    if (va && i - from == fixed) {
      fputs(first ? "..." : ", ...", out);
      first = false;
    }
    if (i == in->nargs) break;
    fprintf(out, "%s%%%" PRIu32, first ? "" : ", ", in->args[i]);
    if (in->argattrs) pparamattrs(&in->argattrs[i - from], out);
    first = false;
  }
  if (va && fixed > in->nargs - from) fputs(first ? "..." : ", ...", out);
  fputc(')', out);
}

static void pcalltype(const KitCgInst *in, FILE *out) {
  if (in->type2) fprintf(out, "{%s, %s}", tname(in->type), tname(in->type2));
  else fputs(tname(in->type), out);
}

/* asm [volatile] "template", "constraints"(%a, %p -> i32, ...) [bN [bL, ...]] */
static void pasm_inst(const KitCgModule *m, const KitCgInst *in, FILE *out) {
  if (in->flags & KIT_CG_F_VOLATILE) fputs(" volatile", out);
  fputc(' ', out);
  pstr(out, mstr(m, in->aux));
  fputs(", ", out);
  pstr(out, mstr(m, (uint32_t)(in->imm > UINT32_MAX ? 0 : in->imm)));
  fputc('(', out);
  for (uint32_t i = 0; i < in->nargs; i++) {
    fprintf(out, "%s%%%" PRIu32, i ? ", " : "", in->args[i]);
    if (in->argattrs && in->argattrs[i].type) fprintf(out, " -> %s", tname(in->argattrs[i].type));
  }
  fputc(')', out);
  if (in->op != KIT_CG_OP_ASMGOTO) return;
  fprintf(out, " b%" PRIu32 " [", blk(in, 0));
  for (uint32_t i = 1; i < in->nblks; i++) fprintf(out, "%sb%" PRIu32, i > 1 ? ", " : "", in->blks[i]);
  fputc(']', out);
}

static bool is_mem(unsigned op) { return op < KIT_CG_NOPS && (kit_cg_op_info[op].flags & KIT_CGO_MEM); }

/* flags with an op-specific spelling on this op are not printed as !name */
static unsigned special_flags(unsigned op) {
  unsigned f = 0;
  if (is_mem(op)) f |= KIT_CG_F_VOLATILE;
  if (op == KIT_CG_OP_PTRADD) f |= KIT_CG_F_BOUNDS;
  if (op == KIT_CG_OP_ASM || op == KIT_CG_OP_ASMGOTO) f |= KIT_CG_F_VOLATILE;
  if (op == KIT_CG_OP_CALL || op == KIT_CG_OP_CALLI) f |= KIT_CG_F_VARARGS | KIT_CG_F_TAIL;
  return f;
}

static void pinst(const KitCgModule *m, const KitCgFunc *f, const KitCgInst *in, FILE *out) {
  fputs("  ", out);
  if (in->id) fprintf(out, "%%%" PRIu32 " = ", in->id);
  unsigned op = in->op;
  if (op >= KIT_CG_NOPS) {
    fprintf(out, "?op%u\n", op);
    return;
  }
  const KitCgOpInfo *oi = &kit_cg_op_info[op];
  if ((op == KIT_CG_OP_CALL || op == KIT_CG_OP_CALLI) && (in->flags & KIT_CG_F_TAIL)) fputs("tail ", out);
  fputs(oi->name, out);
  switch (op) {
  case KIT_CG_OP_CONST:
    fprintf(out, " %s ", tname(in->type));
    pconst(in, out);
    break;
  case KIT_CG_OP_SYMADDR:
    fputc(' ', out);
    psym(m, in->aux, out);
    if (in->imm) fprintf(out, ", %" PRId64, (int64_t)in->imm);
    break;
  case KIT_CG_OP_STACKADDR:
  case KIT_CG_OP_LIFETIME_START:
  case KIT_CG_OP_LIFETIME_END: fprintf(out, " $%" PRIu32, in->aux); break;
  case KIT_CG_OP_PARAM: fprintf(out, " %s %" PRIu32, tname(in->type), in->aux); break;
  case KIT_CG_OP_ICMP:
  case KIT_CG_OP_FCMP:
    /* the operands' type; an undefined first operand does not hide it */
    fprintf(out, " %s %s ", kit_cg_pred_name((KitCgPred)in->pred),
            tname(vtype(f, arg(in, 0)) ? vtype(f, arg(in, 0)) : vtype(f, arg(in, 1))));
    pargs(in, 0, out);
    break;
  case KIT_CG_OP_SADDO: case KIT_CG_OP_UADDO: case KIT_CG_OP_SSUBO:
  case KIT_CG_OP_USUBO: case KIT_CG_OP_SMULO: case KIT_CG_OP_UMULO:
    fprintf(out, " %s ", tname(vtype(f, arg(in, 0))));
    pargs(in, 0, out);
    break;
  case KIT_CG_OP_STORE:
  case KIT_CG_OP_ASTORE:
    fprintf(out, " %s ", tname(vtype(f, arg(in, 0))));
    pargs(in, 0, out);
    break;
  case KIT_CG_OP_PTRADD:
  case KIT_CG_OP_MEMCPY:
  case KIT_CG_OP_MEMMOVE:
  case KIT_CG_OP_MEMSET:
  case KIT_CG_OP_VASTART:
  case KIT_CG_OP_VAEND:
  case KIT_CG_OP_VACOPY:
  case KIT_CG_OP_ALLOCA:
  case KIT_CG_OP_STACKRESTORE:
  case KIT_CG_OP_RET:
  case KIT_CG_OP_CONDBR:
    if (in->nargs) fputc(' ', out);
    pargs(in, 0, out);
    break;
  case KIT_CG_OP_ARMW:
    fprintf(out, " %s %s ", kit_cg_rmw_name((KitCgRmw)in->aux), tname(in->type));
    pargs(in, 0, out);
    break;
  case KIT_CG_OP_FRAMEADDR:
  case KIT_CG_OP_RETADDR:
    if (in->imm) fprintf(out, " level %" PRIu64, in->imm);
    break;
  case KIT_CG_OP_FENCE:
  case KIT_CG_OP_STACKSAVE:
  case KIT_CG_OP_BR:
  case KIT_CG_OP_UNREACHABLE:
  case KIT_CG_OP_TRAP: break;
  case KIT_CG_OP_CALL:
    fputc(' ', out);
    pcalltype(in, out);
    fputc(' ', out);
    psym(m, in->aux, out);
    pcallargs(in, 0, out);
    break;
  case KIT_CG_OP_CALLI:
    fputc(' ', out);
    pcalltype(in, out);
    fprintf(out, " %%%" PRIu32, arg(in, 0));
    pcallargs(in, 1, out);
    break;
  case KIT_CG_OP_PHI:
    fprintf(out, " %s", tname(in->type));
    for (uint32_t i = 0; i < in->nargs; i++)
      fprintf(out, "%s [%%%" PRIu32 ", b%" PRIu32 "]", i ? "," : "", in->args[i], blk(in, i));
    break;
  case KIT_CG_OP_BLOCKADDR: fprintf(out, " b%" PRIu32, blk(in, 0)); break;
  case KIT_CG_OP_ASM:
  case KIT_CG_OP_ASMGOTO: pasm_inst(m, in, out); break;
  case KIT_CG_OP_INDIRECTBR:
    fprintf(out, " %%%" PRIu32 " [", arg(in, 0));
    for (uint32_t i = 0; i < in->nblks; i++) fprintf(out, "%sb%" PRIu32, i ? ", " : "", in->blks[i]);
    fputc(']', out);
    break;
  case KIT_CG_OP_SWITCH:
    fprintf(out, " %s %%%" PRIu32 ", b%" PRIu32 " [", tname(vtype(f, arg(in, 0))), arg(in, 0), blk(in, 0));
    for (uint32_t i = 1; i < in->nblks; i++)
      fprintf(out, "%s%" PRId64 ": b%" PRIu32, i > 1 ? ", " : "", in->cases ? in->cases[i - 1] : 0, in->blks[i]);
    fputc(']', out);
    break;
  default:
    /* arithmetic, conversions, select, load, second, va.arg (and any op
     * without a spelling of its own): the result type, then the operands */
    if (oi->flags & KIT_CGO_RES) fprintf(out, " %s", tname(in->type));
    if (in->nargs) fputc(' ', out);
    pargs(in, 0, out);
    break;
  }
  if (op == KIT_CG_OP_SHUFFLE) {
    fputs(" [", out);
    for (unsigned i = 0; in->cases && i < kit_cg_type_lanes((KitCgType)in->type); i++)
      fprintf(out, "%s%" PRId64, i ? ", " : "", in->cases[i]);
    fputc(']', out);
  }
  if (op == KIT_CG_OP_BR) fprintf(out, " b%" PRIu32, blk(in, 0));
  if (op == KIT_CG_OP_CONDBR) fprintf(out, ", b%" PRIu32 ", b%" PRIu32, blk(in, 0), blk(in, 1));
  if (op == KIT_CG_OP_ALOAD || op == KIT_CG_OP_ASTORE || op == KIT_CG_OP_ARMW || op == KIT_CG_OP_ACMPXCHG ||
      op == KIT_CG_OP_FENCE)
    fprintf(out, " %s", kit_cg_order_name((KitCgOrder)in->pred));
  if (op == KIT_CG_OP_PTRADD && (in->flags & KIT_CG_F_BOUNDS)) fprintf(out, " bounds %" PRId64, in->bound);
  if (op == KIT_CG_OP_ALLOCA && in->imm) fprintf(out, " align %" PRIu64, in->imm);
  if (is_mem(op)) {
    if (in->imm) fprintf(out, " align %" PRIu64, in->imm);
    if (in->flags & KIT_CG_F_VOLATILE) fputs(" volatile", out);
    if (in->cls) fputs(" internal", out);
  }
  unsigned special = special_flags(op);
  for (size_t i = 0; i < KIT_CG_TEXT_NFLAGS; i++)
    if ((in->flags & kit_cg_text_flags[i].bit) && !(special & kit_cg_text_flags[i].bit))
      fprintf(out, " !%s", kit_cg_text_flags[i].name);
  if ((op == KIT_CG_OP_CALL || op == KIT_CG_OP_CALLI) && in->argattrs) {
    bool any = false;
    for (uint32_t i = op == KIT_CG_OP_CALLI; i < in->nargs; i++) any |= in->argattrs[i - (op == KIT_CG_OP_CALLI)].attrs != 0;
    if (!any) fputs(" !argattrs", out);
  }
  if (in->tydesc) fprintf(out, " !ty %" PRIu32, in->tydesc);
  ploc(m, &in->loc, out);
  fputc('\n', out);
}

void kit_cg_print_func(const KitCgModule *m, const KitCgFunc *f, FILE *out) {
  pfuncheader(m, f, out);
  if (!f->nblocks) {
    fputc('\n', out);
    return;
  }
  fputs(" {\n", out);
  for (uint32_t i = 0; i < f->nstack; i++) {
    const KitCgStackObj *s = &f->stack[i];
    fprintf(out, "  stack $%" PRIu32 " size %" PRIu64 " align %" PRIu32, i, s->size, s->align);
    if (s->name) {
      fputc(' ', out);
      pstr(out, mstr(m, s->name));
    }
    if (!s->escapes) fputs(" noescape", out);
    if (s->tydesc) fprintf(out, " !ty %" PRIu32, s->tydesc);
    ploc(m, &s->loc, out);
    fputc('\n', out);
  }
  for (uint32_t i = 0; i < f->ndivars && f->divars; i++) pdivar(m, &f->divars[i], out);
  for (uint32_t b = 0; b < f->nblocks; b++) {
    const KitCgBlock *bb = &f->blocks[b];
    fprintf(out, "b%" PRIu32 ":", b);
    if (bb->name) {
      fputc(' ', out);
      pstr(out, mstr(m, bb->name));
    }
    fputc('\n', out);
    for (uint32_t i = 0; i < bb->ninsts; i++) pinst(m, f, &bb->insts[i], out);
  }
  fputs("}\n", out);
}

void kit_cg_print(const KitCgModule *m, FILE *out) {
  fputs("module ", out);
  pstr(out, mstr(m, m->name));
  fputc('\n', out);
  for (uint32_t i = 0; i < m->nasms && m->asms; i++) {
    fputs("asm ", out);
    pstr(out, mstr(m, m->asms[i]));
    fputc('\n', out);
  }
  for (uint32_t i = 1; i < m->ntydescs; i++) ptydesc(m, i, out);
  for (uint32_t i = 1; i < m->nditypes && m->ditypes; i++) pditype(m, i, out);
  for (uint32_t i = 0; i < m->nglobals; i++) pglobal(m, m->globals[i], out);
  for (uint32_t s = 0; s < m->nsyms; s++)
    if (m->syms[s].kind == KIT_CG_SYM_ALIAS) palias(m, s, out);
  for (uint32_t i = 0; i < m->nfuncs; i++) {
    const KitCgFunc *f = m->funcs[i];
    if (f->nblocks) fputc('\n', out);
    kit_cg_print_func(m, f, out);
  }
  for (uint32_t i = 0; i < m->nctors; i++) {
    fputs("ctor ", out);
    psym(m, m->ctors[i].func, out);
    fprintf(out, " %" PRId32 "\n", m->ctors[i].priority);
  }
  for (uint32_t i = 0; i < m->ndtors; i++) {
    fputs("dtor ", out);
    psym(m, m->dtors[i].func, out);
    fprintf(out, " %" PRId32 "\n", m->dtors[i].priority);
  }
}
