// #if arithmetic in intmax_t/uintmax_t, short-circuit, defined, __has_*
#if -1 > 0u
unsigned_compare_ok
#endif
#if (-1 < 0) && (0xffffffffffffffff == -1) && (18446744073709551615u == -1)
wrap_ok
#endif
#if 0 && (1 / 0)
bad
#elif 1 || (1 % 0)
short_circuit_ok
#endif
#if (2 ? 3 : 1/0) == 3 && (0 ? 1/0 : 4) == 4
cond_ok
#endif
#if defined(FOO) || defined BAR || !defined __STDC__
bad
#else
defined_ok
#endif
#define ONE 1
#define D defined(ONE)
#if D && ONE + 1 == 2 && UNDEFINED_THING == 0
macro_defined_ok
#endif
#if 'a' == 97 && '\377' < 0 && L'\377' > 0 && '\x41' == 65 && 'ab' == 24930 && u'x' == 120
char_ok
#endif
#if (1 << 63) < 0 && (-1 >> 1) == -1 && (1u << 63) > 0 && -9223372036854775807 - 1 < 0
shift_ok
#endif
#if 0x10 == 16 && 010 == 8 && 0b101 == 5 && 10UL == 10 && 7LL == 7ll
number_ok
#endif
#ifdef ONE
# if 0
#  error not reached
# elif 0
# else
nested_ok
# endif
#endif
#if __has_include(<stdio.h>) && !__has_include("no_such_header_kit.h") && defined __has_include
has_include_ok
#endif
#if __has_attribute(packed) && __has_attribute(__aligned__) && !__has_attribute(kit_bogus) && __has_builtin(__builtin_expect) && !__has_builtin(__builtin_kit_bogus)
has_ok
#endif
#if (3, 4) == 4
comma_ok
#endif
#if !0 == 1 && ~0 == -1 && -(-3) == 3 && +2 == 2
unary_ok
#endif
#if 18446744073709551615 == -1
big_ok
#endif
