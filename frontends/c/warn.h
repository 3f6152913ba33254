/* frontends/c/warn.h — kitcc's named warnings, as gcc names them: which are
 * on by default, with -Wall or with -Wextra, and the state the command line
 * (-Wname, -Wno-name, -Werror[=name], -w) leaves them in (warn.c). */
#ifndef KIT_C_WARN_H
#define KIT_C_WARN_H

#include <stdbool.h>

typedef enum CWarnLevel { WL_DEFAULT, WL_ALL, WL_EXTRA, WL_PEDANTIC, WL_NAMED } CWarnLevel;

/* id, -W name, when it is on. W_NONE: the warnings gcc gives without a name. */
#define C_WARNINGS(X)                                                           \
  X(W_NONE, NULL, WL_DEFAULT)                                                   \
  X(W_IMPLICIT_FUNCTION_DECLARATION, "implicit-function-declaration", WL_DEFAULT) \
  X(W_IMPLICIT_INT, "implicit-int", WL_DEFAULT)                                 \
  X(W_INT_CONVERSION, "int-conversion", WL_DEFAULT)                             \
  X(W_INCOMPATIBLE_POINTER_TYPES, "incompatible-pointer-types", WL_DEFAULT)     \
  X(W_DISCARDED_QUALIFIERS, "discarded-qualifiers", WL_DEFAULT)                 \
  X(W_RETURN_MISMATCH, "return-type", WL_DEFAULT)                               \
  X(W_MULTICHAR, "multichar", WL_DEFAULT)                                       \
  X(W_CPP, "cpp", WL_DEFAULT)                                                   \
  X(W_ENDIF_LABELS, "endif-labels", WL_DEFAULT)                                 \
  X(W_OVERFLOW, "overflow", WL_DEFAULT)                                         \
  X(W_RETURN_TYPE, "return-type", WL_ALL)                                       \
  X(W_UNUSED_VARIABLE, "unused-variable", WL_ALL)                               \
  X(W_UNUSED_FUNCTION, "unused-function", WL_ALL)                               \
  X(W_UNUSED_BUT_SET_VARIABLE, "unused-but-set-variable", WL_ALL)               \
  X(W_UNUSED_LABEL, "unused-label", WL_ALL)                                     \
  X(W_UNUSED_VALUE, "unused-value", WL_ALL)                                     \
  X(W_UNINITIALIZED, "uninitialized", WL_ALL)                                   \
  X(W_PARENTHESES, "parentheses", WL_ALL)                                       \
  X(W_FORMAT, "format", WL_ALL)                                                 \
  X(W_FORMAT_EXTRA_ARGS, "format-extra-args", WL_ALL)                           \
  X(W_FORMAT_SECURITY, "format-security", WL_NAMED)                             \
  X(W_COMMENT, "comment", WL_ALL)                                               \
  X(W_SWITCH, "switch", WL_ALL)                                                 \
  X(W_UNUSED_PARAMETER, "unused-parameter", WL_EXTRA)                           \
  X(W_SIGN_COMPARE, "sign-compare", WL_EXTRA)                                   \
  X(W_MISSING_FIELD_INITIALIZERS, "missing-field-initializers", WL_EXTRA)       \
  X(W_PEDANTIC, "pedantic", WL_PEDANTIC)                                        \
  X(W_SHADOW, "shadow", WL_NAMED)                                               \
  X(W_UNKNOWN_WARNING_OPTION, "unknown-warning-option", WL_DEFAULT)

typedef enum CWarnId {
#define C_WARN_ID(id, name, level) id,
  C_WARNINGS(C_WARN_ID)
#undef C_WARN_ID
  W_COUNT
} CWarnId;

typedef struct CWarnFlags {
  signed char set[W_COUNT];  /* -Wname 1, -Wno-name 0, not named -1 */
  signed char err[W_COUNT];  /* -Werror=name 1, -Wno-error=name 0, not named -1 */
  bool all, extra, pedantic, werror, none;
} CWarnFlags;

typedef enum CWarnState { WS_OFF, WS_WARN, WS_ERROR } CWarnState;

void c_warn_flags_init(CWarnFlags *f);
/* a -W option (also -w, -pedantic): false for a warning name kitcc does not
 * know (the caller warns, as clang does; gcc's names kitcc lacks are known) */
bool c_warn_option(CWarnFlags *f, const char *arg);
CWarnState c_warn_state(const CWarnFlags *f, CWarnId id);
const char *c_warn_name(CWarnId id);

#endif
