/* cg/text.h — the spellings shared by the CG printer (print.c) and parser
 * (parse.c): flag modifiers, attribute words, linkage and visibility names.
 * One table each, so the two directions cannot drift apart. */
#ifndef KIT_CG_TEXT_H
#define KIT_CG_TEXT_H
#include "kit/cg.h"

typedef struct KitCgWord {
  const char *name;
  unsigned bit;
} KitCgWord;

/* Inst flags printed as generic `!name` modifiers, in print order. Flags with
 * an op-specific spelling (volatile on memory ops, bounds on ptradd, varargs
 * and tail on calls) use that spelling on those ops and this one elsewhere. */
static const KitCgWord kit_cg_text_flags[] = {
    {"nsw", KIT_CG_F_NSW},         {"nuw", KIT_CG_F_NUW},       {"exact", KIT_CG_F_EXACT},
    {"inrange", KIT_CG_F_SHIFT_INRANGE}, {"bounds", KIT_CG_F_BOUNDS}, {"volatile", KIT_CG_F_VOLATILE},
    {"varargs", KIT_CG_F_VARARGS}, {"tail", KIT_CG_F_TAIL},     {"noinstr", KIT_CG_F_NOINSTR},
    {"nomerge", KIT_CG_F_NOMERGE}, {"likely", KIT_CG_F_LIKELY}, {"cold", KIT_CG_F_COLD},
    {"faultpc", KIT_CG_F_FAULT_PC},
};
#define KIT_CG_TEXT_NFLAGS (sizeof kit_cg_text_flags / sizeof kit_cg_text_flags[0])

static const KitCgWord kit_cg_text_fattrs[] = {
    {"noinline", KIT_CG_FA_NOINLINE}, {"alwaysinline", KIT_CG_FA_ALWAYSINLINE},
    {"noreturn", KIT_CG_FA_NORETURN}, {"nosanitize", KIT_CG_FA_NOSANITIZE},
    {"used", KIT_CG_FA_USED},         {"returns_twice", KIT_CG_FA_RETURNS_TWICE},
    {"cold", KIT_CG_FA_COLD},         {"nounwind", KIT_CG_FA_NOUNWIND},
};
#define KIT_CG_TEXT_NFATTRS (sizeof kit_cg_text_fattrs / sizeof kit_cg_text_fattrs[0])

/* index = KitCgLinkage; external is the default and never printed */
static const char *const kit_cg_text_linkage[] = {"external", "internal", "weak", "common"};
/* index = KitCgVisibility */
static const char *const kit_cg_text_vis[] = {"default", "hidden", "protected"};
/* index = KitCgTyKind */
static const char *const kit_cg_text_tdkind[] = {"int", "float", "ptr", "other"};

/* index = KitCgDiKind */
static const char *const kit_cg_text_dikind[] = {"base",  "pointer", "typedef", "struct", "union",
                                                 "array", "enum",    "func",    "const",  "volatile"};
/* DWARF base type encodings, by their KIT_CG_ATE_* value */
static const KitCgWord kit_cg_text_ate[] = {
    {"boolean", KIT_CG_ATE_BOOLEAN}, {"complex_float", KIT_CG_ATE_COMPLEX_FLOAT}, {"float", KIT_CG_ATE_FLOAT},
    {"signed", KIT_CG_ATE_SIGNED},   {"signed_char", KIT_CG_ATE_SIGNED_CHAR},     {"unsigned", KIT_CG_ATE_UNSIGNED},
    {"unsigned_char", KIT_CG_ATE_UNSIGNED_CHAR},
};
#define KIT_CG_TEXT_NATE (sizeof kit_cg_text_ate / sizeof kit_cg_text_ate[0])

/* the largest value id and initialized global the parser accepts: bounds the
 * memory a hostile text can make it allocate */
#define KIT_CG_TEXT_MAX_VAL (1u << 24)
#define KIT_CG_TEXT_MAX_INIT (1ull << 28)

#endif
