// __LINE__ __FILE__ __COUNTER__ __INCLUDE_LEVEL__ __BASE_FILE__, #line
__LINE__ __FILE__ __BASE_FILE__ __INCLUDE_LEVEL__
__COUNTER__ __COUNTER__ __COUNTER__
#define L __LINE__
#define F(x) x __LINE__
L F(
a
)
#line 100 "renamed.c"
__LINE__ __FILE__
__LINE__
#line 7
__LINE__ __FILE__
#define N 42
#line N "x\\y.c"
__LINE__ __FILE__
#if defined __DATE__ && defined __TIME__ && defined __TIMESTAMP__ && defined __FILE__
dates_defined
#endif
__STDC__ __STDC_VERSION__ __STDC_HOSTED__ __x86_64__ __LP64__ __CHAR_BIT__ __SIZEOF_LONG__
__SIZE_TYPE__ __PTRDIFF_TYPE__ __WCHAR_TYPE__ __INTMAX_TYPE__ __INT8_TYPE__ __UINT64_TYPE__
__ORDER_LITTLE_ENDIAN__ __BYTE_ORDER__ __INT_MAX__ __LONG_MAX__ __ATOMIC_SEQ_CST
__GNUC__ __GNUC_MINOR__ __ELF__ __unix__ __linux__ linux unix __SSE2__ __USER_LABEL_PREFIX__ x
