/* frontends/c/pp_predef.c — what kitcc predefines for x86-64 Linux (gcc 12's
 * set minus what kitcc does not implement; see docs/kitcc-preprocessor.md) and
 * the tables behind __has_attribute, __has_builtin and __has_feature. */
#include "pp_internal.h"

#include <stdlib.h>

/* Taken from `gcc -dM -E -x c /dev/null` on this machine, without decimal
 * float, _FloatN, __int128, __float80/128, __sync and address-space macros. */
static const char *const target_macros[] = {
  "_LP64 1",
  "__ATOMIC_ACQUIRE 2",
  "__ATOMIC_ACQ_REL 4",
  "__ATOMIC_CONSUME 1",
  "__ATOMIC_RELAXED 0",
  "__ATOMIC_RELEASE 3",
  "__ATOMIC_SEQ_CST 5",
  "__BIGGEST_ALIGNMENT__ 16",
  "__BYTE_ORDER__ __ORDER_LITTLE_ENDIAN__",
  "__CHAR16_TYPE__ short unsigned int",
  "__CHAR32_TYPE__ unsigned int",
  "__CHAR_BIT__ 8",
  "__DBL_DECIMAL_DIG__ 17",
  "__DBL_DENORM_MIN__ ((double)4.94065645841246544176568792868221372e-324L)",
  "__DBL_DIG__ 15",
  "__DBL_EPSILON__ ((double)2.22044604925031308084726333618164062e-16L)",
  "__DBL_HAS_DENORM__ 1",
  "__DBL_HAS_INFINITY__ 1",
  "__DBL_HAS_QUIET_NAN__ 1",
  "__DBL_IS_IEC_60559__ 2",
  "__DBL_MANT_DIG__ 53",
  "__DBL_MAX_10_EXP__ 308",
  "__DBL_MAX_EXP__ 1024",
  "__DBL_MAX__ ((double)1.79769313486231570814527423731704357e+308L)",
  "__DBL_MIN_10_EXP__ (-307)",
  "__DBL_MIN_EXP__ (-1021)",
  "__DBL_MIN__ ((double)2.22507385850720138309023271733240406e-308L)",
  "__DBL_NORM_MAX__ ((double)1.79769313486231570814527423731704357e+308L)",
  "__ELF__ 1",
  "__FLOAT_WORD_ORDER__ __ORDER_LITTLE_ENDIAN__",
  "__FLT_DECIMAL_DIG__ 9",
  "__FLT_DENORM_MIN__ 1.40129846432481707092372958328991613e-45F",
  "__FLT_DIG__ 6",
  "__FLT_EPSILON__ 1.19209289550781250000000000000000000e-7F",
  "__FLT_EVAL_METHOD_TS_18661_3__ 0",
  "__FLT_EVAL_METHOD__ 0",
  "__FLT_HAS_DENORM__ 1",
  "__FLT_HAS_INFINITY__ 1",
  "__FLT_HAS_QUIET_NAN__ 1",
  "__FLT_IS_IEC_60559__ 2",
  "__FLT_MANT_DIG__ 24",
  "__FLT_MAX_10_EXP__ 38",
  "__FLT_MAX_EXP__ 128",
  "__FLT_MAX__ 3.40282346638528859811704183484516925e+38F",
  "__FLT_MIN_10_EXP__ (-37)",
  "__FLT_MIN_EXP__ (-125)",
  "__FLT_MIN__ 1.17549435082228750796873653722224568e-38F",
  "__FLT_NORM_MAX__ 3.40282346638528859811704183484516925e+38F",
  "__FLT_RADIX__ 2",
  "__FXSR__ 1",
  "__GCC_ATOMIC_BOOL_LOCK_FREE 2",
  "__GCC_ATOMIC_CHAR16_T_LOCK_FREE 2",
  "__GCC_ATOMIC_CHAR32_T_LOCK_FREE 2",
  "__GCC_ATOMIC_CHAR_LOCK_FREE 2",
  "__GCC_ATOMIC_INT_LOCK_FREE 2",
  "__GCC_ATOMIC_LLONG_LOCK_FREE 2",
  "__GCC_ATOMIC_LONG_LOCK_FREE 2",
  "__GCC_ATOMIC_POINTER_LOCK_FREE 2",
  "__GCC_ATOMIC_SHORT_LOCK_FREE 2",
  "__GCC_ATOMIC_TEST_AND_SET_TRUEVAL 1",
  "__GCC_ATOMIC_WCHAR_T_LOCK_FREE 2",
  "__GCC_CONSTRUCTIVE_SIZE 64",
  "__GCC_IEC_559 2",
  "__GCC_IEC_559_COMPLEX 2",
  "__INT16_C(c) c",
  "__INT16_MAX__ 0x7fff",
  "__INT16_TYPE__ short int",
  "__INT32_C(c) c",
  "__INT32_MAX__ 0x7fffffff",
  "__INT32_TYPE__ int",
  "__INT64_C(c) c ## L",
  "__INT64_MAX__ 0x7fffffffffffffffL",
  "__INT64_TYPE__ long int",
  "__INT8_C(c) c",
  "__INT8_MAX__ 0x7f",
  "__INT8_TYPE__ signed char",
  "__INTMAX_C(c) c ## L",
  "__INTMAX_MAX__ 0x7fffffffffffffffL",
  "__INTMAX_TYPE__ long int",
  "__INTMAX_WIDTH__ 64",
  "__INTPTR_MAX__ 0x7fffffffffffffffL",
  "__INTPTR_TYPE__ long int",
  "__INTPTR_WIDTH__ 64",
  "__INT_FAST16_MAX__ 0x7fffffffffffffffL",
  "__INT_FAST16_TYPE__ long int",
  "__INT_FAST16_WIDTH__ 64",
  "__INT_FAST32_MAX__ 0x7fffffffffffffffL",
  "__INT_FAST32_TYPE__ long int",
  "__INT_FAST32_WIDTH__ 64",
  "__INT_FAST64_MAX__ 0x7fffffffffffffffL",
  "__INT_FAST64_TYPE__ long int",
  "__INT_FAST64_WIDTH__ 64",
  "__INT_FAST8_MAX__ 0x7f",
  "__INT_FAST8_TYPE__ signed char",
  "__INT_FAST8_WIDTH__ 8",
  "__INT_LEAST16_MAX__ 0x7fff",
  "__INT_LEAST16_TYPE__ short int",
  "__INT_LEAST16_WIDTH__ 16",
  "__INT_LEAST32_MAX__ 0x7fffffff",
  "__INT_LEAST32_TYPE__ int",
  "__INT_LEAST32_WIDTH__ 32",
  "__INT_LEAST64_MAX__ 0x7fffffffffffffffL",
  "__INT_LEAST64_TYPE__ long int",
  "__INT_LEAST64_WIDTH__ 64",
  "__INT_LEAST8_MAX__ 0x7f",
  "__INT_LEAST8_TYPE__ signed char",
  "__INT_LEAST8_WIDTH__ 8",
  "__INT_MAX__ 0x7fffffff",
  "__INT_WIDTH__ 32",
  "__LDBL_DECIMAL_DIG__ 21",
  "__LDBL_DENORM_MIN__ 3.64519953188247460252840593361941982e-4951L",
  "__LDBL_DIG__ 18",
  "__LDBL_EPSILON__ 1.08420217248550443400745280086994171e-19L",
  "__LDBL_HAS_DENORM__ 1",
  "__LDBL_HAS_INFINITY__ 1",
  "__LDBL_HAS_QUIET_NAN__ 1",
  "__LDBL_IS_IEC_60559__ 2",
  "__LDBL_MANT_DIG__ 64",
  "__LDBL_MAX_10_EXP__ 4932",
  "__LDBL_MAX_EXP__ 16384",
  "__LDBL_MAX__ 1.18973149535723176502126385303097021e+4932L",
  "__LDBL_MIN_10_EXP__ (-4931)",
  "__LDBL_MIN_EXP__ (-16381)",
  "__LDBL_MIN__ 3.36210314311209350626267781732175260e-4932L",
  "__LDBL_NORM_MAX__ 1.18973149535723176502126385303097021e+4932L",
  "__LONG_LONG_MAX__ 0x7fffffffffffffffLL",
  "__LONG_LONG_WIDTH__ 64",
  "__LONG_MAX__ 0x7fffffffffffffffL",
  "__LONG_WIDTH__ 64",
  "__LP64__ 1",
  "__MMX_WITH_SSE__ 1",
  "__MMX__ 1",
  "__ORDER_BIG_ENDIAN__ 4321",
  "__ORDER_LITTLE_ENDIAN__ 1234",
  "__ORDER_PDP_ENDIAN__ 3412",
  "__PTRDIFF_MAX__ 0x7fffffffffffffffL",
  "__PTRDIFF_TYPE__ long int",
  "__PTRDIFF_WIDTH__ 64",
  "__REGISTER_PREFIX__ ",
  "__SCHAR_MAX__ 0x7f",
  "__SCHAR_WIDTH__ 8",
  "__SHRT_MAX__ 0x7fff",
  "__SHRT_WIDTH__ 16",
  "__SIG_ATOMIC_MAX__ 0x7fffffff",
  "__SIG_ATOMIC_MIN__ (-__SIG_ATOMIC_MAX__ - 1)",
  "__SIG_ATOMIC_TYPE__ int",
  "__SIG_ATOMIC_WIDTH__ 32",
  "__SIZEOF_DOUBLE__ 8",
  "__SIZEOF_FLOAT__ 4",
  "__SIZEOF_INT__ 4",
  "__SIZEOF_LONG_DOUBLE__ 16",
  "__SIZEOF_LONG_LONG__ 8",
  "__SIZEOF_LONG__ 8",
  "__SIZEOF_POINTER__ 8",
  "__SIZEOF_PTRDIFF_T__ 8",
  "__SIZEOF_SHORT__ 2",
  "__SIZEOF_SIZE_T__ 8",
  "__SIZEOF_WCHAR_T__ 4",
  "__SIZEOF_WINT_T__ 4",
  "__SIZE_MAX__ 0xffffffffffffffffUL",
  "__SIZE_TYPE__ long unsigned int",
  "__SIZE_WIDTH__ 64",
  "__SSE2_MATH__ 1",
  "__SSE2__ 1",
  "__SSE_MATH__ 1",
  "__SSE__ 1",
  "__UINT16_C(c) c",
  "__UINT16_MAX__ 0xffff",
  "__UINT16_TYPE__ short unsigned int",
  "__UINT32_C(c) c ## U",
  "__UINT32_MAX__ 0xffffffffU",
  "__UINT32_TYPE__ unsigned int",
  "__UINT64_C(c) c ## UL",
  "__UINT64_MAX__ 0xffffffffffffffffUL",
  "__UINT64_TYPE__ long unsigned int",
  "__UINT8_C(c) c",
  "__UINT8_MAX__ 0xff",
  "__UINT8_TYPE__ unsigned char",
  "__UINTMAX_C(c) c ## UL",
  "__UINTMAX_MAX__ 0xffffffffffffffffUL",
  "__UINTMAX_TYPE__ long unsigned int",
  "__UINTPTR_MAX__ 0xffffffffffffffffUL",
  "__UINTPTR_TYPE__ long unsigned int",
  "__UINT_FAST16_MAX__ 0xffffffffffffffffUL",
  "__UINT_FAST16_TYPE__ long unsigned int",
  "__UINT_FAST32_MAX__ 0xffffffffffffffffUL",
  "__UINT_FAST32_TYPE__ long unsigned int",
  "__UINT_FAST64_MAX__ 0xffffffffffffffffUL",
  "__UINT_FAST64_TYPE__ long unsigned int",
  "__UINT_FAST8_MAX__ 0xff",
  "__UINT_FAST8_TYPE__ unsigned char",
  "__UINT_LEAST16_MAX__ 0xffff",
  "__UINT_LEAST16_TYPE__ short unsigned int",
  "__UINT_LEAST32_MAX__ 0xffffffffU",
  "__UINT_LEAST32_TYPE__ unsigned int",
  "__UINT_LEAST64_MAX__ 0xffffffffffffffffUL",
  "__UINT_LEAST64_TYPE__ long unsigned int",
  "__UINT_LEAST8_MAX__ 0xff",
  "__UINT_LEAST8_TYPE__ unsigned char",
  "__USER_LABEL_PREFIX__ ",
  "__WCHAR_MAX__ 0x7fffffff",
  "__WCHAR_MIN__ (-__WCHAR_MAX__ - 1)",
  "__WCHAR_TYPE__ int",
  "__WCHAR_WIDTH__ 32",
  "__WINT_MAX__ 0xffffffffU",
  "__WINT_MIN__ 0U",
  "__WINT_TYPE__ unsigned int",
  "__WINT_WIDTH__ 32",
  "__amd64 1",
  "__amd64__ 1",
  "__code_model_small__ 1",
  "__gnu_linux__ 1",
  "__k8 1",
  "__k8__ 1",
  "__linux 1",
  "__linux__ 1",
  "__unix 1",
  "__unix__ 1",
  "__x86_64 1",
  "__x86_64__ 1",
  "__STDC__ 1",
  "__STDC_HOSTED__ 1",
  "__STDC_UTF_16__ 1",
  "__STDC_UTF_32__ 1",
  /* GNU C 8.1: the first version CMake's tables take for C17 (and before 9.1,
   * where they expect C2x); glibc's headers then expect the _FloatN keywords,
   * which the parser has (docs/kitcc.md "Identity") */
  "__GNUC__ 8",
  "__GNUC_MINOR__ 1",
  "__GNUC_PATCHLEVEL__ 0",
  "__GNUC_EXECUTION_CHARSET_NAME \"UTF-8\"",
  "__GNUC_WIDE_EXECUTION_CHARSET_NAME \"UTF-32LE\"",
  "__VERSION__ \"8.1.0 (kitcc 0.1)\"",
  "__FINITE_MATH_ONLY__ 0",
  "__kitcc__ 1",
};

