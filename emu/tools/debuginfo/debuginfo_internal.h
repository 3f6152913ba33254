/* emu/tools/debuginfo/debuginfo_internal.h — the line rows and blocks read
 * from an ELF's DWARF (lines.c), shared by the line and function resolvers. */
#ifndef KIT_DEBUGINFO_INTERNAL_H
#define KIT_DEBUGINFO_INTERNAL_H

#include <stdbool.h>

#include <dwarf.h>
#include <libdwarf.h>

#include "debuginfo.h"

typedef struct Row {
  uint64_t addr;
  uint32_t line;
  bool stmt, end;
  bool file_match;
} Row;

typedef struct Block {
  uint64_t lo, hi;
  unsigned depth;
  unsigned id;   /* the DIE's: a block of several ranges is one entry per range */
  bool function; /* a DW_TAG_subprogram (its lo is an entry point) */
} Block;

typedef struct Info {
  Row *rows;
  size_t nrows, rows_cap;
  Block *blocks;
  size_t nblocks, blocks_cap;
  unsigned ndies;
} Info;

/* called for every DIE as the tree is walked */
typedef void (*KitDiDieVisit)(void *arg, Dwarf_Debug dbg, Dwarf_Die die, Dwarf_Half tag);

/* the rows (those of files matching `file` marked; NULL marks none) and
 * blocks of every compilation unit; visit sees each DIE. -1 when elf has no
 * DWARF or cannot be read. */
int kit_di__read(const char *elf, const char *file, Info *in, KitDiDieVisit visit, void *arg);
/* gdb's skip_prologue_using_sal for a function entry */
uint64_t kit_di__past_prologue(const Info *in, uint64_t entry);
int kit_di__cmp_u64(const void *a, const void *b);

#endif
