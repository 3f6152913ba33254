#pragma once
a_x __INCLUDE_LEVEL__
#include_next <x.h>
