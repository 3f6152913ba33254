struct S { int z : 0; };
