/* memcpy carries the source's uninitialized elements along */
#include <stdio.h>
#include <string.h>
__attribute__((noinline)) static void copy(int *dst, const int *src, size_t n) { memcpy(dst, src, n); }
int main(void) {
  int src[4], dst[4];
  src[0] = 1;
  copy(dst, src, sizeof src);
  if (dst[2]) puts("set");
  return dst[0] - 1;
}
