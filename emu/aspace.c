/* emu/aspace.c — the guest address space: host reservation of the guest
 * window, the region table (split/merge), mmap/munmap/mprotect/mremap/brk,
 * checked copies, code-page marks and shadow planes in lockstep. */
#define _GNU_SOURCE
#include "aspace.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kit/emu.h"

static uint64_t pgup(uint64_t x) { return (x + KIT_EMU_PAGE - 1) & ~(KIT_EMU_PAGE - 1); }
static uint64_t pgdown(uint64_t x) { return x & ~(KIT_EMU_PAGE - 1); }

static int host_prot(uint8_t p) {
  int r = 0;
  if (p & (KIT_EMU_PROT_READ | KIT_EMU_PROT_EXEC)) r |= PROT_READ;
  if (p & KIT_EMU_PROT_WRITE) r |= PROT_WRITE | PROT_READ;
  return r;
}

static void *reserve(uint64_t n) {
  void *p = mmap(NULL, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* put [p, p+n) back to reserved-and-inaccessible, releasing its memory */
static void rereserve(void *p, uint64_t n) {
  if (n) mmap(p, n, PROT_NONE, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
}

/* the window low in the host's address space when that is free: its base
 * then fits an instruction's 32-bit displacement, and a guest access needs
 * no register for it (qemu-user places guest_base the same way) */
static void *reserve_window(uint64_t n) {
  static const uintptr_t at[] = {0x10000000, 0x40000000};
  for (unsigned i = 0; i < sizeof at / sizeof at[0]; i++) {
    void *p = mmap((void *)at[i], n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
                   -1, 0);
    if (p == (void *)at[i]) return p;
    if (p != MAP_FAILED) munmap(p, n); /* a kernel without MAP_FIXED_NOREPLACE took it as a hint */
  }
  return reserve(n);
}

int kit_aspace_init(KitEmuAspace *as, uint64_t size) {
  memset(as, 0, sizeof *as);
  as->size = size;
  as->base = reserve_window(size + KIT_EMU_GUARD);
  if (!as->base) return -ENOMEM;
  as->code_pages = reserve(size / KIT_EMU_PAGE);
  if (!as->code_pages) {
    munmap(as->base, size + KIT_EMU_GUARD);
    return -ENOMEM;
  }
  mprotect(as->code_pages, size / KIT_EMU_PAGE, PROT_READ | PROT_WRITE);
  /* Linux on a 39-bit user address space puts the stack just under the top
   * and mmap_base below a stack gap; we keep the same shape so addresses
   * look familiar */
  as->mmap_top = size > (512ull << 20) ? size - (256ull << 20) : size / 2;
  return 0;
}

void kit_aspace_destroy(KitEmuAspace *as) {
  if (as->base) munmap(as->base, as->size + KIT_EMU_GUARD);
  if (as->code_pages) munmap(as->code_pages, as->size / KIT_EMU_PAGE);
  for (unsigned i = 0; i < as->nplanes; i++)
    munmap(as->planes[i].base, as->size / 8 * as->planes[i].bits);
  free(as->regs);
  memset(as, 0, sizeof *as);
}

/* ---- shadow planes --------------------------------------------------------- */

int kit_aspace_plane_add(KitEmuAspace *as, const char *name, unsigned bits) {
  if (as->nplanes >= KIT_EMU_MAX_PLANES || !(bits == 1 || bits == 2 || bits == 4 || bits == 8)) return -1;
  KitEmuPlaneInfo *pl = &as->planes[as->nplanes];
  pl->base = reserve(as->size / 8 * bits);
  if (!pl->base) return -1;
  pl->bits = bits;
  snprintf(pl->name, sizeof pl->name, "%s", name ? name : "");
  /* regions mapped before the plane existed get their shadow now */
  for (size_t i = 0; i < as->nregs; i++) {
    uint64_t s = as->regs[i].start / 8 * bits, e = as->regs[i].end / 8 * bits;
    mprotect(pl->base + pgdown(s), pgup(e) - pgdown(s), PROT_READ | PROT_WRITE);
  }
  return (int)as->nplanes++;
}

uint8_t *kit_aspace_plane_ptr(KitEmuAspace *as, unsigned plane, uint64_t va) {
  if (plane >= as->nplanes) return NULL;
  return as->planes[plane].base + va / 8 * as->planes[plane].bits + (as->planes[plane].bits == 8 ? va % 8 : 0);
}

/* shadow bytes of a page-aligned guest range are exact: [va*b/8, end*b/8) */
static void planes_map(KitEmuAspace *as, uint64_t va, uint64_t end) {
  for (unsigned i = 0; i < as->nplanes; i++) {
    KitEmuPlaneInfo *pl = &as->planes[i];
    uint64_t s = va / 8 * pl->bits, e = end / 8 * pl->bits;
    mprotect(pl->base + pgdown(s), pgup(e) - pgdown(s), PROT_READ | PROT_WRITE);
    uint64_t is = pgup(s), ie = pgdown(e);
    if (is < ie) {
      madvise(pl->base + is, ie - is, MADV_DONTNEED);
      memset(pl->base + s, 0, is - s);
      memset(pl->base + ie, 0, e - ie);
    } else {
      memset(pl->base + s, 0, e - s);
    }
  }
}

static void planes_unmap(KitEmuAspace *as, uint64_t va, uint64_t end) {
  for (unsigned i = 0; i < as->nplanes; i++) {
    KitEmuPlaneInfo *pl = &as->planes[i];
    uint64_t s = va / 8 * pl->bits, e = end / 8 * pl->bits;
    uint64_t is = pgup(s), ie = pgdown(e);
    if (is < ie) {
      memset(pl->base + s, 0, is - s);
      memset(pl->base + ie, 0, e - ie);
      rereserve(pl->base + is, ie - is);
    } else {
      memset(pl->base + s, 0, e - s);
    }
  }
}

static void planes_move(KitEmuAspace *as, uint64_t from, uint64_t to, uint64_t len) {
  for (unsigned i = 0; i < as->nplanes; i++) {
    KitEmuPlaneInfo *pl = &as->planes[i];
    memmove(pl->base + to / 8 * pl->bits, pl->base + from / 8 * pl->bits, len / 8 * pl->bits);
  }
}

/* ---- region table ------------------------------------------------------ */

static size_t lower_bound(const KitEmuAspace *as, uint64_t va) { /* first region with end > va */
  size_t lo = 0, hi = as->nregs;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (as->regs[mid].end <= va) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const KitEmuRegion *kit_aspace_find(const KitEmuAspace *as, uint64_t va) {
  size_t i = lower_bound(as, va);
  return i < as->nregs && as->regs[i].start <= va ? &as->regs[i] : NULL;
}

static void ins_at(KitEmuAspace *as, size_t i, KitEmuRegion r) {
  if (as->nregs == as->cap) {
    as->cap = as->cap ? as->cap * 2 : 64;
    as->regs = realloc(as->regs, as->cap * sizeof *as->regs);
    if (!as->regs) abort();
  }
  memmove(&as->regs[i + 1], &as->regs[i], (as->nregs - i) * sizeof *as->regs);
  as->regs[i] = r;
  as->nregs++;
}

static void del_at(KitEmuAspace *as, size_t i, size_t n) {
  memmove(&as->regs[i], &as->regs[i + n], (as->nregs - i - n) * sizeof *as->regs);
  as->nregs -= n;
}

/* split so that no region straddles va */
static void split_at(KitEmuAspace *as, uint64_t va) {
  size_t i = lower_bound(as, va);
  if (i < as->nregs && as->regs[i].start < va) {
    KitEmuRegion hi = as->regs[i];
    as->regs[i].end = va;
    if (hi.kind == KIT_EMU_REG_FILE) hi.file_off += va - hi.start;
    hi.start = va;
    ins_at(as, i + 1, hi);
  }
}

static bool mergeable(const KitEmuRegion *a, const KitEmuRegion *b) {
  return a->end == b->start && a->prot == b->prot && a->kind == b->kind && a->shared == b->shared &&
         (a->kind != KIT_EMU_REG_FILE || a->file_off + (a->end - a->start) == b->file_off);
}

static void merge_around(KitEmuAspace *as, size_t i) {
  if (i + 1 < as->nregs && mergeable(&as->regs[i], &as->regs[i + 1])) {
    as->regs[i].end = as->regs[i + 1].end;
    del_at(as, i + 1, 1);
  }
  if (i > 0 && mergeable(&as->regs[i - 1], &as->regs[i])) {
    as->regs[i - 1].end = as->regs[i].end;
    del_at(as, i, 1);
  }
}

static bool range_free(const KitEmuAspace *as, uint64_t va, uint64_t end) {
  size_t i = lower_bound(as, va);
  return i >= as->nregs || as->regs[i].start >= end;
}

uint64_t kit_aspace_find_free(KitEmuAspace *as, uint64_t len, uint64_t hint) {
  len = pgup(len);
  if (!len) return 0;
  if (hint && hint % KIT_EMU_PAGE == 0 && hint + len <= as->size && hint + len > hint &&
      range_free(as, hint, hint + len))
    return hint;
  uint64_t top = as->mmap_top;
  size_t i = lower_bound(as, top);
  /* walk holes downwards: between regs[i-1].end and min(top, regs[i].start) */
  for (;;) {
    uint64_t hole_end = i < as->nregs && as->regs[i].start < top ? as->regs[i].start : top;
    uint64_t hole_start = i > 0 ? as->regs[i - 1].end : KIT_EMU_PAGE * 16;
    if (hole_end > hole_start && hole_end - hole_start >= len) return hole_end - len;
    if (i == 0) return 0;
    top = as->regs[i - 1].start;
    i--;
  }
}

static void emit(KitEmuAspace *as, int kind, uint64_t va, uint64_t len, uint8_t prot) {
  if (as->event) as->event(as->event_user, kind, va, len, prot);
}

/* Forget code marks in [va, end); translations from there must go. Only
 * ranges that held code reach the translation cache, so the munmap/mprotect
 * traffic of a malloc-heavy guest costs no cache scans. */
static void drop_code(KitEmuAspace *as, uint64_t va, uint64_t end, uint8_t why) {
  bool any = false;
  for (uint64_t p = va; p < end; p += KIT_EMU_PAGE)
    if (as->code_pages[p / KIT_EMU_PAGE]) {
      as->code_pages[p / KIT_EMU_PAGE] = 0;
      any = true;
    }
  if (any) emit(as, KIT_EMU_EV_CODE_WRITE, va, end - va, why);
}

/* drop [va, end) from the table and the host; returns whether anything was there */
static bool carve(KitEmuAspace *as, uint64_t va, uint64_t end, bool notify) {
  split_at(as, va);
  split_at(as, end);
  size_t i = lower_bound(as, va), j = i;
  while (j < as->nregs && as->regs[j].start < end) j++;
  if (i == j) return false;
  for (size_t k = i; k < j; k++) {
    KitEmuRegion *r = &as->regs[k];
    rereserve(as->base + r->start, r->end - r->start);
    drop_code(as, r->start, r->end, KIT_EMU_CODE_UNMAPPED);
    planes_unmap(as, r->start, r->end);
    if (notify) emit(as, KIT_EMU_EV_UNMAP, r->start, r->end - r->start, r->prot);
  }
  del_at(as, i, j - i);
  return true;
}

int64_t kit_aspace_map(KitEmuAspace *as, uint64_t va, uint64_t len, uint8_t prot, unsigned flags, int fd,
                       uint64_t off) {
  if (len == 0) return -EINVAL;
  len = pgup(len);
  if (len == 0 || len > as->size) return -ENOMEM;
  if (flags & (KIT_EMU_MAP_FIXED | KIT_EMU_MAP_NOREPLACE)) {
    if (va % KIT_EMU_PAGE) return -EINVAL;
    if (va + len > as->size || va + len < va) return -ENOMEM;
    if ((flags & KIT_EMU_MAP_NOREPLACE) && !range_free(as, va, va + len)) return -EEXIST;
  } else {
    va = kit_aspace_find_free(as, len, pgdown(va));
    if (!va) return -ENOMEM;
  }
  if (fd >= 0 && off % KIT_EMU_PAGE) return -EINVAL;
  carve(as, va, va + len, true);
  int hf = MAP_FIXED | ((flags & KIT_EMU_MAP_SHARED) ? MAP_SHARED : MAP_PRIVATE);
  void *p = fd >= 0 ? mmap(as->base + va, len, host_prot(prot), hf, fd, (off_t)off)
                    : mmap(as->base + va, len, host_prot(prot),
                           hf | MAP_ANONYMOUS | ((flags & KIT_EMU_MAP_NORESERVE) ? MAP_NORESERVE : 0), -1, 0);
  if (p == MAP_FAILED) {
    int e = errno;
    rereserve(as->base + va, len);
    return -e;
  }
  KitEmuRegion r = {va, va + len, prot,
                    fd >= 0 ? KIT_EMU_REG_FILE : (flags & KIT_EMU_MAP_STACK) ? KIT_EMU_REG_STACK : KIT_EMU_REG_ANON,
                    (flags & KIT_EMU_MAP_SHARED) != 0, fd >= 0 ? off : 0};
  size_t i = lower_bound(as, va);
  ins_at(as, i, r);
  merge_around(as, i);
  planes_map(as, va, va + len);
  emit(as, KIT_EMU_EV_MAP, va, len, prot);
  return (int64_t)va;
}

int kit_aspace_unmap(KitEmuAspace *as, uint64_t va, uint64_t len) {
  if (va % KIT_EMU_PAGE || len == 0) return -EINVAL;
  len = pgup(len);
  if (va >= as->size) return 0;
  uint64_t end = va + len > as->size || va + len < va ? as->size : va + len;
  carve(as, va, end, true);
  return 0;
}

int kit_aspace_protect(KitEmuAspace *as, uint64_t va, uint64_t len, uint8_t prot) {
  if (va % KIT_EMU_PAGE) return -EINVAL;
  len = pgup(len);
  if (va + len > as->size || va + len < va) return -ENOMEM;
  /* Linux: -ENOMEM if any page in the range is unmapped */
  for (uint64_t a = va; a < va + len;) {
    const KitEmuRegion *r = kit_aspace_find(as, a);
    if (!r) return -ENOMEM;
    a = r->end;
  }
  split_at(as, va);
  split_at(as, va + len);
  if (!(prot & KIT_EMU_PROT_EXEC)) drop_code(as, va, va + len, KIT_EMU_CODE_PROTECTED);
  size_t i = lower_bound(as, va);
  while (i < as->nregs && as->regs[i].start < va + len) {
    KitEmuRegion *r = &as->regs[i];
    r->prot = prot;
    /* write-protected code pages stay host-read-only until the next write trap */
    for (uint64_t p = r->start; p < r->end; p += KIT_EMU_PAGE) {
      int hp = host_prot(prot);
      if (as->code_pages[p / KIT_EMU_PAGE]) hp &= ~PROT_WRITE;
      mprotect(as->base + p, KIT_EMU_PAGE, hp);
    }
    i++;
  }
  emit(as, KIT_EMU_EV_PROTECT, va, len, prot);
  /* re-merge the affected span */
  for (size_t k = lower_bound(as, va > 0 ? va - 1 : 0); k < as->nregs && k <= lower_bound(as, va + len);) {
    size_t before = as->nregs;
    merge_around(as, k);
    if (as->nregs == before) k++;
  }
  return 0;
}

int64_t kit_aspace_remap(KitEmuAspace *as, uint64_t va, uint64_t oldlen, uint64_t newlen, unsigned flags,
                         uint64_t new_va) {
  if (va % KIT_EMU_PAGE || newlen == 0 || (flags & ~3u) || ((flags & 2) && !(flags & 1))) return -EINVAL;
  oldlen = pgup(oldlen);
  newlen = pgup(newlen);
  const KitEmuRegion *r = kit_aspace_find(as, va);
  if (!r || r->end < va + oldlen || oldlen == 0) return -EFAULT;
  KitEmuRegion old = *r;
  if (!(flags & 2)) {
    if (newlen <= oldlen) {
      if (newlen < oldlen) carve(as, va + newlen, va + oldlen, true);
      return (int64_t)va;
    }
    /* grow in place when the space behind is free */
    if (va + newlen <= as->size && range_free(as, va + oldlen, va + newlen) && old.kind != KIT_EMU_REG_FILE) {
      int64_t got = kit_aspace_map(as, va + oldlen, newlen - oldlen, old.prot,
                                   KIT_EMU_MAP_FIXED | (old.shared ? KIT_EMU_MAP_SHARED : 0), -1, 0);
      if (got < 0) return got;
      return (int64_t)va;
    }
    if (!(flags & 1)) return -ENOMEM;
    new_va = kit_aspace_find_free(as, newlen, 0);
    if (!new_va) return -ENOMEM;
  } else {
    if (new_va % KIT_EMU_PAGE || new_va + newlen > as->size) return -EINVAL;
    if (new_va < va + oldlen && va < new_va + newlen) return -EINVAL;
    carve(as, new_va, new_va + newlen, true);
  }
  /* move: the host mremap keeps the contents (anonymous or file); the hole
   * it leaves in our reservation is closed right after */
  uint64_t keep = newlen < oldlen ? newlen : oldlen;
  void *p = mremap(as->base + va, keep, newlen, MREMAP_MAYMOVE | MREMAP_FIXED, as->base + new_va);
  if (p == MAP_FAILED) return -errno;
  if (newlen > keep) { /* mremap of a private file mapping cannot grow past EOF safely: back the tail anonymously */
    if (old.kind != KIT_EMU_REG_FILE)
      mmap(as->base + new_va + keep, newlen - keep, host_prot(old.prot),
           MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  }
  planes_map(as, new_va, new_va + newlen);
  planes_move(as, va, new_va, keep);
  rereserve(as->base + va, keep);
  /* table: remove the old range (already moved on the host, so just the rows) */
  split_at(as, va);
  split_at(as, va + oldlen);
  size_t i = lower_bound(as, va), j = i;
  while (j < as->nregs && as->regs[j].start < va + oldlen) j++;
  del_at(as, i, j - i);
  if (oldlen > keep) rereserve(as->base + va + keep, oldlen - keep);
  planes_unmap(as, va, va + oldlen);
  drop_code(as, va, va + oldlen, KIT_EMU_CODE_UNMAPPED);
  emit(as, KIT_EMU_EV_UNMAP, va, oldlen, old.prot);
  KitEmuRegion nr = {new_va, new_va + newlen, old.prot, old.kind, old.shared, old.file_off + (va - old.start)};
  i = lower_bound(as, new_va);
  ins_at(as, i, nr);
  merge_around(as, i);
  emit(as, KIT_EMU_EV_MAP, new_va, newlen, old.prot);
  return (int64_t)new_va;
}

int kit_aspace_dontneed(KitEmuAspace *as, uint64_t va, uint64_t len) {
  if (va % KIT_EMU_PAGE) return -EINVAL;
  len = pgup(len);
  if (va + len > as->size) return -EINVAL;
  for (uint64_t a = va; a < va + len;) {
    const KitEmuRegion *r = kit_aspace_find(as, a);
    if (!r) {
      a += KIT_EMU_PAGE;
      continue;
    }
    uint64_t e = r->end < va + len ? r->end : va + len;
    if (madvise(as->base + a, e - a, MADV_DONTNEED) < 0) return -errno;
    a = e;
  }
  return 0;
}

void kit_aspace_set_brk(KitEmuAspace *as, uint64_t start) { as->brk_start = as->brk_cur = start; }

uint64_t kit_aspace_brk(KitEmuAspace *as, uint64_t want) {
  if (want < as->brk_start || want >= as->size) return as->brk_cur;
  uint64_t old_end = pgup(as->brk_cur), new_end = pgup(want);
  if (new_end > old_end) {
    if (!range_free(as, old_end, new_end)) return as->brk_cur;
    if (kit_aspace_map(as, old_end, new_end - old_end, KIT_EMU_PROT_READ | KIT_EMU_PROT_WRITE,
                       KIT_EMU_MAP_FIXED, -1, 0) < 0)
      return as->brk_cur;
    /* re-kind the fresh pages so they merge with the rest of the heap, not a neighbour mmap */
    for (size_t i = lower_bound(as, old_end); i < as->nregs && as->regs[i].start < new_end; i++)
      as->regs[i].kind = KIT_EMU_REG_BRK;
    merge_around(as, lower_bound(as, old_end));
  } else if (new_end < old_end) {
    carve(as, new_end, old_end, true);
  }
  as->brk_cur = want;
  return want;
}

/* ---- checked access ------------------------------------------------------- */

bool kit_aspace_check(const KitEmuAspace *as, uint64_t va, uint64_t n, uint8_t prot) {
  if (n == 0) return va <= as->size;
  if (va >= as->size || n > as->size - va) return false;
  uint64_t end = va + n;
  while (va < end) {
    const KitEmuRegion *r = kit_aspace_find(as, va);
    if (!r || (r->prot & prot) != prot) return false;
    va = r->end;
  }
  return true;
}

void kit_aspace_mark_code(KitEmuAspace *as, uint64_t va) {
  uint64_t pg = va / KIT_EMU_PAGE;
  if (va >= as->size || as->code_pages[pg]) return;
  as->code_pages[pg] = 1;
  const KitEmuRegion *r = kit_aspace_find(as, va);
  if (r && (r->prot & KIT_EMU_PROT_WRITE)) mprotect(as->base + pg * KIT_EMU_PAGE, KIT_EMU_PAGE, PROT_READ);
}

void kit_aspace_unmark_code(KitEmuAspace *as, uint64_t page_va) {
  uint64_t pg = page_va / KIT_EMU_PAGE;
  if (page_va >= as->size || !as->code_pages[pg]) return;
  as->code_pages[pg] = 0;
  const KitEmuRegion *r = kit_aspace_find(as, page_va);
  if (r) mprotect(as->base + pg * KIT_EMU_PAGE, KIT_EMU_PAGE, host_prot(r->prot));
}

int kit_aspace_prep_write(KitEmuAspace *as, uint64_t va, uint64_t n) {
  if (!kit_aspace_check(as, va, n, KIT_EMU_PROT_WRITE)) return -EFAULT;
  for (uint64_t p = pgdown(va); p < va + n; p += KIT_EMU_PAGE)
    if (as->code_pages[p / KIT_EMU_PAGE]) {
      kit_aspace_unmark_code(as, p);
      emit(as, KIT_EMU_EV_CODE_WRITE, p, KIT_EMU_PAGE, KIT_EMU_CODE_WRITTEN);
    }
  return 0;
}

int kit_aspace_read(KitEmuAspace *as, uint64_t va, void *dst, size_t n) {
  if (!kit_aspace_check(as, va, n, KIT_EMU_PROT_READ)) return -EFAULT;
  memcpy(dst, as->base + va, n);
  return 0;
}

int kit_aspace_write(KitEmuAspace *as, uint64_t va, const void *src, size_t n) {
  if (kit_aspace_prep_write(as, va, n) < 0) return -EFAULT;
  memcpy(as->base + va, src, n);
  return 0;
}

int64_t kit_aspace_strncpy(KitEmuAspace *as, uint64_t va, char *dst, size_t max) {
  for (size_t i = 0; i < max; i++) {
    if (!kit_aspace_check(as, va + i, 1, KIT_EMU_PROT_READ)) return -EFAULT;
    dst[i] = (char)as->base[va + i];
    if (!dst[i]) return (int64_t)i;
  }
  return -ENAMETOOLONG;
}
