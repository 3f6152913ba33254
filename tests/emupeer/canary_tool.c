/* tests/emupeer/canary_tool.c — a loadable kit-emu tool (--tool=canary_tool.so)
 * that guards host memory around the guest window, to show that no guest
 * access reaches host memory outside it.
 *
 * At install it finds the window in /proc/self/maps (the run of adjacent
 * mappings that spans exactly 2^38 bytes + the 64 KiB guard; nothing else in
 * the process is that large and contiguous). On each side of the window, the
 * 64 KiB next to it is either free — then it maps canary pages there
 * (MAP_FIXED_NOREPLACE, read-write, so a stray write would land silently
 * rather than fault) filled with an address-derived pattern — or already a
 * host mapping (a library, kit-emu's own memory) — then it keeps a copy of
 * what is readable there. A 1 MiB heap block gets the pattern too. At the
 * guest's end every byte is compared. (Host memory that is not writable also
 * faults on a stray write, which kit-emu reports as "internal error: host
 * fault outside the guest": the wrapper fails on that line.) One line on
 * stderr:
 *   emupeer-canary: ok, N bytes intact (window 0x...)
 *   emupeer-canary: CORRUPTED at host 0x... (window 0x...)
 * It asks only for the exit event, so translations are the fast inline seam, exactly as
 * without a tool. Tool argument "selftest": corrupt one canary byte before
 * checking, to prove the check can fail. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kit/emu_tool.h"

const uint32_t kit_emu_tool_api_version = KIT_EMU_TOOL_API_VERSION;

#define WINDOW ((uint64_t)1 << 38)
#define GUARD ((uint64_t)64 << 10)
#define CANARY ((size_t)64 << 10)

static uintptr_t base;
static uint8_t *side[2], *copy[2], *heap;
static size_t heap_n = (size_t)1 << 20;
static int selftest;

static uint8_t pat(uintptr_t a) { return (uint8_t)((a * 0x9e3779b1u) >> 13); }
static void fill(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++) p[i] = pat((uintptr_t)(p + i));
}
static uint8_t *check(uint8_t *p, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != pat((uintptr_t)(p + i))) return p + i;
  return NULL;
}

static uintptr_t lo[4096], hi[4096];
static char rd[4096], wr[4096];
static int n;

static uintptr_t find_window(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  if (!f) return 0;
  char line[512], perm[8];
  while (n < 4096 && fgets(line, sizeof line, f))
    if (sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %7s", &lo[n], &hi[n], perm) == 3) {
      rd[n] = perm[0] == 'r';
      wr[n++] = perm[1] == 'w';
    }
  fclose(f);
  for (int i = 0; i < n; i++) {
    uintptr_t end = lo[i];
    for (int j = i; j < n && lo[j] == end; j++) {
      end = hi[j];
      if (end - lo[i] == WINDOW + GUARD) return lo[i];
      if (end - lo[i] > WINDOW + GUARD) break;
    }
  }
  return 0;
}

/* [a, a + CANARY): a canary when free, else a copy of it when every byte is
 * in readable mappings (taken by take_copies); 0 when neither. A writable
 * host mapping there (kit-emu's or a library's data: which one depends on
 * what was mapped before and after the window) is written by its owner, so
 * it is left out (side[i] NULL): a stray guest write would need a window
 * check to fail at the window's edge, which the other side and a read-only
 * neighbour still catch. */
static int guard_at(int i, uintptr_t a) {
  void *p = mmap((void *)a, CANARY, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p != MAP_FAILED && (uintptr_t)p == a) {
    side[i] = p;
    fill(p, CANARY);
    return 1;
  }
  if (p != MAP_FAILED) munmap(p, CANARY);
  for (uintptr_t x = a; x < a + CANARY;) { /* occupied: readable throughout? */
    int j = 0;
    while (j < n && !(lo[j] <= x && x < hi[j])) j++;
    if (j == n || !rd[j]) return 0;
    if (wr[j]) return 1;
    x = hi[j];
  }
  side[i] = (uint8_t *)a;
  copy[i] = malloc(CANARY);
  return copy[i] != NULL;
}

/* last, once this tool's own statics are final: the mapping next to the
 * window may be this tool's data (when it was loaded right below it) */
static void take_copies(void) {
  for (int i = 0; i < 2; i++)
    if (copy[i]) memcpy(copy[i], side[i], CANARY);
}

static uint8_t *check_side(int i) {
  if (!side[i]) return NULL;
  if (!copy[i]) return check(side[i], CANARY);
  for (size_t k = 0; k < CANARY; k++)
    if (side[i][k] != copy[i][k]) return side[i] + k;
  return NULL;
}

static const char *what(int i) {
  return !side[i] ? "writable host mapping, not compared" : copy[i] ? "host mapping" : "canary";
}

static void on_end(KitEmu *e, int status, void *u) {
  (void)u, (void)e, (void)status;
  if (selftest) heap[heap_n / 2] ^= 1;
  uint8_t *bad = check_side(0);
  if (!bad) bad = check_side(1);
  if (!bad) bad = check(heap, heap_n);
  if (bad)
    fprintf(stderr, "emupeer-canary: CORRUPTED at host %p (window %#" PRIxPTR ")\n", (void *)bad, base);
  else
    fprintf(stderr, "emupeer-canary: ok, %zu bytes intact (window %#" PRIxPTR "; below: %s, above: %s)\n",
            (side[0] ? CANARY : 0) + (side[1] ? CANARY : 0) + heap_n, base, what(0), what(1));
  fflush(stderr);
}

int kit_emu_tool_main(KitEmuTool *tool, const char *args) {
  selftest = args && !strcmp(args, "selftest");
  base = find_window();
  if (!base) {
    fprintf(stderr, "emupeer-canary: guest window not found in /proc/self/maps\n");
    return -1;
  }
  if (!guard_at(0, base - CANARY) || !guard_at(1, base + WINDOW + GUARD)) {
    fprintf(stderr, "emupeer-canary: cannot map canaries next to the window %#" PRIxPTR "\n", base);
    return -1;
  }
  heap = malloc(heap_n);
  if (!heap) return -1;
  fill(heap, heap_n);
  kit_emu_on_exit(tool, on_end, NULL);
  take_copies();
  return 0;
}
