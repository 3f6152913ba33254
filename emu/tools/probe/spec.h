/* emu/tools/probe/spec.h — the probe specifications of kit-emu --probe:
 * FUNC, FUNC+0xOFF, FILE:LINE and FUNC%return, each optionally followed by
 * `:print REG,...`; parsed, and resolved to link-time addresses in an ELF
 * through its symbols and DWARF (emu/tools/debuginfo). */
#ifndef KIT_PROBE_SPEC_H
#define KIT_PROBE_SPEC_H

#include <stddef.h>
#include <stdint.h>

typedef enum KitProbeKind {
  KIT_PROBE_FUNC,     /* FUNC: where gdb's `break FUNC` stops (inlined copies too) */
  KIT_PROBE_OFFSET,   /* FUNC+0xOFF: the symbol's address plus OFF, inside the function */
  KIT_PROBE_LINE,     /* FILE:LINE: every address gdb's `break FILE:LINE` chooses */
  KIT_PROBE_RETURN,   /* FUNC%return: each return of the function (armed at its entry) */
} KitProbeKind;

enum { KIT_PROBE_MAX_PRINT = 16 };

typedef struct KitProbeSpec {
  KitProbeKind kind;
  char func[128];
  char file[256];
  uint32_t line;
  uint64_t offset;
  char print[KIT_PROBE_MAX_PRINT][16]; /* register names to print at each hit */
  unsigned nprint;
} KitProbeSpec;

/* 0, or -1 with a message naming what is wrong in err */
int kit_probe_parse(const char *text, KitProbeSpec *out, char *err, size_t errsz);
/* The link-time addresses of the probe in elf (at most cap, sorted): how
 * many, or -1 with a message (no such function, no code at that line, an
 * offset past the function's end). */
long kit_probe_resolve(const KitProbeSpec *p, const char *elf, uint64_t *out, size_t cap, char *err, size_t errsz);

#endif
