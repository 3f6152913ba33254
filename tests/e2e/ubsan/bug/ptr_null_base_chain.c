// FLAGS: -O2 -fsanitize=undefined
/* lz4.c's window arithmetic: base = src - start is null when the input sits
 * at start, and match = base + index builds on it. clang-16 at -O2 reports
 * base's null result; match's "offset to null pointer" is folded away,
 * because LLVM takes an inbounds GEP of a non-null pointer for non-null. */
#include <stdint.h>
#include <stdio.h>
typedef unsigned char BYTE;
__attribute__((noinline)) const BYTE *window(const char *src, unsigned start, unsigned idx) {
  const BYTE *base = (const BYTE *)src - start;
  const BYTE *match = base + idx;
  return match;
}
int main(int argc, char **argv) {
  (void)argv;
  printf("%p\n", (void *)window((const char *)(uintptr_t)0x10000, 0x10000, 65600u + (unsigned)argc));
  return 0;
}
