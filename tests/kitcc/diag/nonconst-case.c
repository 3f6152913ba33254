int f(int x, int y) {
  switch (x) { case y: return 1; }
  return 0;
}