void pp_predefine(CPP *pp) {
  pp_define_builtins(pp);
  for (size_t i = 0; i < sizeof target_macros / sizeof *target_macros; i++)
    pp_define_text(pp, target_macros[i]);
  pp_define_text(pp, pp_printf(pp, "__STDC_VERSION__ %ldL", pp->opt.std_version));
  pp_define_text(pp, pp->opt.gnu89_inline ? "__GNUC_GNU_INLINE__ 1" : "__GNUC_STDC_INLINE__ 1");
  if (pp->opt.gnu) {
    pp_define_text(pp, "linux 1");
    pp_define_text(pp, "unix 1");
  } else {
    pp_define_text(pp, "__STRICT_ANSI__ 1");
  }
  /* gcc's predefined GNU assertions for x86-64 Linux (#system(linux) ...) */
  static const char *const asserts[][2] = {{"system", "linux"}, {"system", "unix"},
                                           {"system", "posix"}, {"cpu", "x86_64"},
                                           {"machine", "x86_64"}};
  for (size_t i = 0; i < sizeof asserts / sizeof *asserts; i++) {
    Assertion *a = pp_alloc(pp, sizeof *a);
    *a = (Assertion){asserts[i][0], asserts[i][1], pp->asserts};
    pp->asserts = a;
  }
  if (pp->opt.opt_level > 0) pp_define_text(pp, "__OPTIMIZE__ 1");
  else pp_define_text(pp, "__NO_INLINE__ 1");
  if (pp->opt.pic) {
    /* Debian's gcc builds position-independent executables by default */
    pp_define_text(pp, "__PIC__ 2");
    pp_define_text(pp, "__pic__ 2");
    pp_define_text(pp, "__PIE__ 2");
    pp_define_text(pp, "__pie__ 2");
  }
  if (pp->opt.san_address) pp_define_text(pp, "__SANITIZE_ADDRESS__ 1");
}

