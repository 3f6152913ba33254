/* default_opts.c — the weak __asan_default_options hook: its options apply,
 * and ASAN_OPTIONS given at run time override them. */
#include <stdio.h>
#include <stdlib.h>

const char *__asan_default_options(void) { return "exitcode=33:malloc_fill_byte=0x5a"; }

int main(int argc, char **argv) {
  (void)argv;
  unsigned char *p = malloc(16);
  fprintf(stderr, "fill %02x\n", p[argc]);
  free(p);
  free(p);
  return 0;
}
