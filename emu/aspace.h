/* emu/aspace.h — the guest address space: one reserved host window at
 * guest_base, a sorted table of guest regions with their permissions, brk,
 * shadow planes kept in lockstep, and the code-page marks behind SMC checks. */
#ifndef KIT_EMU_ASPACE_H
#define KIT_EMU_ASPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KIT_EMU_PAGE 4096ull
#define KIT_EMU_WINDOW_BITS 38
#define KIT_EMU_WINDOW (1ull << KIT_EMU_WINDOW_BITS)
/* reserved past the window end, never mapped: an access that starts inside
 * the window but runs past its end faults on the host, inside the range */
#define KIT_EMU_GUARD (64ull * 1024)
#define KIT_EMU_MAX_PLANES 4

/* region kinds: regions merge only with neighbours of the same kind and prot */
enum { KIT_EMU_REG_ANON = 0, KIT_EMU_REG_FILE = 1, KIT_EMU_REG_BRK = 2, KIT_EMU_REG_STACK = 3 };

/* map flags for kit_aspace_map */
enum {
  KIT_EMU_MAP_FIXED = 1,       /* replace whatever is there */
  KIT_EMU_MAP_NOREPLACE = 2,   /* fixed, but -EEXIST if anything is there */
  KIT_EMU_MAP_SHARED = 4,
  KIT_EMU_MAP_STACK = 8,
  KIT_EMU_MAP_NORESERVE = 16,  /* anonymous memory the host does not account (else it does, as for qemu) */
};

/* aspace events (for tool hooks, tcache invalidation) */
enum { KIT_EMU_EV_MAP, KIT_EMU_EV_UNMAP, KIT_EMU_EV_PROTECT, KIT_EMU_EV_CODE_WRITE };
/* why code went (CODE_WRITE's prot argument): the tool API's KIT_EMU_INVAL_* */
enum { KIT_EMU_CODE_WRITTEN = 1, KIT_EMU_CODE_UNMAPPED = 2, KIT_EMU_CODE_PROTECTED = 3 };

typedef struct KitEmuRegion {
  uint64_t start, end;
  uint8_t prot; /* KIT_EMU_PROT_* */
  uint8_t kind;
  bool shared;       /* MAP_SHARED: other mappings of the memory may write it (an instruction-cache flush looks here) */
  uint64_t file_off; /* file regions: offset of start */
} KitEmuRegion;

typedef struct KitEmuPlaneInfo {
  uint8_t *base;   /* reserved, (window * bits / 8) bytes */
  unsigned bits;
  char name[32];
} KitEmuPlaneInfo;

typedef struct KitEmuAspace {
  uint8_t *base;
  uint64_t size;       /* guest addresses are [0, size) */
  KitEmuRegion *regs;
  size_t nregs, cap;
  uint64_t brk_start, brk_cur;
  uint64_t mmap_top;   /* top-down placement starts below this */
  uint8_t *code_pages; /* one byte per guest page: 1 = translated code, host page read-only */
  KitEmuPlaneInfo planes[KIT_EMU_MAX_PLANES];
  unsigned nplanes;
  void (*event)(void *user, int kind, uint64_t va, uint64_t len, uint8_t prot);
  void *event_user;
} KitEmuAspace;

int kit_aspace_init(KitEmuAspace *as, uint64_t size);
void kit_aspace_destroy(KitEmuAspace *as);

/* Returns the guest address, or -errno. len is rounded up to pages; va must
 * be page aligned when fixed. fd < 0: anonymous. */
int64_t kit_aspace_map(KitEmuAspace *as, uint64_t va, uint64_t len, uint8_t prot, unsigned flags, int fd,
                       uint64_t off);
int kit_aspace_unmap(KitEmuAspace *as, uint64_t va, uint64_t len);
int kit_aspace_protect(KitEmuAspace *as, uint64_t va, uint64_t len, uint8_t prot);
/* Linux mremap: flags 1 = MREMAP_MAYMOVE, 2 = MREMAP_FIXED. Returns va or -errno. */
int64_t kit_aspace_remap(KitEmuAspace *as, uint64_t va, uint64_t oldlen, uint64_t newlen, unsigned flags,
                         uint64_t new_va);
int kit_aspace_dontneed(KitEmuAspace *as, uint64_t va, uint64_t len);
/* Linux brk: returns the new break (the old one when it cannot move). */
uint64_t kit_aspace_brk(KitEmuAspace *as, uint64_t want);
void kit_aspace_set_brk(KitEmuAspace *as, uint64_t start);

/* Lowest free hole of len bytes searching top-down from mmap_top; 0 if none. */
uint64_t kit_aspace_find_free(KitEmuAspace *as, uint64_t len, uint64_t hint);
const KitEmuRegion *kit_aspace_find(const KitEmuAspace *as, uint64_t va);
/* true if every byte of [va, va+n) is mapped with all of prot */
bool kit_aspace_check(const KitEmuAspace *as, uint64_t va, uint64_t n, uint8_t prot);
static inline void *kit_aspace_host(const KitEmuAspace *as, uint64_t va) { return as->base + va; }

/* Before the host writes into [va, va+n) on the guest's behalf: checks WRITE
 * permission and drops code marks (invalidating translations through the
 * event callback). Returns 0 or -EFAULT. */
int kit_aspace_prep_write(KitEmuAspace *as, uint64_t va, uint64_t n);
int kit_aspace_read(KitEmuAspace *as, uint64_t va, void *dst, size_t n);
int kit_aspace_write(KitEmuAspace *as, uint64_t va, const void *src, size_t n);
/* Copies a NUL-terminated guest string (at most max bytes incl. NUL);
 * returns its length or -EFAULT / -ENAMETOOLONG. */
int64_t kit_aspace_strncpy(KitEmuAspace *as, uint64_t va, char *dst, size_t max);

/* Code marks: the tcache calls mark when it translates from a page (the host
 * page becomes read-only so guest stores trap); unmark_page makes it
 * writable again. */
void kit_aspace_mark_code(KitEmuAspace *as, uint64_t va);
void kit_aspace_unmark_code(KitEmuAspace *as, uint64_t page_va);
static inline bool kit_aspace_is_code(const KitEmuAspace *as, uint64_t va) { return as->code_pages[va / KIT_EMU_PAGE]; }

int kit_aspace_plane_add(KitEmuAspace *as, const char *name, unsigned bits);
uint8_t *kit_aspace_plane_ptr(KitEmuAspace *as, unsigned plane, uint64_t va);

#endif
