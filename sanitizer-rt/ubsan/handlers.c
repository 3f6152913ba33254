/* sanitizer-rt/ubsan/handlers.c — the entry points passes/ubsan.c calls:
 * __kit_ubsan_<check>(data, a, b), and __kit_ubsan_<check>_abort for checks
 * that do not recover. Each writes clang-16's message for the check, in its
 * words, with values printed as clang prints them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ubsan_rt.h"

/* a value of the record's type: signed or unsigned by its C type */
static void fmt_int(char *buf, size_t n, uint32_t tinfo, uint64_t v) {
  unsigned bits = kit_ubsan_bits(tinfo);
  if (kit_ubsan_signed(tinfo)) {
    int64_t s = (int64_t)v;
    if (bits > 0 && bits < 64) s = (int64_t)(v << (64 - bits)) >> (64 - bits);
    snprintf(buf, n, "%" PRId64, s);
  } else {
    if (bits > 0 && bits < 64) v &= ((uint64_t)1 << bits) - 1;
    snprintf(buf, n, "%" PRIu64, v);
  }
}

/* a C type as clang quotes it: 'int', or 'int64_t' (aka 'long') from the
 * descriptor "int64_t' (aka 'long" */
static const char *quoted(const char *name) {
  static __thread char buf[300];
  if (!name) name = "<unknown>";
  snprintf(buf, sizeof buf, "'%s'%s", name, strstr(name, "' (aka '") ? ")" : "");
  return buf;
}

