/* -Wunused-variable, -Wunused-but-set-variable, -Wunused-parameter,
 * -Wunused-function, -Wunused-label: gcc -Wall -Wextra's findings */
static int helper(int x) { return x * 2; }
static int used_helper(int x) { return x + 1; }
static int file_static;
static int file_static_used;
static inline int inline_unused(int x) { return x; }
__attribute__((unused)) static int marked_unused(void) { return 0; }

int params(int used, int unused_param, int marked __attribute__((unused))) {
  return used;
}

int locals(int n) {
  int never;
  int only_set;
  int initialised_only = 3;
  int read = n;
  int cast_void = 1;
  int counter = 0;
  __attribute__((unused)) int attr_unused;
  only_set = 5;
  (void)cast_void;
  counter += 2;
  for (int i = 0; i < n; i++) {
    int inner_unused;
  }
  return read + used_helper(file_static_used);
}

int labels(int n) {
  int r = 0;
unused_label:
  r++;
  if (n) goto used_label;
  r++;
used_label:
  return r;
}
