/* memset, memcpy and memmove given the address one past an array's end, with
 * nothing left to write (zstd's huf_compress.c clears a table's unused tail
 * this way): the address is only formed, as clang-16 sees it */
#include <stdio.h>
#include <string.h>
typedef size_t Elt;
struct Tables {
  unsigned count[256];
  Elt table[257];
  int after;
};
__attribute__((noinline)) static void clear_tail(struct Tables *t, unsigned max_symbol) {
  size_t used = max_symbol + 2, unused = sizeof t->table - used * sizeof(Elt);
  __builtin_memset(t->table + used, 0, unused);
  memset(&t->table[used], 0, unused);
  __builtin_memcpy(t->table + used, t->count, unused);
  __builtin_memmove(&t->table[used], t->table + used, unused);
}
int main(int argc, char **argv) {
  (void)argv;
  static struct Tables t;
  clear_tail(&t, 254 + (unsigned)argc); /* 255: the whole table is used */
  clear_tail(&t, 100 + (unsigned)argc);
  printf("%zu %d\n", t.table[200], t.after);
  return 0;
}
