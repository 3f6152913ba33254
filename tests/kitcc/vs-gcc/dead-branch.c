/* a constant condition skips its dead code even at -O0, as gcc and clang do:
 * what the dead code calls need not exist (gcc's medce-1, and the
 * `if (ARCH_X86) init_x86 ();` idiom of configure-time constants) */
#include <stdio.h>

void missing_function(void); /* defined nowhere */

static int reached;

static void entered(int x) {
  switch (x) {
  case 0:
    if (0) {
      missing_function();
    case 1:
      reached = 1;
    }
  }
}

int main(void) {
  if (sizeof(long) == 3) missing_function();
  if (0 && (missing_function(), 1)) puts("never");
  if (1) puts("then"); else missing_function();
  while (0) missing_function();
  for (; 0;) missing_function();
  entered(1);
  printf("reached through the case label: %d\n", reached);
  return 0;
}