static double as_double(uint64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

#define HANDLER(name)                                                        \
  static void name##_impl(KitUbsanData *d, uint64_t a, uint64_t b, bool fatal); \
  void __kit_ubsan_##name(KitUbsanData *d, uint64_t a, uint64_t b);          \
  void __kit_ubsan_##name(KitUbsanData *d, uint64_t a, uint64_t b) { name##_impl(d, a, b, false); } \
  void __kit_ubsan_##name##_abort(KitUbsanData *d, uint64_t a, uint64_t b);  \
  void __kit_ubsan_##name##_abort(KitUbsanData *d, uint64_t a, uint64_t b) { name##_impl(d, a, b, true); } \
  static void name##_impl(KitUbsanData *d, uint64_t a, uint64_t b, bool fatal)

/* start the report of CHECK, or leave the handler when it is suppressed or
 * already reported at this location (a fatal check still ends the process) */
#define BEGIN_OR_RETURN(check)          \
  do {                                  \
    if (!kit_ubsan_begin(d, check)) {   \
      if (fatal) kit_ubsan_end(d, true); \
      return;                           \
    }                                   \
  } while (0)

/* extra: '+', '-', '*', or 'n' for negation (0 - b); the type says signed or unsigned */
HANDLER(overflow) {
  bool sgn = kit_ubsan_signed(d->tinfo);
  BEGIN_OR_RETURN(sgn ? "signed-integer-overflow" : "unsigned-integer-overflow");
  char x[32], y[32];
  fmt_int(x, sizeof x, d->tinfo, a);
  fmt_int(y, sizeof y, d->tinfo, b);
  if (d->extra == 'n' && sgn)
    kit_ubsan_error(d, "negation of %s cannot be represented in type %s; cast to an unsigned type to negate this "
                       "value to itself", y, quoted(d->type));
  else if (d->extra == 'n')
    kit_ubsan_error(d, "negation of %s cannot be represented in type %s", y, quoted(d->type));
  else
    kit_ubsan_error(d, "%s integer overflow: %s %c %s cannot be represented in type %s", sgn ? "signed" : "unsigned", x,
                    (char)d->extra, y, quoted(d->type));
  kit_ubsan_end(d, fatal);
}

/* a = base, b = exponent (both in the base's type); extra = 1 for a left shift */
HANDLER(shift) {
  unsigned bits = kit_ubsan_bits(d->tinfo);
  bool exp_bad = (bits < 64 ? (b & (((uint64_t)1 << bits) - 1)) : b) >= bits;
  BEGIN_OR_RETURN(exp_bad ? "shift-exponent" : "shift-base");
  char x[32], y[32];
  fmt_int(x, sizeof x, d->tinfo, a);
  fmt_int(y, sizeof y, d->tinfo, b);
  if (exp_bad && y[0] == '-')
    kit_ubsan_error(d, "shift exponent %s is negative", y);
  else if (exp_bad)
    kit_ubsan_error(d, "shift exponent %s is too large for %u-bit type %s", y, bits, quoted(d->type));
  else if (x[0] == '-')
    kit_ubsan_error(d, "left shift of negative value %s", x);
  else
    kit_ubsan_error(d, "left shift of %s by %s places cannot be represented in type %s", x, y, quoted(d->type));
  kit_ubsan_end(d, fatal);
}

/* a / b or a % b */
HANDLER(divrem) {
  unsigned bits = kit_ubsan_bits(d->tinfo);
  bool zero = (bits < 64 ? (b & (((uint64_t)1 << bits) - 1)) : b) == 0;
  BEGIN_OR_RETURN(zero ? "integer-divide-by-zero" : "signed-integer-overflow");
  char x[32];
  fmt_int(x, sizeof x, d->tinfo, a);
  if (zero)
    kit_ubsan_error(d, "division by zero");
  else
    kit_ubsan_error(d, "division of %s by -1 cannot be represented in type %s", x, quoted(d->type));
  kit_ubsan_end(d, fatal);
}

/* a = index; type = the array type */
HANDLER(out_of_bounds) {
  (void)b;
  BEGIN_OR_RETURN("array-bounds");
  kit_ubsan_error(d, "index %" PRId64 " out of bounds for type %s", (int64_t)a, quoted(d->type));
  kit_ubsan_end(d, fatal);
}

/* a = pointer; extra = 0 load, 1 store, 2 member access; extra2 = required alignment;
 * neither null nor misaligned: the object is too small (object-size) */
HANDLER(type_mismatch) {
  (void)b;
  static const char *const kinds[] = {"load of", "store to", "member access within"};
  const char *kind = kinds[d->extra < 3 ? d->extra : 0];
  bool misaligned = d->extra2 > 1 && (a & (d->extra2 - 1));
  BEGIN_OR_RETURN(!a ? "null" : misaligned ? "alignment" : "object-size");
  if (!a) {
    kit_ubsan_error(d, "%s null pointer of type %s", kind, quoted(d->type));
  } else if (!misaligned) {
    kit_ubsan_error(d, "%s address 0x%012" PRIx64 " with insufficient space for an object of type %s", kind, a,
                    quoted(d->type));
    kit_ubsan_memory_note((uintptr_t)a);
  } else {
    kit_ubsan_error(d, "%s misaligned address 0x%012" PRIx64 " for type %s, which requires %u byte alignment", kind,
                    a, quoted(d->type), d->extra2);
    kit_ubsan_memory_note((uintptr_t)a);
  }
  kit_ubsan_end(d, fatal);
}

/* a = the loaded value of a _Bool */
HANDLER(load_invalid_value) {
  (void)b;
  BEGIN_OR_RETURN("bool");
  kit_ubsan_error(d, "load of value %" PRIu64 ", which is not a valid value for type %s", a, quoted(d->type));
  kit_ubsan_end(d, fatal);
}

/* __builtin_unreachable reached: never returns */
HANDLER(unreachable) {
  (void)a;
  (void)b;
  (void)fatal;
  if (kit_ubsan_begin(d, "unreachable")) kit_ubsan_error(d, "execution reached an unreachable program point");
  kit_ubsan_end(d, true);
}

/* a = the value as the bits of a double; type = the integer type */
HANDLER(float_cast_overflow) {
  (void)b;
  BEGIN_OR_RETURN("float-cast-overflow");
  kit_ubsan_error(d, "%Lg is outside the range of representable values of type %s", (long double)as_double(a),
                  quoted(d->type));
  kit_ubsan_end(d, fatal);
}

/* extra = 1 clz, 0 ctz */
HANDLER(invalid_builtin) {
  (void)a;
  (void)b;
  BEGIN_OR_RETURN("builtin");
  kit_ubsan_error(d, "passing zero to %s(), which is not a valid argument", d->extra ? "clz" : "ctz");
  kit_ubsan_end(d, fatal);
}

/* a = dividend, b = divisor (bits of doubles) */
HANDLER(float_divide_by_zero) {
  (void)a;
  (void)b;
  BEGIN_OR_RETURN("float-divide-by-zero");
  kit_ubsan_error(d, "division by zero");
  kit_ubsan_end(d, fatal);
}

/* a = base address, b = the result of the arithmetic */
HANDLER(pointer_overflow) {
  BEGIN_OR_RETURN("pointer-overflow");
  if (!a && !b)
    kit_ubsan_error(d, "applying zero offset to null pointer");
  else if (!a)
    kit_ubsan_error(d, "applying non-zero offset %" PRIu64 " to null pointer", b);
  else if (!b)
    kit_ubsan_error(d, "applying non-zero offset to non-null pointer 0x%012" PRIx64 " produced null pointer", a);
  else if (((int64_t)a >= 0) == ((int64_t)b >= 0) && a > b)
    kit_ubsan_error(d, "addition of unsigned offset to 0x%012" PRIx64 " overflowed to 0x%012" PRIx64, a, b);
  else if (((int64_t)a >= 0) == ((int64_t)b >= 0))
    kit_ubsan_error(d, "subtraction of unsigned offset from 0x%012" PRIx64 " overflowed to 0x%012" PRIx64, a, b);
  else
    kit_ubsan_error(d, "pointer index expression with base 0x%012" PRIx64 " overflowed to 0x%012" PRIx64, a, b);
  kit_ubsan_end(d, fatal);
}

/* a = the bound, in the type of the record */
HANDLER(vla_bound_not_positive) {
  (void)b;
  BEGIN_OR_RETURN("vla-bound");
  char x[32];
  fmt_int(x, sizeof x, d->tinfo, a);
  kit_ubsan_error(d, "variable length array bound evaluates to non-positive value %s", x);
  kit_ubsan_end(d, fatal);
}

/* extra = the argument number; type = where the attribute is written */
HANDLER(nonnull_arg) {
  (void)a;
  (void)b;
  BEGIN_OR_RETURN("nonnull-attribute");
  kit_ubsan_error(d, "null pointer passed as argument %u, which is declared to never be null", d->extra);
  kit_ubsan_printf("%s: note: nonnull attribute specified here\n", d->type);
  kit_ubsan_end(d, fatal);
}

/* type = where the attribute is written */
HANDLER(nonnull_return) {
  (void)a;
  (void)b;
  BEGIN_OR_RETURN("returns-nonnull-attribute");
  kit_ubsan_error(d, "null pointer returned from function declared to never return null");
  kit_ubsan_printf("%s: note: returns_nonnull attribute specified here\n", d->type);
  kit_ubsan_end(d, fatal);
}

/* a = the source value (type), b = the converted one (type2); extra: 0
 * unsigned truncation, 1 signed truncation, 2 sign change */
HANDLER(implicit_conversion) {
  static const char *const checks[] = {"implicit-unsigned-integer-truncation", "implicit-signed-integer-truncation",
                                       "implicit-integer-sign-change"};
  BEGIN_OR_RETURN(checks[d->extra < 3 ? d->extra : 2]);
  char x[32], y[32], from[300];
  fmt_int(x, sizeof x, d->tinfo, a);
  fmt_int(y, sizeof y, d->t2info, b);
  snprintf(from, sizeof from, "%s", quoted(d->type));
  kit_ubsan_error(d, "implicit conversion from type %s of value %s (%u-bit, %ssigned) to type %s changed the value to %s "
                     "(%u-bit, %ssigned)", from, x, kit_ubsan_bits(d->tinfo), kit_ubsan_signed(d->tinfo) ? "" : "un",
                  quoted(d->type2), y, kit_ubsan_bits(d->t2info), kit_ubsan_signed(d->t2info) ? "" : "un");
  kit_ubsan_end(d, fatal);
}