static bool in_list(const char *const *list, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i], name)) return true;
  return false;
}

/* "__x__" and "x" name the same attribute; "gnu::x" is x in the gnu namespace. */
static const char *attr_base(const char *name, char *buf, size_t cap) {
  if (!strncmp(name, "gnu::", 5)) name += 5;
  else if (!strncmp(name, "__gnu__::", 9)) name += 9;
  size_t n = strlen(name);
  if (n > 4 && !strncmp(name, "__", 2) && !strcmp(name + n - 2, "__") && n - 4 < cap) {
    memcpy(buf, name + 2, n - 4);
    buf[n - 4] = 0;
    return buf;
  }
  return name;
}

int pp_has_attribute(const char *name, bool c_attr) {
  static const char *const gnu[] = {
    "aligned", "packed", "noreturn", "weak", "alias", "section", "constructor", "destructor",
    "visibility", "always_inline", "noinline", "used", "cleanup", "format", "unused",
    "deprecated", "nonnull", "malloc", "pure", "const", "warn_unused_result",
  };
  char buf[128];
  bool gnu_ns = strstr(name, "::") != NULL;
  if (gnu_ns && strncmp(name, "gnu::", 5) && strncmp(name, "__gnu__::", 9)) return 0;
  const char *b = attr_base(name, buf, sizeof buf);
  if (c_attr) {
    /* what [[...]] parses (decl.c parse_std_attr), with clang-16 -std=c2x's
     * values: the standard's dates, also for the gnu:: forms of the same */
    static const struct {
      const char *std, *gnu;
      int date;
    } dated[] = {{"deprecated", "deprecated", 201904}, {"fallthrough", "fallthrough", 201910},
                 {"maybe_unused", "unused", 202106},   {"nodiscard", "warn_unused_result", 202003},
                 {"noreturn", NULL, 202202},           {"_Noreturn", NULL, 202202}};
    for (size_t i = 0; i < sizeof dated / sizeof *dated; i++)
      if (!strcmp(b, gnu_ns ? (dated[i].gnu ? dated[i].gnu : "") : dated[i].std)) return dated[i].date;
    if (!gnu_ns) return 0;
  }
  return in_list(gnu, sizeof gnu / sizeof *gnu, b) ? 1 : 0;
}

