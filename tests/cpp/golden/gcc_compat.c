// behaviours matched to gcc 12 found by running gcc.dg/cpp through kit-cpp
#define EOA
#define EFA()
#define ARG(x) x
#define SFB() ARG(EFA() EOA)
#define SBe(x) SFB()x
#define s(x) #x
#define v(x) s(x)
v(|SBe(|)) v(|EOA|) v(| EOA|) v(a EFA() b)
#define cat(x,y) x##########y
int cat(ab,cd);
#define A(x,...) x##,##__VA_ARGS__
A(1)
#define STRINGIFY(x) #x
_Pragma(STRINGIFY(GCC diagnostic ignored "-Wunused")) after
#define FOO(y, x) y #x
FOO (const char *vara =,
a
#pragma GCC visibility push(hidden)
b);
#define EMPTY
#define H # define X
EMPTY # include "not_a_directive"
H
#if 1 ? 2 : 3 , 0
bad
#else
comma_ok
#endif
#if 0 ? 3,4 : 2
ternary_comma_ok
#endif
#define F(...) f(0 __VA_OPT__(,) __VA_ARGS__)
F( EOA) F(EOA ) F(a EOA)
