/* frontends/c/lint_format.c — -Wformat: the conversions of a literal
 * printf/scanf-family format against the arguments of the call (count and
 * type class, as gcc's -Wformat=1), -Wformat-extra-args, -Wformat-security. */
#include <string.h>

#include "parse.h"

typedef enum ArgClass { AC_NONE, AC_INT, AC_LONG, AC_LLONG, AC_DOUBLE, AC_LDOUBLE, AC_STR, AC_PTR,
                        AC_INTPTR, AC_WSTR } ArgClass;

static const struct {
  const char *name;
  int fmt, first; /* 1-based: the format and the first checked argument */
  bool scan;
} formatted[] = {
  {"printf", 1, 2, false}, {"fprintf", 2, 3, false}, {"dprintf", 2, 3, false}, {"sprintf", 2, 3, false},
  {"snprintf", 3, 4, false}, {"asprintf", 2, 3, false}, {"scanf", 1, 2, true}, {"fscanf", 2, 3, true},
  {"sscanf", 2, 3, true}, {"syslog", 2, 3, false}, {"err", 2, 3, false}, {"warn", 1, 2, false},
  {"errx", 2, 3, false}, {"warnx", 1, 2, false},
};

static CExpr *strip(CExpr *e) {
  while (e && ((e->kind == EX_CAST && e->implicit) || e->kind == EX_DECAY || e->kind == EX_ADDR) && e->lhs) e = e->lhs;
  return e;
}

/* the class an argument's type falls in, after the default promotions */
static ArgClass class_of(CType *t, bool scan, CType **pointee) {
  CType *u = type_unqual(t);
  if (u->kind == TY_ARRAY) u = type_unqual(type_ptr(u->base));
  if (u->kind == TY_PTR) {
    CType *b = type_unqual(u->base);
    if (pointee) *pointee = b;
    if (scan) return AC_PTR;
    return (b->kind == TY_CHAR || b->kind == TY_SCHAR || b->kind == TY_UCHAR || b->kind == TY_VOID) ? AC_STR : AC_PTR;
  }
  if (u->kind == TY_ENUM) u = type_unqual(u->base);
  switch (u->kind) {
  case TY_LONG: case TY_ULONG: return AC_LONG;
  case TY_LLONG: case TY_ULLONG: return AC_LLONG;
  case TY_FLOAT: case TY_DOUBLE: return AC_DOUBLE;
  case TY_LDOUBLE: return AC_LDOUBLE;
  default: return type_is_integer(u) ? AC_INT : AC_NONE;
  }
}

/* what a conversion takes: length modifier + conversion character */
static ArgClass expected(const char *len, char conv) {
  bool l = !strcmp(len, "l"), ll = !strcmp(len, "ll") || !strcmp(len, "q"), L = !strcmp(len, "L");
  bool wide = strchr("jzt", len[0]) && len[0];
  switch (conv) {
  case 'd': case 'i': case 'o': case 'u': case 'x': case 'X':
    return ll || L ? AC_LLONG : (l || wide) ? AC_LONG : AC_INT; /* glibc takes %Lu as %llu */
  case 'c': return AC_INT;
  case 's': return l ? AC_WSTR : AC_STR;
  case 'p': return AC_PTR;
  case 'n': return AC_INTPTR;
  case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
    return L ? AC_LDOUBLE : AC_DOUBLE;
  default: return AC_NONE;
  }
}

static bool printf_matches(ArgClass want, ArgClass got) {
  if (want == got) return true;
  if (want == AC_PTR) return got == AC_STR;             /* %p takes any pointer */
  if (want == AC_INTPTR || want == AC_WSTR) return got == AC_PTR;
  return false;
}

/* scanf: a pointer to what the conversion stores */
static bool scanf_matches(const char *len, char conv, CType *t) {
  CType *pointee = NULL;
  if (class_of(t, true, &pointee) != AC_PTR || !pointee) return false;
  if (conv == 's' || conv == 'c' || conv == '[')
    return pointee->kind == TY_CHAR || pointee->kind == TY_SCHAR || pointee->kind == TY_UCHAR || !strcmp(len, "l");
  if (conv == 'p') return pointee->kind == TY_PTR;
  bool fl = strchr("fFeEgGaA", conv) != NULL;
  ArgClass got = class_of(pointee, false, NULL);
  if (fl) {
    CType *b = pointee->kind == TY_ENUM ? type_unqual(pointee->base) : pointee;
    return !strcmp(len, "l") ? b->kind == TY_DOUBLE : !strcmp(len, "L") ? b->kind == TY_LDOUBLE : b->kind == TY_FLOAT;
  }
  if (!strcmp(len, "hh")) return pointee->size == 1 && got == AC_INT;
  if (!strcmp(len, "h")) return pointee->size == 2 && got == AC_INT;
  if (!len[0] || conv == 'n') return got == AC_INT && pointee->size == 4;
  return got == expected(len, 'd');
}

