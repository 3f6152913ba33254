/* the __atomic_*_n and __sync_* builtins take a pointer to an integer or a
 * pointer (clang's and gcc's error), not to a struct or a float */
struct pair { int a, b; };

int load(struct pair *p) {
  struct pair v = __atomic_load_n(p, __ATOMIC_SEQ_CST);
  return v.a;
}

float bump(float *f) { return __sync_fetch_and_add(f, 1.0f); }

int value(int i) { return __atomic_load_n(i, __ATOMIC_RELAXED); }
