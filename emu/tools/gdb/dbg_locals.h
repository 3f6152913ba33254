/* emu/tools/gdb/dbg_locals.h — the parameters and locals in scope at a pc,
 * from the guest's DWARF, for kit-emu --dbg (locals.c). */
#ifndef KIT_EMU_DBG_LOCALS_H
#define KIT_EMU_DBG_LOCALS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct KitDbgVar {
  char name[64];
  bool param;
  unsigned depth;   /* scope depth: 1 the function, more for blocks inside it */
  bool has_loc;     /* at frame base + fb_off (DW_OP_fbreg); false: gdb is needed */
  int64_t fb_off;
  unsigned size;
  char kind;        /* 'i' signed, 'u' unsigned, 'c' char, 'f' float, 'p' pointer, 'a' aggregate, '?' */
} KitDbgVar;

/* the variables in scope at link-time pc of ELF elf, in DWARF order; how
 * many (at most cap), -1 when elf has no DWARF */
long kit_dbg_vars(const char *elf, uint64_t pc, KitDbgVar *out, size_t cap);

#endif
