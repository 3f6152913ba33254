// ## producing operators, numbers, identifiers, literals; placemarkers
#define cat(a,b) a##b
#define xcat(a,b) cat(a,b)
cat(+,+) cat(<<,=) cat(-,>) cat(%:,%:) cat(<,:) cat(|,|) cat(-,=) cat(&,&)
cat(L, 'a') cat(u8,"s") cat(1,e) cat(1e,+) cat(0x,1p) cat(a,1) cat(_,_LINE__) cat(,) cat(x,)
xcat(xcat(1,2),3)
#define f(x) [x]
cat(f,)(1)
#define neg -
cat(neg, 1) - -1
#define plus +
plus+ plus plus +plus
