#ifndef B_X_H
#define B_X_H
b_x __INCLUDE_LEVEL__ __FILE__
#endif
