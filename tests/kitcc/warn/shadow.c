/* -Wshadow (named only), -Wcomment, -Wuninitialized */
int global;

int shadows(int param) {
  int global = 1; /* shadows a global */
  {
    int param = 2; /* shadows a parameter */
    int inner = param;
    {
      int inner = 3;
      global += inner;
    }
    global += inner;
  }
  return global + param;
}

/* a comment /* with a nested opener */
int uninit(int c) {
  int x;
  int y;
  int z;
  int w;
  y = 1;
  if (c) z = 2;
  else z = 3;
  for (int i = 0; i < c; i++) w = i;
  return x + y + z;
}
