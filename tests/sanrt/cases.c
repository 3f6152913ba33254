/* cases.c — one program, many bugs (argv[1] picks one). Built with gcc it
 * simulates the ASan pass by calling the runtime's check entry points before
 * each access; built with clang-16 -fsanitize=address -DREF_BUILD it gives the
 * reference report for the same line. Keep the check and the access on one line. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <malloc.h>

#ifdef REF_BUILD
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#include <sanitizer/lsan_interface.h>
#define CHK(call)
#define DECLARE_G int g[10];
#define DESCRIBE_G(line)
#else
#include "kit/san_abi.h"
#define CHK(call) call
/* g with room for its redzone, and the descriptor the pass would emit. */
#define DECLARE_G                                                              \
  static struct {                                                              \
    int a[10];                                                                 \
    char redzone[24];                                                          \
  } g_storage __attribute__((aligned(32)));
#define DESCRIBE_G(line)                                                       \
  static KitSanSourceLocation g_loc = {__FILE__, line, 5};                     \
  static KitSanGlobal g_desc[1] = {                                            \
      {(uintptr_t)&g_storage, 40, 64, "g", __FILE__, 0, &g_loc, 0}};
#define g g_storage.a
#endif
DECLARE_G DESCRIBE_G(__LINE__) /* one line, so both builds place 'g' here */

#include "cases_hdr.h"

void *volatile sink;

__attribute__((noinline)) static void make_leaks(void) {
  void **q = malloc(16);
  q[0] = malloc(7);
  sink = malloc(5);
  sink = NULL;
  q = NULL;
}

__attribute__((noinline)) static void scrub_stack(void) {
  volatile char buf[8192];
  memset((char *)buf, 0, sizeof buf);
}

#ifndef REF_BUILD
/* A frame laid out the way the ASan pass lays one out: magic, description and
 * pc at the left redzone, one 16-byte object 'buf' at offset 32. */
#define FRAME_SETUP                                                            \
  uint64_t frame[12] __attribute__((aligned(32)));                             \
  frame[0] = KIT_SAN_FRAME_MAGIC;                                              \
  frame[1] = (uintptr_t) "1 32 16 6 buf:" FRAME_LINE;                          \
  frame[2] = (uintptr_t)stack_overflow;                                        \
  char *buf = (char *)frame + 32;                                              \
  __asan_set_shadow_f1((uintptr_t)frame, 4);                                   \
  __asan_set_shadow_00((uintptr_t)buf, 2);                                     \
  __asan_set_shadow_f3((uintptr_t)buf + 16, 2);
#define FRAME_TEARDOWN __asan_set_shadow_00((uintptr_t)frame, 12);
#else
#define FRAME_SETUP char buf[16];
#define FRAME_TEARDOWN
#endif
#define FRAME_LINE "61" /* the line of FRAME_SETUP below */
__attribute__((noinline)) static int stack_overflow(int i) {
  FRAME_SETUP
  CHK(__asan_store1((uintptr_t)&buf[i])); buf[i] = 1;
  FRAME_TEARDOWN
  return buf[0];
}

#ifndef REF_BUILD
/* What the pass emits for detect_stack_use_after_return: the frame comes from the
 * fake stack, and is poisoned f5 when the function returns. */
__attribute__((noinline)) static char *fake_frame(void) {
  uintptr_t f = __asan_stack_malloc_0(64);
  if (!f)
    return NULL;
  uint64_t *w = (uint64_t *)f;
  w[0] = KIT_SAN_FRAME_MAGIC;
  w[1] = (uintptr_t) "1 32 8 3 loc";
  w[2] = (uintptr_t)fake_frame;
  __asan_stack_free_0(f, 64);
  return (char *)f + 32;
}
#endif

/* Many chunks of mixed sizes and alignments, freed in random order while the
 * quarantine recycles blocks: no false report, no corruption, redzones intact. */
__attribute__((noinline)) static int stress(void) {
  enum { SLOTS = 512 };
  static unsigned char *slot[SLOTS];
  static size_t len[SLOTS];
  unsigned seed = 12345;
  for (int it = 0; it < 40000; it++) {
    seed = seed * 1103515245 + 12345;
    int k = (int)((seed >> 8) % SLOTS);
    if (slot[k]) {
      for (size_t j = 0; j < len[k]; j++)
        if (slot[k][j] != (unsigned char)k)
          return 10;
      free(slot[k]);
      slot[k] = NULL;
      continue;
    }
    size_t n = (seed >> 12) % 3000;
    if ((seed & 0xff) == 7)
      n = 150000 + (seed >> 20) % 100000;
    unsigned char *p;
    if (seed & 0x100) {
      void *q = NULL;
      if (posix_memalign(&q, (size_t)1 << (3 + (seed >> 9) % 10), n))
        return 11;
      p = q;
    } else {
      p = malloc(n);
    }
    /* malloc(0) gives a 1-byte chunk, as in the reference. */
    if (!p || __asan_region_is_poisoned(p, n) || !__asan_address_is_poisoned(p + (n ? n : 1)))
      return 12;
    memset(p, k, n);
    slot[k] = p;
    len[k] = n;
  }
  for (int k = 0; k < SLOTS; k++)
    free(slot[k]);
  return 0;
}

