/* tests/llvm/syms_driver.c — reads what syms.cg defines (syms.sh). */
#include <stdint.h>
#include <stdio.h>

extern long order, tentative[2], get_tls(void);
extern int var_alias, in_section, weak_fn(void);
extern const unsigned char rodata[4];
extern uint32_t ptr32[2];
extern int hidden_var __attribute__((visibility("hidden")));

int main(void) {
  printf("order %ld\n", order);
  printf("tls %ld\n", get_tls());
  printf("alias %d %d\n", var_alias, &var_alias == &in_section);
  printf("tentative %ld\n", tentative[0] + tentative[1]);
  printf("weak %d\n", weak_fn());
  printf("rodata %d\n", rodata[3]);
  printf("ptr32 %d\n", (uintptr_t)ptr32[0] == (uintptr_t)&hidden_var + 4);
  return 0;
}
