// pasting that does not form one token is an error; both tokens are kept
#define cat(a,b) a##b
cat(.,.)
cat(/,/)
cat(+,-)
ok
cat(cat,(1,2))
cat(.,..)
