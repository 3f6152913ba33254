/* frontends/c/asm.c — GNU asm statements and file-scope asm: parsed and put
 * in LLVM's inline asm terms as clang does on x86-64 (template operand
 * references $N, constraint codes, clobbers), with gcc's diagnostics for
 * what cannot be. lower_asm.c lowers the result to CG's asm ops. */
#include "lower.h" /* abi_cg_type: which C types are scalars to CG */
#include "parse.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Buf {
  char *s;
  size_t n, cap;
} Buf;

static void put(Buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t nc = (b->cap + n + 1) * 2;
    char *ns = c_alloc(nc);
    if (b->n) memcpy(ns, b->s, b->n);
    b->s = ns;
    b->cap = nc;
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = 0;
}
static void puts_(Buf *b, const char *s) { put(b, s, strlen(s)); }
static const char *str_of(Buf *b) { return b->s ? b->s : ""; }

/* an operand as written: [name] "constraint" (expr) */
typedef struct RawOp {
  const char *name, *cons;
  CExpr *expr;
  CPos pos;
} RawOp;

typedef struct AsmParse {
  Parser *p;
  CPos pos;
  RawOp *ops[2];          /* outputs, inputs */
  int nops[2];
  const char **clobs;
  CPos *clob_pos;
  int nclobs;
  CAsm *a;
  bool go;                /* asm goto: a label section may follow */
  CAsmOperand *plus;      /* the inputs '+' outputs add, after the others */
  int nplus;
  Buf plus_cons;          /* and their constraint entries */
} AsmParse;

static void *grow(void *old, int n, size_t elem) {
  void *nw = c_alloc((size_t)(n + 1) * elem);
  if (n) memcpy(nw, old, (size_t)n * elem);
  return nw;
}

/* a string literal's bytes (adjacent ones joined) */
static const char *asm_string(Parser *p, CPos *pos) {
  if (pos) *pos = tok(p)->pos;
  if (tok(p)->kind != CT_STRING) {
    perror_at(p, tok(p)->pos, "expected a string literal in 'asm' before '%s'", tok(p)->text);
    return NULL;
  }
  CExpr *e = parse_string(p);
  return e->str ? e->str : "";
}

/* ---- the operand and clobber lists ------------------------------------------- */

static void parse_operand(AsmParse *ap, int which) {
  Parser *p = ap->p;
  RawOp op = {0};
  if (accept(p, "[")) {
    op.name = ident(p);
    expect(p, "]");
  }
  op.cons = asm_string(p, &op.pos);
  if (!op.cons) return;
  expect(p, "(");
  op.expr = parse_expr(p);
  expect(p, ")");
  ap->ops[which] = grow(ap->ops[which], ap->nops[which], sizeof op);
  ap->ops[which][ap->nops[which]++] = op;
}

static void parse_label(AsmParse *ap) {
  Parser *p = ap->p;
  CPos pos = tok(p)->pos;
  const char *name = ident(p);
  if (!name) return;
  CAsm *a = ap->a;
  a->labels = grow(a->labels, a->nlabels, sizeof *a->labels);
  a->label_pos = grow(a->label_pos, a->nlabels, sizeof *a->label_pos);
  a->label_pos[a->nlabels] = pos;
  a->labels[a->nlabels++] = name;
}

/* one section: 0 outputs, 1 inputs, 2 clobbers, 3 labels */
static void parse_section(AsmParse *ap, int sec) {
  Parser *p = ap->p;
  if (sec > 3) {
    perror_at(p, tok(p)->pos, "expected ')' before ':'");
    return;
  }
  if (sec == 3 && !ap->go) perror_at(p, tok(p)->pos, "asm labels need 'asm goto'"); /* parsed all the same */
  while (!at_eof(p) && !is_punct(tok(p), ":") && !is_punct(tok(p), "::") && !is_punct(tok(p), ")")) {
    if (sec < 2) {
      parse_operand(ap, sec);
    } else if (sec == 2) {
      CPos pos;
      const char *c = asm_string(p, &pos);
      if (!c) return;
      ap->clobs = grow(ap->clobs, ap->nclobs, sizeof *ap->clobs);
      ap->clob_pos = grow(ap->clob_pos, ap->nclobs, sizeof *ap->clob_pos);
      ap->clob_pos[ap->nclobs] = pos;
      ap->clobs[ap->nclobs++] = c;
    } else {
      parse_label(ap);
    }
    if (!accept(p, ",")) break;
  }
}

