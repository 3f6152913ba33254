struct s { int a; };
int f(struct s v) { return __real__ v; }
