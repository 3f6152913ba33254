/* cg/lex.h — tokens of the CG textual form (docs/cg-text.md), shared by the
 * lexer (lex.c) and the parser (parse.c). The lexer validates every token
 * (escapes, hex pairs, number syntax) so the parser only converts. */
#ifndef KIT_CG_LEX_H
#define KIT_CG_LEX_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum KitCgTokKind {
  KIT_CG_TK_EOF,
  KIT_CG_TK_NL,
  KIT_CG_TK_IDENT, /* words: keywords, types, op names, bN */
  KIT_CG_TK_SYM,   /* @name or @"..." (text excludes the @) */
  KIT_CG_TK_VAL,   /* %N */
  KIT_CG_TK_STK,   /* $N */
  KIT_CG_TK_STR,   /* "..." (text is the raw inside of the quotes) */
  KIT_CG_TK_BLOB,  /* x"..." (text is the hex digits) */
  KIT_CG_TK_INT,   /* -?decimal or -?0xhex */
  KIT_CG_TK_FLOAT, /* decimal with a fraction or exponent */
  KIT_CG_TK_MOD,   /* !word (text excludes the !) */
  KIT_CG_TK_PUNCT, /* one of = , ( ) { } [ ] : and ... (as '.') and -> (as '>') */
} KitCgTokKind;

typedef struct KitCgTok {
  uint8_t kind;
  char punct;
  bool quoted;     /* SYM: written as @"..." */
  uint32_t line, col;
  size_t pos, len; /* text in the source */
  uint64_t num;    /* VAL, STK: the number (saturated at UINT64_MAX) */
} KitCgTok;

/* Tokenizes src. Returns the number of tokens (the last is EOF) with *out a
 * malloc'd array, or 0 after writing "name:line:col: error: ..." to err. */
size_t kit_cg_lex(const char *src, size_t len, const char *name, FILE *err, KitCgTok **out);

#endif