/* ---- constraints ------------------------------------------------------------------ */

/* what a constraint allows, and the output it matches */
typedef struct Cons {
  bool mem, reg, imm_only, flag;
  int tied;
} Cons;

static int named_operand(AsmParse *ap, const char *name, size_t len) {
  for (int w = 0; w < 2; w++)
    for (int i = 0; i < ap->nops[w]; i++) {
      const char *n = ap->ops[w][i].name;
      if (n && strlen(n) == len && !strncmp(n, name, len)) return w ? ap->nops[0] + i : i;
    }
  return -1;
}

/* gcc's x86 constraint letters (after '=', '+', '&') as LLVM codes in b;
 * false for a letter that is none */
static bool codes(AsmParse *ap, const char *c, Buf *b, Cons *k, bool out) {
  static const char *const regs[][2] = {{"a", "{ax}"}, {"b", "{bx}"}, {"c", "{cx}"}, {"d", "{dx}"},
                                        {"S", "{si}"}, {"D", "{di}"}, {"t", "{st}"}, {"u", "{st(1)}"}};
  k->tied = -1;
  bool imm = false;
  for (; *c; c++) {
    if (*c == ' ' || *c == '\t' || *c == '%' || *c == '?' || *c == '!') continue;
    if (*c == ',') { puts_(b, "|"); continue; }
    if (out && *c == '@' && !strncmp(c, "@cc", 3) && c[3]) {
      puts_(b, "{");
      puts_(b, c);
      puts_(b, "}");
      k->flag = k->reg = true;
      return true;
    }
    if (!out && isdigit((unsigned char)*c)) {
      char *end;
      k->tied = (int)strtol(c, &end, 10);
      put(b, c, (size_t)(end - c));
      c = end - 1;
      continue;
    }
    if (!out && *c == '[') {
      const char *e = strchr(c, ']');
      if (!e || (k->tied = named_operand(ap, c + 1, (size_t)(e - c - 1))) < 0) return false;
      char n[16];
      snprintf(n, sizeof n, "%d", k->tied);
      puts_(b, n);
      c = e;
      continue;
    }
    const char *reg = NULL;
    for (size_t i = 0; i < sizeof regs / sizeof *regs; i++)
      if (*c == regs[i][0][0]) reg = regs[i][1];
    if (reg) {
      puts_(b, reg);
      k->reg = true;
    } else if (*c == 'g') {
      puts_(b, "imr");
      k->reg = k->mem = true;
    } else if (*c == 'X') {
      puts_(b, "X");
      k->reg = k->mem = true;
    } else if (strchr("moV<>", *c)) {
      put(b, c, 1);
      k->mem = true;
    } else if (strchr("rqQRlxyfvkpA", *c)) {
      put(b, c, 1);
      k->reg = true;
    } else if (strchr("insEFIJKLMNOGCeZ", *c)) {
      put(b, c, 1);
      imm = true;
    } else if (*c == 'Y' && c[1] && isalpha((unsigned char)c[1])) {
      puts_(b, "^Y");
      put(b, ++c, 1);
      k->reg = true;
    } else {
      return false;
    }
  }
  k->imm_only = imm && !k->reg && !k->mem && k->tied < 0;
  return b->n > 0;
}

/* a local declared `register T x asm("reg")` named by the operand */
static const char *register_var(CExpr *e) {
  if (e->kind != EX_VAR || !e->obj || !e->obj->is_local || !e->obj->asm_name) return NULL;
  const char *r = e->obj->asm_name;
  return *r == '%' ? r + 1 : r;
}

static bool bitfield_of(CExpr *e) { return e->kind == EX_MEMBER && e->member && e->member->bit_width >= 0; }

static bool scalar(CExpr *e) { return abi_cg_type(e->type) != KIT_CG_VOID; }

static void add_entry(Buf *all, const char *s) {
  if (all->n) puts_(all, ",");
  puts_(all, s);
}

