// #assert / #unassert and #pred(answer) in #if (deprecated GNU extension)
#assert foo(bar baz)
#if #foo(bar baz) && #foo && !#foo(baz) && #system(linux) && #cpu(x86_64) && !#cpu(m68k)
yes2
#endif
#unassert foo
#if #foo
no
#endif
#define empty
#if empty#cpu(m68k)
no
#endif