static int (*volatile recurse_via)(int);
__attribute__((noinline)) static int recurse(int n) {
  volatile char buf[256];
  buf[0] = (char)n;
  return recurse_via(n + 1) + buf[0];
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  const char *c = argv[1];
#ifndef REF_BUILD
  __asan_register_globals(g_desc, 1);
#endif
  char *p = malloc(10);
  int *a = malloc(40);
  int i = argc + 8; /* 10: one past the end of a */
  if (!strcmp(c, "heap-right")) {
    CHK(__asan_store4((uintptr_t)&a[i])); a[i] = 1;
  } else if (!strcmp(c, "heap-left")) {
    CHK(__asan_load1((uintptr_t)&p[i - 11])); return p[i - 11];
  } else if (!strcmp(c, "uaf")) {
    free(p);
    CHK(__asan_load1((uintptr_t)&p[1])); return p[1];
  } else if (!strcmp(c, "double-free")) {
    free(p);
    free(p);
  } else if (!strcmp(c, "bad-free")) {
    free(p + 1);
  } else if (!strcmp(c, "memcpy-overlap")) {
    memcpy(p, p + 2, 5);
  } else if (!strcmp(c, "strcpy")) {
    strcpy(p, "hello world!");
  } else if (!strcmp(c, "segv")) {
    volatile int *z = (int *)(uintptr_t)(argc * 16); *z = 1;
  } else if (!strcmp(c, "stress")) {
    int r = stress();
    fprintf(stderr, "stress %d\n", r);
  } else if (!strcmp(c, "header")) {
    poke(p, i);
  } else if (!strcmp(c, "container")) {
    char *v = malloc(32);
    __sanitizer_annotate_contiguous_container(v, v + 32, v + 32, v + 10);
    CHK(__asan_load1((uintptr_t)&v[12])); return v[12];
  } else if (!strcmp(c, "lsan-api")) {
    __lsan_disable();
    sink = malloc(33);
    __lsan_enable();
    void *x = malloc(44);
    __lsan_ignore_object(x);
    x = NULL;
    sink = NULL;
    make_leaks();
    scrub_stack();
    __lsan_do_leak_check();
    fprintf(stderr, "not reached\n");
  } else if (!strcmp(c, "stack-overflow")) {
    recurse_via = recurse;
    return recurse(0);
  } else if (!strcmp(c, "fpe")) {
    volatile int zero = argc - 2; return 10 / zero;
  } else if (!strcmp(c, "global")) {
    CHK(__asan_store4((uintptr_t)&g[i + 1])); g[i + 1] = 1;
  } else if (!strcmp(c, "poison")) {
    __asan_poison_memory_region(p, 10);
    CHK(__asan_store1((uintptr_t)&p[3])); p[3] = 1;
  } else if (!strcmp(c, "stack")) {
    return stack_overflow(i + 8);
  } else if (!strcmp(c, "leak")) {
    make_leaks();
    scrub_stack();
#ifndef REF_BUILD
  } else if (!strcmp(c, "uar")) {
    char *dead = fake_frame();
    if (!dead)
      return 3;
    CHK(__asan_load1((uintptr_t)dead)); return *dead;
#endif
  } else if (!strcmp(c, "too-big")) {
    sink = malloc((size_t)(argc - 7)); /* (size_t)-5, unknown to the compiler */
    fprintf(stderr, "got %p\n", sink);
  } else if (!strcmp(c, "calloc-overflow")) {
    sink = calloc((size_t)(argc - 3), 16);
  } else if (!strcmp(c, "recover")) {
#ifndef REF_BUILD
    __asan_store1_noabort((uintptr_t)&p[11]);
    __asan_store1_noabort((uintptr_t)&p[12]);
#endif
    fprintf(stderr, "after the errors\n");
  } else if (!strcmp(c, "clean")) {
    strcpy(p, "fine");
    char *d = strdup(p);
    p = realloc(p, 100);
    memset(p, 1, 100);
    p[99] = 0;
    CHK(__asan_storeN((uintptr_t)p, 100));
    free(d);
    int *z = calloc(4, sizeof(int));
    void *al = NULL;
    if (posix_memalign(&al, 64, 10) || ((uintptr_t)al & 63) || z[3] || malloc_usable_size(al) != 10)
      return 4;
    free(al);
    free(z);
    fprintf(stderr, "clean %zu\n", strlen(p + 95));
  }
  free(a);
  free(p);
  return 0;
}
