/* emu/loader.h — the load stage: which arch an ELF file is for, and
 * mapping the executable (and its interpreter) with the sigreturn page and
 * the initial stack. */
#ifndef KIT_EMU_LOADER_H
#define KIT_EMU_LOADER_H

#include "internal.h"

/* the ELF machine of the program at path (0, said on err, when it is no
 * ELF file) */
uint16_t kit_emu_elf_machine(const char *path, FILE *err);
int kit_emu_load(KitEmu *emu, int argc, char **argv, char **envp, FILE *err);

#endif
