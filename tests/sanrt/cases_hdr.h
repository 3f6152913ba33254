/* cases_hdr.h — a function living in a header, so reports must name the header
 * (not the including file) in frame #0: checks the DWARF file numbering. */
__attribute__((noinline)) static void poke(char *p, int i) {
  CHK(__asan_store1((uintptr_t)&p[i])); p[i] = 1;
}