static const char *skip_flags_width(const char *s, bool scan, CExprList **arg, int *argno) {
  while (*s && strchr(scan ? "*'" : "-+ #0'I", *s)) {
    if (*s == '*' && scan) return s; /* the caller sees the suppression */
    s++;
  }
  for (int part = 0; part < 2; part++) {
    if (*s == '*' && !scan) {
      if (*arg) *arg = (*arg)->next;
      ++*argno;
      s++;
    }
    while (*s >= '0' && *s <= '9') s++;
    if (part == 0 && *s == '.') s++;
    else break;
  }
  return s;
}

static void check_format(Parser *p, const char *f, CExprList *arg, int argno, bool scan, CPos pos) {
  for (const char *s = f; *s; s++) {
    if (*s != '%') continue;
    s++;
    if (*s == '%') continue;
    bool suppressed = scan && *s == '*';
    if (suppressed) s++;
    s = skip_flags_width(s, scan, &arg, &argno);
    char len[3] = {0};
    size_t n = 0;
    while (*s && strchr("hlLqjzt", *s) && n < 2) len[n++] = *s++;
    char conv = *s;
    if (!conv) return;
    if (conv == '[') {
      const char *e = s + 1 + (s[1] == ']' ? 1 : 0);
      e = strchr(e + (e[0] == '^'), ']');
      if (!e) return;
      s = e;
    }
    if (conv == 'm' || suppressed) continue;
    if (!scan && expected(len, conv) == AC_NONE) continue;
    if (!arg) {
      c_warn(p->diag, W_FORMAT, pos, "format '%%%s%c' expects a matching argument", len, conv);
      return;
    }
    bool ok = scan ? scanf_matches(len, conv, arg->expr->type)
                   : printf_matches(expected(len, conv), class_of(arg->expr->type, false, NULL));
    if (!ok) {
      char tn[96];
      type_spell(arg->expr->type, tn, sizeof tn);
      c_warn(p->diag, W_FORMAT, pos, "format '%%%s%c' does not take argument %d of type '%s'", len, conv, argno, tn);
    }
    arg = arg->next;
    argno++;
  }
  if (arg) c_warn(p->diag, W_FORMAT_EXTRA_ARGS, pos, "too many arguments for format");
}

/* gettext and friends return a translation of their format_arg argument,
 * which gcc checks in its place (`printf(_("%d\n"), n)` with NLS on) */
static const struct {
  const char *name;
  int arg;
} format_args[] = {{"gettext", 1}, {"dgettext", 2}, {"dcgettext", 2}, {"ngettext", 1},
                   {"dngettext", 2}, {"dcngettext", 2}, {"libintl_gettext", 1}, {"libintl_dgettext", 2}};

/* a call of one of them: the argument it translates, else NULL */
static CExpr *translated(CExpr *f) {
  CExpr *fn = f && f->kind == EX_CALL ? strip(f->lhs) : NULL;
  if (!fn || fn->kind != EX_VAR || !fn->obj->is_function) return NULL;
  for (size_t i = 0; i < sizeof format_args / sizeof *format_args; i++) {
    if (strcmp(fn->obj->name, format_args[i].name)) continue;
    CExprList *a = f->args;
    for (int k = 1; a && k < format_args[i].arg; k++) a = a->next;
    return a ? a->expr : NULL;
  }
  return NULL;
}

/* the string a format argument is: a literal, the literal a gettext call
 * translates, or (as gcc and clang see it) a const char array initialized
 * by a literal */
static CExpr *format_literal(CExpr *f) {
  CExpr *msgid = translated(f);
  if (msgid) return format_literal(strip(msgid));
  if (!f || f->kind != EX_VAR || f->obj->is_function) return f;
  CType *t = f->obj->type;
  CInit *init = f->obj->init;
  if (t->kind != TY_ARRAY || !(t->base->quals & Q_CONST) || !init || init->nitems != 1) return f;
  CExpr *e = init->items[0].expr;
  return init->items[0].offset == 0 && e && e->kind == EX_STRING ? e : f;
}

void lint_format(Parser *p, CExpr *fn, CExprList *args) {
  if (!fn || fn->kind != EX_VAR || !fn->obj->is_function || !c_warn_on(p->diag, W_FORMAT)) return;
  for (size_t i = 0; i < sizeof formatted / sizeof *formatted; i++) {
    if (strcmp(fn->obj->name, formatted[i].name)) continue;
    CExprList *a = args;
    for (int k = 1; a && k < formatted[i].fmt; k++) a = a->next;
    if (!a) return;
    CExpr *f = format_literal(strip(a->expr));
    if (!f || f->kind != EX_STRING || type_unqual(type_unqual(f->type)->base)->size != 1) {
      if (!a->next && !formatted[i].scan)
        c_warn(p->diag, W_FORMAT_SECURITY, a->expr->pos, "format not a string literal and no format arguments");
      return;
    }
    /* through an array, warnings point at the array's use, not its initializer */
    CPos at = f == strip(a->expr) ? f->pos : a->expr->pos;
    check_format(p, f->str, a->next, formatted[i].first, formatted[i].scan, at);
    return;
  }
}
