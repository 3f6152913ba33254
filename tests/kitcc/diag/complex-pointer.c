double _Complex f(int *p) { double _Complex z = p; return z; }
