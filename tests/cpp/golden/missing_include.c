// a missing header is fatal, as in gcc
before
#include "no_such_header_kit.h"
after
