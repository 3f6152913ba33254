/* pages.c — the native page provider: heap and fake-stack memory from mmap. */
#include "native.h"
#include <sys/mman.h>

static uintptr_t map_pages(void *ctx, size_t size) {
  (void)ctx;
  void *p = mmap(0, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                 -1, 0);
  return p == MAP_FAILED ? 0 : (uintptr_t)p;
}

static void unmap_pages(void *ctx, uintptr_t addr, size_t size) {
  (void)ctx;
  munmap((void *)addr, size);
}

const KitSanPageProvider kit_native_pages = {map_pages, unmap_pages, NULL, 0};
