// flags: -fno-omit-frame-pointer
/* __builtin_return_address(N) and __builtin_frame_address(N) walk N frames
 * up (kitcc once answered level 0 for every N) */
#include <stdio.h>

static void *seen_ra, *seen_fa;

__attribute__((noinline)) static void *inner(void) {
  seen_fa = __builtin_frame_address(1);
  return __builtin_return_address(1);
}

__attribute__((noinline)) static int outer(void) {
  void *up = inner();
  __asm__ volatile("" ::: "memory"); /* inner's call is not a tail call */
  seen_ra = __builtin_return_address(0);
  return up == seen_ra && seen_fa == __builtin_frame_address(0);
}

int main(void) {
  int same = outer();
  printf("level 1 is the caller's level 0: %s\n", same ? "yes" : "no");
  printf("level 0 differs from level 1: %s\n", __builtin_return_address(0) != seen_ra ? "yes" : "no");
  return 0;
}
