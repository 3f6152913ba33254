int g(int);
long g(int);
