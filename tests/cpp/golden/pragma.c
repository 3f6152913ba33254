// _Pragma and #pragma in -E output; push_macro/pop_macro
#define Q 1
#pragma push_macro("Q")
#undef Q
#define Q 2
Q
#pragma pop_macro("Q")
Q
#pragma push_macro("U")
#define U 3
U
#pragma pop_macro("U")
U
#pragma weak foo
_Pragma("GCC diagnostic push") after
#define DO_PRAGMA(x) _Pragma (#x)
DO_PRAGMA(message("hi \"there\""))
#pragma STDC FP_CONTRACT ON
end
