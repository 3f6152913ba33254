// # on strings with escapes, spacing, digraphs, empty arguments
#define str(x) #x
#define xstr(x) str(x)
str("a\n" '\'' "\\" L"x" '"')
str(  a   +   b  ) str(a
b) str() str( ) str(/* c */ a /* d */ b)
str(<: :> <% %> %: %:%:)
str(\n) str('\0') str(@) str(#)
xstr(__LINE__) xstr(str(x)) str(u8"\x41" U'a')
