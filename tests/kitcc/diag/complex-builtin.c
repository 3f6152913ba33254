double _Complex f(float x, double y) { return __builtin_complex(x, y); }
