/* __builtin_{add,sub,mul}_overflow_p: constant when its operands are (gnulib's
 * intprops.h puts them in integer constant expressions), computed otherwise;
 * the third operand gives its type, and gcc evaluates it all the same */
#include <limits.h>
#include <stdio.h>

_Static_assert(__builtin_mul_overflow_p(INT_MAX, 2, 0), "INT_MAX * 2 overflows int");
_Static_assert(!__builtin_mul_overflow_p(INT_MAX, 2, 0L), "but not long");
enum { ADD_U = __builtin_add_overflow_p(UINT_MAX, 1u, 0u), SUB_U = __builtin_sub_overflow_p(0u, 1u, (unsigned)0) };
static char sized[__builtin_add_overflow_p(LONG_MAX, 1L, (long)0) ? 3 : 1];

__attribute__((noinline)) static int runtime(long a, long b) {
  int side = 0;
  int r = __builtin_add_overflow_p(a, b, (short)0) * 100 + __builtin_sub_overflow_p(a, b, (unsigned char)0) * 10 +
          __builtin_mul_overflow_p(a, b, (side++, (int)0));
  return r * 10 + side;
}

int main(void) {
  printf("%d %d %zu\n", ADD_U, SUB_U, sizeof sized);
  printf("%d %d %d %d\n", runtime(1, 2), runtime(30000, 30000), runtime(3, 5), runtime(100000, 100000));
  printf("%d %d\n", __builtin_mul_overflow_p(-1L, (unsigned long)ULONG_MAX, 0L),
         __builtin_sub_overflow_p(0ul, 1ul, (long long)0));
  return 0;
}
