/* __builtin_constant_p where a constant is required is folded then (0 for a
 * value the optimiser might still find constant: gcc's pr19449), and left
 * to the optimiser elsewhere */
#include <stdio.h>

static int y;
static int z = __builtin_choose_expr(!__builtin_constant_p(y), 3, 4);

static int pick(int x) {
  return __builtin_choose_expr(!__builtin_constant_p(x), 3, y++);
}

struct bits { unsigned f : __builtin_constant_p(y) + 3; };

int main(void) {
  struct bits b = {15};
  printf("z=%d pick=%d y=%d width=%u\n", z, pick(4), y, b.f);
  printf("literal=%d string=%d\n", __builtin_constant_p(42), __builtin_constant_p("s"));
  return 0;
}