/* output i: its entry; a '+' output also gets an input (appended later) */
static void output_entry(AsmParse *ap, int i, Buf *all) {
  Parser *p = ap->p;
  RawOp *o = &ap->ops[0][i];
  CAsmOperand *op = &ap->a->outs[i];
  const char *c = o->cons;
  bool rw = *c == '+';
  if (*c != '=' && *c != '+') {
    perror_at(p, o->pos, "output operand constraint lacks '='");
    return;
  }
  c++;
  bool early = false;
  while (*c == '&' || *c == '=' || *c == '+') early |= *c++ == '&';
  Buf b = {0};
  Cons k = {0};
  if (!codes(ap, c, &b, &k, true)) {
    perror_at(p, o->pos, "invalid output constraint '%s' in asm", o->cons);
    return;
  }
  if (!o->expr->is_lvalue || bitfield_of(o->expr)) {
    perror_at(p, o->expr->pos, "invalid lvalue in asm output %d", i);
    return;
  }
  const char *rv = register_var(o->expr);
  op->expr = o->expr;
  op->tied = -1;
  op->indirect = k.mem && !k.flag && !rv;
  if (!op->indirect && (!k.reg || !scalar(o->expr))) {
    char ty[128];
    type_spell(o->expr->type, ty, sizeof ty);
    perror_at(p, o->expr->pos, "impossible constraint in 'asm' (output %d of type '%s')", i, ty);
    return;
  }
  mark_address_taken(o->expr);
  Buf e = {0};
  puts_(&e, early ? "=&" : "=");
  if (op->indirect) puts_(&e, "*");
  if (rv) {
    puts_(&e, "{");
    puts_(&e, rv);
    puts_(&e, "}");
  } else {
    puts_(&e, str_of(&b));
  }
  add_entry(all, str_of(&e));
  if (!rw) return;
  /* a memory-only operand is read through the same address, else the old value goes in tied */
  char n[16];
  snprintf(n, sizeof n, "%d", i);
  bool by_addr = op->indirect && !k.reg;
  Buf t = {0};
  if (by_addr) puts_(&t, "*");
  puts_(&t, by_addr ? str_of(&b) : n);
  add_entry(&ap->plus_cons, str_of(&t));
  ap->plus[ap->nplus++] = (CAsmOperand){.expr = o->expr, .indirect = by_addr, .tied = i};
}

static void input_entry(AsmParse *ap, int i, Buf *all) {
  Parser *p = ap->p;
  RawOp *o = &ap->ops[1][i];
  CAsmOperand *op = &ap->a->ins[i];
  if (strpbrk(o->cons, "=+")) {
    perror_at(p, o->pos, "input operand constraint contains '%c'", *strpbrk(o->cons, "=+"));
    return;
  }
  Buf b = {0};
  Cons k = {0};
  if (!codes(ap, o->cons, &b, &k, false)) {
    perror_at(p, o->pos, "invalid input constraint '%s' in asm", o->cons);
    return;
  }
  if (k.tied >= ap->nops[0]) {
    perror_at(p, o->pos, "matching constraint references invalid operand number");
    return;
  }
  const char *rv = register_var(o->expr);
  op->tied = k.tied;
  op->indirect = k.mem && !k.reg && k.tied < 0 && !rv;
  if (op->indirect) {
    if (!o->expr->is_lvalue || bitfield_of(o->expr)) {
      perror_at(p, o->expr->pos, "memory input %d is not directly addressable", i);
      return;
    }
    mark_address_taken(o->expr);
    op->expr = o->expr;
  } else {
    op->expr = rvalue(p, o->expr);
    int64_t v;
    CAddrConst ac;
    if (!scalar(op->expr) || (k.imm_only && !c_eval_int(op->expr, &v) && !c_eval_addr(op->expr, &ac))) {
      perror_at(p, o->expr->pos, "impossible constraint in 'asm' (input %d '%s')", i, o->cons);
      return;
    }
  }
  Buf e = {0};
  if (op->indirect) puts_(&e, "*");
  if (rv && k.reg) {
    puts_(&e, "{");
    puts_(&e, rv);
    puts_(&e, "}");
  } else {
    puts_(&e, str_of(&b));
  }
  add_entry(all, str_of(&e));
}

/* ---- clobbers ------------------------------------------------------------------------- */

