/* symbolize.c — the guest symbolizer: the emulator registers the guest's ELF
 * modules (the executable, its dynamic linker, libraries it maps) with their
 * load bias, and the shared ELF symbolizer (elfsym/) answers in guest
 * addresses; intercepted guest functions print under the runtime's names in
 * frame #0 (__interceptor_malloc, ...), as in compiled mode. */
#include "guest.h"
#include "elfsym.h"
#include <stdio.h>
#include <string.h>

typedef struct {
  uintptr_t addr;
  const char *name;
} Named;
static Named named[128];
static size_t nnamed;

void kit_guest_sym_add_module(const char *path, uintptr_t bias, uintptr_t lo, uintptr_t hi) {
  kit_elfsym_add(path, bias, lo, hi, NULL);
}

void kit_guest_sym_set_name(uintptr_t addr, const char *name) {
  for (size_t i = 0; i < nnamed; i++)
    if (named[i].addr == addr) {
      named[i].name = name;
      return;
    }
  if (nnamed < sizeof named / sizeof named[0])
    named[nnamed++] = (Named){addr, name};
}

bool kit_guest_symbolize(void *ctx, uintptr_t pc, KitSanSymbol *out) {
  (void)ctx;
  if (!kit_elfsym_symbolize(pc, out))
    return false;
  for (size_t i = 0; i < nnamed; i++)
    if (named[i].addr == pc) { /* an intercepted function: the runtime's frame */
      snprintf(out->func, sizeof out->func, "%s", named[i].name);
      out->file[0] = 0;
      out->line = out->col = 0;
      break;
    }
  return true;
}
