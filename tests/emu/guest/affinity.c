/* tests/emu/guest/affinity.c — sched_getaffinity and what glibc builds on it
 * (sysconf(_SC_NPROCESSORS_ONLN), the CPU count xz-utils' tests ask for):
 * the same answers as under qemu-riscv64. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int main(void) {
  cpu_set_t s;
  int r = sched_getaffinity(0, sizeof s, &s);
  printf("sched_getaffinity=%d cpus=%d\n", r, r == 0 ? CPU_COUNT(&s) : -1);
  printf("online=%ld\n", sysconf(_SC_NPROCESSORS_ONLN));
  return r == 0 ? 0 : 1;
}
