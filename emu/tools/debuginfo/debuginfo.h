/* emu/tools/debuginfo/debuginfo.h — what tools ask of a guest's DWARF beyond
 * pc -> function and file:line (sanitizer-rt/elfsym does that): the addresses
 * a source line stands for, as gdb chooses them (lines.c). */
#ifndef KIT_DEBUGINFO_H
#define KIT_DEBUGINFO_H

#include <stddef.h>
#include <stdint.h>

/* The addresses (link-time, sorted, at most cap) that gdb's `break
 * FILE:LINE` would use in the ELF file elf: FILE matched by its trailing path
 * components; a line without code moves to the next one that has some
 * (*found_line says which, 0 when none). Returns how many, or -1 when elf
 * cannot be read or has no DWARF. */
long kit_debuginfo_line_addrs(const char *elf, const char *file, uint32_t line, uint64_t *out, size_t cap,
                              uint32_t *found_line);

/* The addresses gdb's `break FUNC` would use: the out-of-line copy past
 * its prologue and the entry of each inlined copy; without DWARF, the ELF
 * symbol's address. Sorted; returns how many (0: no such function). */
long kit_debuginfo_function_addrs(const char *elf, const char *name, uint64_t *out, size_t cap);
/* FUNC's ELF symbol (.symtab, else .dynsym): link-time address and size;
 * 0, or -1 when there is none */
int kit_debuginfo_symbol(const char *elf, const char *name, uint64_t *addr, uint64_t *size);

/* The inlined calls whose ranges meet [lo, hi) (link-time addresses): cb
 * once per range of each, with the inlined function's name and the line of
 * the call. Returns how many calls, -1 when elf has no DWARF. */
long kit_debuginfo_inlined(const char *elf, uint64_t lo, uint64_t hi,
                           void (*cb)(void *user, const char *name, unsigned call_line, uint64_t lo, uint64_t hi),
                           void *user);

#endif
