/* symbolize.c — the native symbolizer: the loaded modules come from
 * dl_iterate_phdr (build ids from their PT_NOTE segments in memory) into the
 * shared ELF symbolizer (elfsym/), rescanned when a pc lies in no module known
 * yet (a library dlopen'ed since). */
#define _GNU_SOURCE
#include "native.h"
#include "elfsym.h"
#include <link.h>
#include <stdio.h>
#include <unistd.h>

static int add_module(struct dl_phdr_info *info, size_t sz, void *data) {
  (void)sz;
  (void)data;
  char path[512], build_id[64] = "";
  if (info->dlpi_name && info->dlpi_name[0]) {
    snprintf(path, sizeof path, "%s", info->dlpi_name);
  } else {
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    path[n > 0 ? n : 0] = 0;
  }
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t b = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD) {
      if (b < lo)
        lo = b;
      if (b + ph->p_memsz > hi)
        hi = b + ph->p_memsz;
    } else if (ph->p_type == PT_NOTE && !build_id[0]) {
      kit_elfsym_build_id((const void *)b, ph->p_memsz, build_id, sizeof build_id);
    }
  }
  kit_elfsym_add(path, info->dlpi_addr, lo, hi, build_id);
  return 0;
}

bool kit_native_symbolize(void *ctx, uintptr_t pc, KitSanSymbol *out) {
  (void)ctx;
  if (kit_elfsym_symbolize(pc, out))
    return true;
  dl_iterate_phdr(add_module, NULL);
  return kit_elfsym_symbolize(pc, out);
}
