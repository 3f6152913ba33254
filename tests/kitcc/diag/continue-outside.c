void f(void) {
  switch (1) { default: continue; }
}