int pp_has_builtin(const char *name) {
  static const char *const b[] = {
    "__builtin_va_start", "__builtin_va_end", "__builtin_va_arg", "__builtin_va_copy",
    "__builtin_va_list", "__builtin_offsetof", "__builtin_expect", "__builtin_constant_p",
    "__builtin_unreachable", "__builtin_trap", "__builtin_bswap16", "__builtin_bswap32",
    "__builtin_bswap64", "__builtin_clz", "__builtin_clzl", "__builtin_clzll", "__builtin_ctz",
    "__builtin_ctzl", "__builtin_ctzll", "__builtin_popcount", "__builtin_popcountl",
    "__builtin_popcountll", "__builtin_mul_overflow", "__builtin_add_overflow",
    "__builtin_sub_overflow", "__builtin_add_overflow_p", "__builtin_sub_overflow_p",
    "__builtin_mul_overflow_p", "__builtin_memcpy", "__builtin_memmove", "__builtin_memset",
    "__builtin_memcmp", "__builtin_huge_val", "__builtin_huge_valf", "__builtin_huge_vall",
    "__builtin_inf", "__builtin_inff", "__builtin_infl", "__builtin_nan", "__builtin_nanf",
    "__builtin_nanl", "__builtin_types_compatible_p", "__builtin_choose_expr", "__builtin_fpclassify",
    "__builtin_isnormal", "__builtin_isinf_sign", "__builtin_tgmath", "__builtin_LINE", "__builtin_FILE",
    "__builtin_FUNCTION", "__builtin___clear_cache",
    /* builtin_fortify.c */
    "__builtin_object_size", "__builtin_dynamic_object_size", "__builtin_va_arg_pack",
    "__builtin_va_arg_pack_len", "__builtin___memcpy_chk", "__builtin___mempcpy_chk",
    "__builtin___memmove_chk", "__builtin___memset_chk", "__builtin___strcpy_chk",
    "__builtin___stpcpy_chk", "__builtin___strncpy_chk", "__builtin___stpncpy_chk",
    "__builtin___strcat_chk", "__builtin___strncat_chk", "__builtin___sprintf_chk",
    "__builtin___snprintf_chk", "__builtin___vsprintf_chk", "__builtin___vsnprintf_chk",
  };
  return in_list(b, sizeof b / sizeof *b, name) ? 1 : 0;
}

int pp_has_feature(CPP *pp, const char *name) {
  /* clang's spellings; kitcc's sanitizers answer like clang-16 does (thread_sanitizer
   * ... are 0: kitcc has no such -fsanitize=) */
  static const char *const f[] = {"c_alignas", "c_alignof", "c_generic_selections",
                                  "c_static_assert"};
  if (!strcmp(name, "address_sanitizer")) return pp->opt.san_address;
  if (!strcmp(name, "memory_sanitizer")) return pp->opt.san_memory;
  if (!strcmp(name, "undefined_behavior_sanitizer")) return pp->opt.san_undefined;
  if (!strcmp(name, "coverage_sanitizer")) return pp->opt.san_coverage;
  return in_list(f, sizeof f / sizeof *f, name) ? 1 : 0;
}
