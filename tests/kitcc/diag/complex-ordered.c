int f(double _Complex a, double _Complex b) { return a < b; }
