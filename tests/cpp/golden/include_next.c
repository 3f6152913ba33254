// flags: -Iinc/a -Iinc/b
// #include_next, #pragma once, include guards, computed includes, system_header
#include <x.h>
#include "inc/a/x.h"
#include <x.h>
#define HDR <sys.h>
#include HDR
#define Q "inc/b/x.h"
#include Q
#include "inc/b/x.h"
#import "inc/imp.h"
#import "inc/imp.h"
level_main __INCLUDE_LEVEL__
#if __has_include_next(<x.h>) && __has_include("inc/imp.h")
has_ok
#endif
