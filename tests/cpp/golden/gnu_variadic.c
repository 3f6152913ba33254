// GNU comma swallowing, named variadic parameters
#define e(fmt, ...) f(fmt, ## __VA_ARGS__)
#define e2(fmt, args...) f(fmt , ##args)
#define e3(...) f(x, ## __VA_ARGS__)
#define e4(args...) g(args)
e(a) e(a,) e(a,b,c) e2(a) e2(a,b) e2(a,b,c)
e3() e3(1) e3(1,2) e4() e4(1, 2)
#define eprintf(format, ...) fprintf (stderr, format, ##__VA_ARGS__)
eprintf("success!\n");
eprintf("%s:%d: ", input_file, lineno);
