/* tests/kitcc/c23/attrs.c — C23 attribute specifiers [[...]] in every position
 * C23 allows, with the standard attributes, gnu:: ones, __x__ spellings and
 * arguments (attrs.sh compiles it with kitcc, gcc -std=c2x and clang-16
 * -std=c2x; the programs print the same). */
#include <stdio.h>
#include <stdlib.h>

#if __has_c_attribute(maybe_unused)
#define UNUSED [[maybe_unused]]
#else
#define UNUSED
#endif

[[deprecated("use new_api")]] int old_api(void);
int old_api(void) { return 1; }
[[nodiscard]] static int must_use(int x) { return x * 2; }
[[__nodiscard__("reason")]] int must_use2(void);
int must_use2(void) { return 5; }
[[noreturn]] static void die(int code) { exit(code); }
[[_Noreturn]] void die2(void);
[[gnu::noinline, gnu::cold]] static int cold_path(int x) { return x - 1; }
[[gnu::always_inline]] static inline int hot(int x) { return x + 1; }
static int aligned_var [[gnu::aligned(64)]] = 3;
[[gnu::weak]] int weak_fn(void) { return 9; }
[[]] int empty_list;
[[gnu::unused, deprecated]] static int both;
int *[[gnu::unused]] ptr_attr;
int arr_attr[4] [[gnu::unused]];
[[gnu::visibility("hidden")]] int hidden_var = 4;
[[reproducible]] int repro(int x);
int repro(int x) { return x; }
[[unsequenced]] int unseq(int x) { return x; }
[[gnu::deprecated]];

struct [[deprecated]] S {
  [[maybe_unused]] int a;
  int b [[gnu::aligned(16)]];
  [[gnu::packed]] char c;
};

struct [[gnu::packed]] P {
  char c;
  int i;
};

enum [[deprecated]] E { E_A [[deprecated]], E_B [[maybe_unused]] = 5, E_C };

static int classify(int x, [[maybe_unused]] int unused_param, UNUSED int also) {
  int r = 0;
  switch (x) {
  case 1:
    r += 10;
    [[fallthrough]];
  case 2:
    r += 20;
    [[__fallthrough__]];
  case 3: {
    [[maybe_unused]] int local = 7;
    r += 3;
    break;
  }
  default:
    [[gnu::fallthrough]];
  case 4:
    r = -1;
  }
  return r;
}

int main(void) {
  [[maybe_unused]] int x = 1;
  [[gnu::unused]] static int y;
  int z [[maybe_unused]] = 2;
  [[maybe_unused]] done_label:;
  struct S s = {1, 2, 3};
  printf("%d %d %d %d\n", classify(1, 0, 0), classify(2, 0, 0), classify(3, 0, 0), classify(9, 0, 0));
  printf("%d %d %d %d %d\n", old_api(), must_use(4), must_use2(), cold_path(5), hot(6));
  printf("%d %zu %d %d %d\n", aligned_var, (size_t)&aligned_var % 64, weak_fn(), hidden_var, repro(unseq(8)));
  printf("%d %d %d %zu %zu\n", E_A, E_B, E_C, sizeof(struct P), _Alignof(struct S));
  printf("%d %d %d %zu\n", s.a, s.b, s.c, sizeof ptr_attr + sizeof arr_attr + (size_t)z + (size_t)x);
  if (x == 2) die(3);
  return 0;
}
