#include <stdio.h>
#include <string.h>
struct __attribute__((packed)) Hdr {
  unsigned char tag;
  unsigned int len;
  unsigned short port;
};
struct Outer {
  char c;
  struct Hdr h;
};
int main(void) {
  unsigned char wire[32];
  memset(wire, 0, sizeof wire);
  struct Hdr *h = (struct Hdr *)(wire + 1);
  h->len = 1234;
  h->port = 80;
  struct Outer o = {1, {2, 3, 4}};
  o.h.len += h->len;
  printf("%u %u %u\n", h->len, (unsigned)h->port, o.h.len);
  return 0;
}
