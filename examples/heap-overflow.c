/* examples/heap-overflow.c — the demo's heap bug: one byte written past the
 * end of a 10-byte heap buffer. Built by kitcc -fsanitize=address, or by
 * riscv64-linux-gnu-gcc and run under kit-emu --sanitize=address, it gives
 * the same AddressSanitizer report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fill(char *buf, int n) {
  for (int i = 0; i <= n; i++) /* one too far */
    buf[i] = 'a' + i % 26;
}

int main(void) {
  char *buf = malloc(10);
  fill(buf, 10);
  printf("%.10s\n", buf);
  free(buf);
  return 0;
}
