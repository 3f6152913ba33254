void g(c) char c; {}
void g(char);
