// include depth limit (200, like gcc) on a file that includes itself
#include "guard_depth.c"
