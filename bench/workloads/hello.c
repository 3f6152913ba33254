/* bench/workloads/hello.c — the start-up workload: a static hello world,
 * started many times in a row by bench/run.sh. */
#include <stdio.h>

int main(void) {
  puts("hello, world");
  return 0;
}