static bool x86_register(const char *r) {
  static const char *const names[] = {
      "ax", "bx", "cx", "dx", "si", "di", "bp", "sp", "al", "bl", "cl", "dl", "ah", "bh", "ch", "dh",
      "sil", "dil", "bpl", "spl", "st", "dirflag", "fpsr", "flags", "fpcr", "mxcsr", "ip", "eflags",
      "cs", "ds", "es", "fs", "gs", "ss"};
  size_t n = strlen(r);
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(r, names[i])) return true;
  if ((r[0] == 'e' || r[0] == 'r') && n == 3 && x86_register(r + 1) && !strchr("lh", r[2])) return true;
  if (r[0] == 'r' && isdigit((unsigned char)r[1])) { /* r8..r15 with b w d l suffixes */
    char *end;
    long k = strtol(r + 1, &end, 10);
    return k >= 8 && k <= 15 && (!*end || (!end[1] && strchr("bwdl", *end)));
  }
  struct { const char *pre; int max; } banks[] = {{"xmm", 31}, {"ymm", 31}, {"zmm", 31}, {"mm", 7}, {"k", 7}, {"st(", 7}};
  for (size_t i = 0; i < sizeof banks / sizeof *banks; i++) {
    size_t pl = strlen(banks[i].pre);
    if (strncmp(r, banks[i].pre, pl) || !isdigit((unsigned char)r[pl])) continue;
    char *end;
    long k = strtol(r + pl, &end, 10);
    return k <= banks[i].max && (banks[i].pre[pl - 1] == '(' ? !strcmp(end, ")") : !*end);
  }
  return false;
}

static void clobber_entries(AsmParse *ap, Buf *all) {
  for (int i = 0; i < ap->nclobs; i++) {
    const char *c = ap->clobs[i];
    const char *r = *c == '%' ? c + 1 : c;
    if (strcmp(r, "memory") && strcmp(r, "cc") && !x86_register(r)) {
      perror_at(ap->p, ap->clob_pos[i], "unknown register name '%s' in asm", c);
      continue;
    }
    Buf e = {0};
    puts_(&e, "~{");
    puts_(&e, r);
    puts_(&e, "}");
    add_entry(all, str_of(&e));
  }
  add_entry(all, "~{dirflag},~{fpsr},~{flags}"); /* as clang: the x86 flags are always clobbered */
}

/* ---- the template ------------------------------------------------------------------------ */

/* %N, %[name], %cN, %l[label]... after '%' at s into LLVM's ${N:c}; returns past it or NULL */
static const char *operand_ref(AsmParse *ap, const char *s, Buf *b, int nops) {
  Parser *p = ap->p;
  char mod = 0;
  if (isalpha((unsigned char)*s) && (isdigit((unsigned char)s[1]) || s[1] == '[')) mod = *s++;
  int n = -1;
  if (isdigit((unsigned char)*s)) {
    n = (int)strtol(s, (char **)&s, 10);
    if (n >= nops + ap->a->nlabels) {
      perror_at(p, ap->pos, "invalid 'asm': operand number out of range");
      return NULL;
    }
  } else if (*s == '[') {
    const char *e = strchr(s, ']');
    if (!e) {
      perror_at(p, ap->pos, "invalid 'asm': missing ']' after a named operand");
      return NULL;
    }
    n = named_operand(ap, s + 1, (size_t)(e - s - 1));
    for (int j = 0; n < 0 && j < ap->a->nlabels; j++)
      if (strlen(ap->a->labels[j]) == (size_t)(e - s - 1) && !strncmp(ap->a->labels[j], s + 1, (size_t)(e - s - 1)))
        n = nops + j;
    if (n < 0) {
      perror_at(p, ap->pos, "undefined named operand '%.*s'", (int)(e - s - 1), s + 1);
      return NULL;
    }
    s = e + 1;
  } else {
    perror_at(p, ap->pos, "invalid 'asm': operand number missing after %%-letter");
    return NULL;
  }
  if (mod == 'l' && n < nops) {
    perror_at(p, ap->pos, "invalid 'asm': '%%l' operand isn't a label");
    return NULL;
  }
  char buf[32];
  if (mod) snprintf(buf, sizeof buf, "${%d:%c}", n, mod);
  else snprintf(buf, sizeof buf, "$%d", n);
  puts_(b, buf);
  return s;
}

