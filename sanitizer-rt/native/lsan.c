/* lsan.c — LeakSanitizer at exit (single-threaded): roots are the writable
 * segments and TLS of every loaded module, the stack from the current sp to its
 * top, and the registers; unreached chunks are direct leaks, chunks reached only
 * from leaked ones indirect. Report layout follows the reference's. */
#define _GNU_SOURCE
#include "native.h"
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { UNSEEN = 0, REACHABLE = 1, INDIRECT = 2 };

typedef struct {
  uintptr_t *v;
  size_t n, cap;
} Vec;

static bool push(Vec *s, uintptr_t x) {
  if (s->n == s->cap) {
    size_t ncap = s->cap ? s->cap * 2 : 4096;
    void *p = s->v ? mremap(s->v, s->cap * sizeof *s->v, ncap * sizeof *s->v, MREMAP_MAYMOVE)
                   : mmap(0, ncap * sizeof *s->v, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      return false;
    s->v = p;
    s->cap = ncap;
  }
  s->v[s->n++] = x;
  return true;
}

static void vfree(Vec *s) {
  if (s->v)
    munmap(s->v, s->cap * sizeof *s->v);
  memset(s, 0, sizeof *s);
}

/* Marks chunks that words in [beg, end) point into (interior pointers count). */
static void scan(uintptr_t beg, uintptr_t end, uint8_t mark, Vec *work) {
  beg = (beg + 7) & ~7UL;
  for (uintptr_t p = beg; p + 8 <= end; p += 8) {
    uintptr_t v = *(uintptr_t *)p;
    if (v < 4096)
      continue;
    uintptr_t c = kit_san_chunk_live_at(v, NULL, NULL);
    if (!c)
      continue;
    uint8_t *t = kit_san_chunk_tag(c);
    if (*t == UNSEEN) {
      *t = mark;
      push(work, c);
    }
  }
}

static void flood(Vec *work, uint8_t mark) {
  while (work->n) {
    uintptr_t c = work->v[--work->n];
    size_t size;
    kit_san_chunk_live_at(c, &size, NULL);
    scan(c, c + size, mark, work);
  }
}

static int scan_module(struct dl_phdr_info *info, size_t sz, void *data) {
  (void)sz;
  Vec *work = data;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t b = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W))
      scan(b, b + ph->p_memsz, REACHABLE, work);
    else if (ph->p_type == PT_TLS && info->dlpi_tls_data)
      scan((uintptr_t)info->dlpi_tls_data, (uintptr_t)info->dlpi_tls_data + ph->p_memsz,
           REACHABLE, work);
  }
  return 0;
}

static void clear_tag(uintptr_t u, size_t size, uint32_t stack, void *ctx) {
  (void)size;
  (void)stack;
  (void)ctx;
  uint8_t *t = kit_san_chunk_tag(u);
  if (*t != KIT_SAN_LSAN_IGNORED)
    *t = UNSEEN;
}

static void scan_ignored(uintptr_t u, size_t size, uint32_t stack, void *ctx) {
  (void)stack;
  if (*kit_san_chunk_tag(u) == KIT_SAN_LSAN_IGNORED)
    scan(u, u + size, REACHABLE, ctx);
}

static void collect(uintptr_t u, size_t size, uint32_t stack, void *ctx) {
  (void)size;
  (void)stack;
  if (*kit_san_chunk_tag(u) == UNSEEN)
    push(ctx, u);
}

typedef struct {
  uint32_t stack;
  bool indirect;
  size_t bytes, count;
} Leak;

static int cmp_leak(const void *a, const void *b) {
  const Leak *x = a, *y = b;
  if (x->indirect != y->indirect)
    return x->indirect ? 1 : -1;
  return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : 0;
}

static void scan_other_stack(uintptr_t lo, uintptr_t hi, void *work) {
  scan(lo, hi, REACHABLE, work);
}

__attribute__((noinline)) static void scan_roots(Vec *work) {
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
    scan(sp, hi, REACHABLE, work);
  dl_iterate_phdr(scan_module, work);
  /* Other threads' registers are not at hand: their whole stacks stand in. */
  kit_native_threads_foreach_stack(scan_other_stack, work);
}

int kit_native_lsan_check(void) {
  Vec work = {0}, leaked = {0};
  kit_san_alloc_foreach_live(clear_tag, NULL);
  scan_roots(&work);
  kit_san_alloc_foreach_live(scan_ignored, &work);
  flood(&work, REACHABLE);
  kit_san_alloc_foreach_live(collect, &leaked);
  for (size_t i = 0; i < leaked.n; i++) {
    uintptr_t c = leaked.v[i];
    if (*kit_san_chunk_tag(c) != UNSEEN && *kit_san_chunk_tag(c) != INDIRECT)
      continue;
    size_t size;
    kit_san_chunk_live_at(c, &size, NULL);
    scan(c, c + size, INDIRECT, &work);
    flood(&work, INDIRECT);
  }
  Leak *leaks = leaked.n ? mmap(0, leaked.n * sizeof *leaks, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) : NULL;
  size_t nl = 0, total = 0, objs = 0;
  for (size_t i = 0; leaks != MAP_FAILED && i < leaked.n; i++) {
    uintptr_t c = leaked.v[i];
    uint8_t t = *kit_san_chunk_tag(c);
    if (t != UNSEEN && t != INDIRECT)
      continue;
    size_t size;
    uint32_t stack;
    kit_san_chunk_live_at(c, &size, &stack);
    bool ind = t == INDIRECT;
    size_t j = 0;
    while (j < nl && !(leaks[j].stack == stack && leaks[j].indirect == ind))
      j++;
    if (j == nl)
      leaks[nl++] = (Leak){stack, ind, 0, 0};
    leaks[j].bytes += size;
    leaks[j].count++;
    total += size;
    objs++;
  }
  if (nl) {
    qsort(leaks, nl, sizeof *leaks, cmp_leak);
    kit_san_printf("\n");
    kit_san_report_begin();
    kit_san_printf("==%d==ERROR: LeakSanitizer: detected memory leaks\n\n", kit_san_pid());
    for (size_t j = 0; j < nl; j++) {
      kit_san_printf("%s leak of %zu byte(s) in %zu object(s) allocated from:\n",
                     leaks[j].indirect ? "Indirect" : "Direct", leaks[j].bytes, leaks[j].count);
      kit_san_print_stack_id(leaks[j].stack);
    }
    kit_san_printf("SUMMARY: AddressSanitizer: %zu byte(s) leaked in %zu allocation(s).\n",
                   total, objs);
    kit_san_report_end(false);
  }
  if (leaks && leaks != MAP_FAILED)
    munmap(leaks, leaked.n * sizeof *leaks);
  vfree(&work);
  vfree(&leaked);
  return (int)objs;
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
  if (!user)
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
