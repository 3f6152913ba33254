/* frontends/c/type.h — C types as kitcc sees them on x86-64 Linux (LP64,
 * SysV layout): construction, qualifiers, layout of structs/unions with
 * bitfields, and the queries the parser and the CG lowering ask. */
#ifndef KIT_C_TYPE_H
#define KIT_C_TYPE_H

#include <stdbool.h>
#include <stdint.h>

#include "token.h"

typedef enum CTypeKind {
  TY_VOID,
  TY_BOOL,
  TY_CHAR, /* plain char: signed on x86-64 */
  TY_SCHAR,
  TY_UCHAR,
  TY_SHORT,
  TY_USHORT,
  TY_INT,
  TY_UINT,
  TY_LONG,
  TY_ULONG,
  TY_LLONG,
  TY_ULLONG,
  TY_INT128,
  TY_UINT128,
  TY_FLOAT,
  TY_DOUBLE,
  TY_LDOUBLE, /* x86 80-bit extended, 16 bytes, align 16 */
  TY_COMPLEX, /* ->base the element type (real floating or, GNU, integer); laid out as
                 struct { T real, imag; }: ->members are the two parts (complex.c) */
  TY_ENUM,    /* underlying type in ->base (unsigned int unless a value needs more) */
  TY_PTR,
  TY_ARRAY,   /* ->base element, ->len (-1: incomplete), ->vla_len for VLAs */
  TY_FUNC,
  TY_STRUCT,
  TY_UNION,
  TY_VECTOR,  /* GNU vector_size: ->base element (unqualified arithmetic), ->len lanes (frontends/c/vector.c) */
} CTypeKind;

enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_ATOMIC = 8 };

typedef struct CType CType;
typedef struct CMember CMember;
typedef struct CParam CParam;
typedef struct CExpr CExpr;
typedef struct CExprList CExprList;
typedef struct CObj CObj;

struct CMember {
  CMember *next;
  const char *name;   /* NULL for anonymous struct/union members and unnamed bitfields */
  CType *type;
  int64_t offset;     /* bytes from the start of the enclosing struct */
  int bit_width;      /* -1: not a bitfield */
  int bit_offset;     /* bits from `offset` (the storage unit start), little endian */
  int align;          /* effective alignment (after _Alignas / aligned / packed) */
  CPos pos;
  int64_t value;      /* an enum's members are its constants: the value (debug info) */
};

struct CParam {
  CParam *next;
  const char *name;
  CType *type;        /* adjusted: arrays and functions become pointers */
  CPos pos;
  CObj *obj;          /* the prototype scope's object: what the declarator's lengths name */
  CExprList *vla_lens; /* the declarator's variable lengths in source order, the decayed
                          outermost one too: a definition evaluates them on entry */
  bool unused;        /* __attribute__((unused)) */
};

struct CType {
  CTypeKind kind;
  int64_t size;       /* bytes; -1 when incomplete (incomplete array/struct, void, function) */
  int align;
  bool is_unsigned;   /* integer types */
  uint8_t quals;      /* Q_* on this use of the type */
  CType *base;        /* pointee, element, return type, enum underlying type */
  CType *origin;      /* the unqualified type this one qualifies, or NULL */
  /* arrays */
  int64_t len;        /* element count, -1 = incomplete */
  CExpr *vla_len;     /* non-NULL for a variable length array: an EX_VAR of a hidden
                         local that a statement before the declaration assigned the
                         length to (so it is evaluated once, C11 6.7.6.2) */
  /* functions */
  CParam *params;
  bool variadic;
  bool old_style;     /* K&R declaration / definition without a prototype */
  /* structs, unions, enums */
  const char *tag;
  CMember *members;
  bool complete;
  bool being_defined; /* struct/union: its body is being parsed (nested redefinition check) */
  bool packed;
  bool flexible;      /* struct ends in a flexible array member */
  /* typedef name through which the type was spelled (for diagnostics) */
  const char *typedef_name;
  int id;             /* unique per struct/union/enum declaration */
  /* copies of a struct/union/enum (qualified or typedef'd) made before it was
   * completed follow its completion: the original lists them */
  CType *wrappers, *next_wrapper;
  int typedef_align;  /* a typedef's aligned attribute, which completion keeps; 0 = none */
};

/* the basic types (unqualified singletons) */
extern CType *ty_void, *ty_bool, *ty_char, *ty_schar, *ty_uchar, *ty_short, *ty_ushort, *ty_int, *ty_uint,
    *ty_long, *ty_ulong, *ty_llong, *ty_ullong, *ty_int128, *ty_uint128, *ty_float, *ty_double, *ty_ldouble;

CType *type_ptr(CType *base);
CType *type_array(CType *base, int64_t len);    /* len -1 = incomplete */
CType *type_vla(CType *base, CExpr *len);
CType *type_func(CType *ret, CParam *params, bool variadic, bool old_style);
CType *type_vector(CType *elem, int64_t lanes); /* size = lanes * element size, align min(size, 16) */
CType *type_struct(CTypeKind kind, const char *tag); /* new incomplete struct/union */
CType *type_enum(const char *tag);
CType *type_complex(CType *elem); /* `elem _Complex`: one shared type per element kind */
CType *type_qualified(CType *t, unsigned quals); /* t with extra qualifiers */
CType *type_unqual(CType *t);
/* a copy of t named by a typedef (diagnostics spell the name) */
CType *type_typedef(CType *t, const char *name);
/* after a struct/union/enum is completed: update the copies made earlier */
void type_sync_wrappers(CType *t);
CType *type_aligned_typedef(CType *t, const char *name, int align);

/* lay out a struct/union whose members are set: offsets, bitfields (SysV /
 * gcc rules incl. packed and aligned), size, alignment, flexible array */
void type_layout(CType *t, bool packed, int max_align /* 0 = none */);

bool type_is_integer(const CType *t);   /* incl. _Bool, char, enum */
bool type_is_float(const CType *t);   /* real floating */
bool type_is_complex(const CType *t);
bool type_is_arith(const CType *t);     /* incl. complex */
bool type_is_scalar(const CType *t);    /* arithmetic or pointer */
bool type_is_signed(const CType *t);
bool type_is_complete(const CType *t);
bool type_is_vla(const CType *t);       /* a VLA or array of VLA */
bool type_compatible(const CType *a, const CType *b); /* C11 6.2.7 */
int type_rank(const CType *t);          /* integer conversion rank */
CType *type_promote(CType *t);          /* integer promotions */
CType *type_common(CType *a, CType *b); /* usual arithmetic conversions */
/* the member `name` of struct/union t, looking into anonymous members; the
 * total byte offset is added to *offset */
CMember *type_find_member(CType *t, const char *name, int64_t *offset);

/* C spelling for diagnostics and UBSan: "int", "unsigned long", "char *",
 * "int[10]", "struct S", "int (*)(int)" */
void type_spell(const CType *t, char *buf, size_t size);

#endif
