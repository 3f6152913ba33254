int f(double d) {
  switch (d) { default: return 0; }
}
