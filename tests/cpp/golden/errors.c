// diagnostics: several per run, in gcc's words, each with the line and a caret
#define f(a,b) a+b
f(1)
f(1,2,3)
#if 1 +
#endif
#if 1/0
#endif
#if (1
#endif
#if 1.0
#endif
#endif
#foo
#error stop here
#warning careful
#define defined
#undef
#define g(x,x) x
#define h(x) #y
#define k ## x
#ifdef
#endif
#define X 1
#define X 2
#line abc
'unterminated char
"unterminated string
#if 1
#else
#else
#endif
#if '\x'
#endif
#if '\x400'
#endif
#pragma GCC poison banned
banned
#define banned 1
#ifdef banned
#endif
f(1,2
