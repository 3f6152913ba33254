struct T { int a; };
union T u;
