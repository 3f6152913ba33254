#pragma GCC system_header
#define FOO 1
#define FOO 2
sys_tok FOO
