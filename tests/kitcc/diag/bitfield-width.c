struct S { char c : 9; };
