struct S { struct S { int c; } x; int a; };
