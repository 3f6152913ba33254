/* elfsym.h — the ELF symbolizer both modes share: a table of loaded modules
 * (file, load bias, address range, build id), each read on first use: function
 * names from .symtab (.dynsym when stripped), file:line:col from the DWARF line
 * tables (one CU at a time through .debug_aranges when present), a separate
 * debug file under /usr/lib/debug/.build-id when the file has no lines.
 * Addresses are the program's: host addresses natively, guest addresses under
 * the emulator (the glue registers each module with the bias it is loaded at). */
#ifndef KIT_SAN_ELFSYM_H
#define KIT_SAN_ELFSYM_H

#include "san_core.h"

/* Registers a module mapped at bias over [lo, hi). The same file at the same
 * bias widens its range; a module over the range of a different one replaces
 * it (one unloaded, another mapped there). build_id may be NULL (then it is
 * read from the file's notes). */
void kit_elfsym_add(const char *path, uintptr_t bias, uintptr_t lo, uintptr_t hi, const char *build_id);
/* Fills module, offset, build id, function, file:line:col for pc; false when
 * no registered module holds pc. */
bool kit_elfsym_symbolize(uintptr_t pc, KitSanSymbol *out);
/* The GNU build id in the notes [p, p + len) as hex into out ("" if none). */
void kit_elfsym_build_id(const void *notes, size_t len, char *out, size_t cap);

#endif
