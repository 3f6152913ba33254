// pp-numbers, literal prefixes, UCNs, digraphs, line splices, stray characters
0x1.fp+3 1e-5 .5e+ 1.2.3 0b101 123ULL 1_000 0xe+1
L"w" u"16" U"32" u8"8" L'a' u'b' U'c' 'x' "a\"b" "\\"
\u00e9t\u00E9 caf\U000000e9 $dollar a$b
<: :> <% %> %: %:%: a->b ... .. ++i-- <<= >>= && || ## # !=
sp\
lice "spl\
ice" /\
/ comment
/* multi
line */ after_comment
@ ` \
