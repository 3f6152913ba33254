/* lsan.c — LeakSanitizer's native roots for the core's marker (core/lsan.c):
 * the writable segments and TLS of every loaded module, the stack from the
 * current sp to its top with the registers spilled on it, this thread's fake
 * stack frames, other threads' stacks; the exit-time check, the ld.so allocation rule and the __lsan_* API. */
#define _GNU_SOURCE
#include "native.h"
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int scan_module(struct dl_phdr_info *info, size_t sz, void *data) {
  (void)sz;
  KitSanLsan *l = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t b = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W))
      kit_san_lsan_scan(l, b, b + ph->p_memsz);
    else if (ph->p_type == PT_TLS && info->dlpi_tls_data)
      kit_san_lsan_scan(l, (uintptr_t)info->dlpi_tls_data,
                        (uintptr_t)info->dlpi_tls_data + ph->p_memsz);
  }
  return 0;
}

static void scan_other_stack(uintptr_t lo, uintptr_t hi, void *l) { kit_san_lsan_scan(l, lo, hi); }

__attribute__((noinline)) static void scan_roots(KitSanLsan *l, void *ctx) {
  (void)ctx;
  /* Spill callee-saved registers into this frame, which the stack scan covers. */
  __builtin_unwind_init();
  volatile uintptr_t regs[16];
  __asm__ volatile("mov %%rbx, %0\n\tmov %%rbp, %1\n\tmov %%r12, %2\n\tmov %%r13, %3\n\t"
                   "mov %%r14, %4\n\tmov %%r15, %5"
                   : "=m"(regs[0]), "=m"(regs[1]), "=m"(regs[2]), "=m"(regs[3]),
                     "=m"(regs[4]), "=m"(regs[5]));
  uintptr_t lo, hi;
  kit_native_stack_bounds(&lo, &hi);
  uintptr_t sp = (uintptr_t)&regs[0];
  if (hi && sp >= lo && sp < hi)
    kit_san_lsan_scan(l, sp, hi);
  /* this thread's locals on the fake stack (detect_stack_use_after_return) */
  kit_san_fake_stack_foreach(scan_other_stack, l);
  dl_iterate_phdr(scan_module, l);
  /* Other threads' registers are not at hand: their whole stacks stand in. */
  kit_native_threads_foreach_stack(scan_other_stack, l);
}

int kit_native_lsan_check(void) {
  static const KitSanLsanRoots roots = {scan_roots, NULL, NULL};
  return kit_san_lsan_check(&roots);
}

void kit_native_lsan_at_exit(void) {
  if (kit_native_lsan_check()) {
    fflush(NULL);
    _exit(kit_san_opts.exitcode);
  }
}

static uintptr_t ldso_lo, ldso_hi;
static int disabled;

static int find_ldso(struct dl_phdr_info *info, size_t sz, void *data) {
  (void)sz;
  (void)data;
  if (!info->dlpi_name || !strstr(info->dlpi_name, "/ld-linux"))
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t b = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD) {
      if (!ldso_lo || b < ldso_lo)
        ldso_lo = b;
      if (b + ph->p_memsz > ldso_hi)
        ldso_hi = b + ph->p_memsz;
    }
  }
  return 1;
}

/* Like the reference, allocations the dynamic linker makes (thread DTVs, TLS
 * blocks) are not leaks: ld.so keeps them where no root scan reaches. */
void kit_native_lsan_note_alloc(uintptr_t user, uintptr_t caller) {
  static bool looked;
  if (!user || kit_native_internal_owns((void *)user))
    return;
  if (disabled > 0) {
    *kit_san_chunk_tag(user) = KIT_SAN_LSAN_IGNORED;
    return;
  }
  if (!looked) {
    looked = true;
    dl_iterate_phdr(find_ldso, NULL);
  }
  if (caller >= ldso_lo && caller < ldso_hi)
    *kit_san_chunk_tag(user) = KIT_SAN_LSAN_IGNORED;
}

void __lsan_disable(void) { disabled++; }
void __lsan_enable(void) { disabled--; }

void __lsan_ignore_object(const void *p) {
  uintptr_t c = kit_san_chunk_live_at((uintptr_t)p, NULL, NULL);
  if (c)
    *kit_san_chunk_tag(c) = KIT_SAN_LSAN_IGNORED;
}

int __lsan_do_recoverable_leak_check(void) { return kit_native_lsan_check() > 0; }

/* The reference checks once: after an explicit check the exit-time one is off. */
void __lsan_do_leak_check(void) {
  static bool done;
  if (done)
    return;
  done = true;
  kit_san_opts.leak_check_at_exit = false;
  if (kit_native_lsan_check()) {
    fflush(NULL);
    _exit(kit_san_opts.exitcode);
  }
}
