/* lsan.c — LeakSanitizer at guest exit: the roots the emulator hands in (the
 * writable segments of the loaded ELF files, the guest stack from sp up, brk,
 * and the guest registers) go to the core's marker (core/lsan.c), which reads
 * guest memory through the guest window, only pages the guest can read. */
#include "guest.h"

typedef struct {
  const KitGuestRange *roots;
  size_t nroots;
  const uint64_t *regs;
  size_t nregs;
} Roots;

static void scan_roots(KitSanLsan *l, void *ctx) {
  const Roots *r = ctx;
  for (size_t i = 0; i < r->nregs; i++)
    kit_san_lsan_word(l, r->regs[i]);
  for (size_t i = 0; i < r->nroots; i++)
    kit_san_lsan_scan(l, r->roots[i].beg, r->roots[i].end);
}

static const void *view(uintptr_t addr, size_t n, void *ctx) {
  (void)ctx;
  return kit_guest_accessible(addr, n, false) ? (const void *)(addr + kit_guest_delta()) : NULL;
}

int kit_guest_lsan_check(const KitGuestRange *roots, size_t nroots, const uint64_t *regs, size_t nregs) {
  Roots r = {roots, nroots, regs, nregs};
  KitSanLsanRoots lr = {scan_roots, view, &r};
  return kit_san_lsan_check(&lr);
}
