/* -Wsign-compare, -Wint-conversion, -Wincompatible-pointer-types,
 * -Wimplicit-function-declaration, -Wmissing-field-initializers */
struct pt { int x, y, z; };

int cmp(int i, unsigned u, unsigned char uc, long l, unsigned long ul) {
  int r = 0;
  if (i < u) r++;
  if (u > 3) r++;
  if (uc < i) r++;
  if (l < ul) r++;
  if (i == sizeof(int)) r++;
  return r;
}

void ptrs(void) {
  int i = 0;
  int *p = i;
  long *lp = &i;
  char *cp = (char *)&i;
  int j = p;
  (void)lp;
  (void)cp;
  (void)j;
}

int calls(void) { return undeclared_fn(3); }

struct pt a = {1, 2};
struct pt b = {1, 2, 3};
struct pt c = {0};
struct pt d = {.x = 1};
struct pt e[2] = {{1, 2}, {1, 2, 3}};
