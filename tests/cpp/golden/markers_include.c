// flags: -nostdinc -Iinc/a -Iinc/b
// -E line markers: entering (1), returning (2), system headers (3 4), #line
#include <x.h>
#define M(a) a   \
  +  a
first M(1)


after_blank_lines









after_many_blank_lines
#include "inc/imp.h"
#line 50 "other.c"
renamed
#include <sys.h>
last
