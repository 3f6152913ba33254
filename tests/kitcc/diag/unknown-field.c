struct S { int a; };
struct S s = { .b = 1 };