/* gcc's template into LLVM's: $ doubled, gcc's dialect braces as $( $| $) */
static const char *translate(AsmParse *ap, const char *t, int nops) {
  Buf b = {0};
  for (const char *s = t; *s;) {
    char c = *s++;
    if (c == '$') puts_(&b, "$$");
    else if (c == '{') puts_(&b, "$(");
    else if (c == '|') puts_(&b, "$|");
    else if (c == '}') puts_(&b, "$)");
    else if (c != '%') put(&b, &c, 1);
    else if (*s == '%' || *s == '{' || *s == '|' || *s == '}') put(&b, s++, 1);
    else if (*s == '=') {
      puts_(&b, "${:uid}");
      s++;
    } else if (!(s = operand_ref(ap, s, &b, nops))) {
      return "";
    }
  }
  return str_of(&b);
}

static const char *basic_template(const char *t) {
  Buf b = {0};
  for (const char *s = t; *s; s++) put(&b, *s == '$' ? "$$" : s, *s == '$' ? 2 : 1);
  return str_of(&b);
}

/* ---- statements ------------------------------------------------------------------------- */

static void build(AsmParse *ap, const char *tmpl, bool basic) {
  CAsm *a = ap->a;
  a->nout = ap->nops[0];
  a->outs = c_alloc((size_t)(a->nout + 1) * sizeof *a->outs);
  a->ins = c_alloc((size_t)(ap->nops[1] + a->nout + 1) * sizeof *a->ins);
  ap->plus = c_alloc((size_t)(a->nout + 1) * sizeof *ap->plus);
  Buf all = {0};
  for (int i = 0; i < a->nout; i++) output_entry(ap, i, &all);
  for (int i = 0; i < ap->nops[1]; i++) input_entry(ap, i, &all);
  a->nin = ap->nops[1];
  for (int i = 0; i < ap->nplus; i++) a->ins[a->nin++] = ap->plus[i];
  if (ap->plus_cons.n) add_entry(&all, str_of(&ap->plus_cons));
  for (int j = 0; j < a->nlabels; j++) add_entry(&all, "!i");
  clobber_entries(ap, &all);
  a->constraints = str_of(&all);
  a->side_effects = a->side_effects || !a->nout || a->nlabels;
  a->tmpl = basic ? basic_template(tmpl) : translate(ap, tmpl, a->nout + a->nin);
}

/* at ':' or '::': the sections up to ')' */
static void parse_sections(AsmParse *ap) {
  Parser *p = ap->p;
  int sec = -1;
  for (;;) {
    if (accept(p, ":")) sec += 1;
    else if (accept(p, "::")) sec += 2;
    else break;
    parse_section(ap, sec);
  }
}

CStmt *parse_asm_stmt(Parser *p, CPos pos) {
  next(p);
  CAsm *a = c_alloc(sizeof *a);
  bool go = false;
  for (;; next(p)) {
    if (is_kw(tok(p), KW_VOLATILE)) a->side_effects = true;
    else if (is_kw(tok(p), KW_GOTO)) go = true;
    else if (!is_kw(tok(p), KW_INLINE)) break;
  }
  CStmt *s = new_stmt(ST_ASM, pos);
  s->asm_ = a;
  expect(p, "(");
  const char *tmpl = asm_string(p, NULL);
  AsmParse ap = {.p = p, .pos = pos, .a = a, .go = go};
  if (go) a->side_effects = true;
  bool basic = !is_punct(tok(p), ":") && !is_punct(tok(p), "::");
  if (!basic) parse_sections(&ap);
  expect(p, ")");
  expect(p, ";");
  if (!tmpl) return new_stmt(ST_NULL, pos);
  build(&ap, tmpl, basic);
  return s;
}

void parse_file_asm(Parser *p) {
  CPos pos = tok(p)->pos;
  next(p);
  expect(p, "(");
  const char *text = asm_string(p, NULL);
  expect(p, ")");
  expect(p, ";");
  if (!text) return;
  CStmt *s = new_stmt(ST_ASM, pos);
  s->asm_ = c_alloc(sizeof *s->asm_);
  s->asm_->tmpl = text;
  CStmtList *l = c_alloc(sizeof *l);
  l->stmt = s;
  if (!p->unit->file_asms_tail) p->unit->file_asms_tail = &p->unit->file_asms;
  *p->unit->file_asms_tail = l;
  p->unit->file_asms_tail = &l->next;
}
