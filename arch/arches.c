/* arch/arches.c — every guest arch this build has, keyed by ELF machine:
 * the emulator picks the one the program's e_machine names. A new arch is
 * one line here (docs/adding-an-arch.md). */
#include "kit/arch.h"

#include <stddef.h>

const KitArch *const kit_arches[] = {
    &kit_arch_rv64,
    NULL,
};

const KitArch *kit_arch_for_elf_machine(uint16_t machine) {
  for (size_t i = 0; kit_arches[i]; i++)
    if (kit_arches[i]->elf_machine == machine) return kit_arches[i];
  return NULL;
}
