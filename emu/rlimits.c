/* emu/rlimits.c — the host's RLIMIT_STACK and RLIMIT_AS as the guest gets
 * them: the guest stack's size, the size of the guest window that fits under
 * an address-space limit, and getrlimit/setrlimit/prlimit64 (docs/emu.md,
 * "Resource limits"). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "rlimits.h"

#define MIN_STACK (128ull << 10)
#define MIN_WINDOW (64ull << 20)
/* the emulator's own address space beside the window, under RLIMIT_AS: the
 * CG interpreter's stacks for the guest thread (cg/interp/state.c reserves
 * 2 x 256 MiB), and up to HOST_ROOM more for the JIT plugin and LLVM, the
 * worker thread's stack and malloc arena */
#define INTERP_ROOM (544ull << 20)
#define HOST_ROOM (384ull << 20)

uint64_t kit_emu_stack_size(void) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_STACK, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY) return KIT_EMU_STACK_SIZE;
  uint64_t n = ((uint64_t)rl.rlim_cur + KIT_EMU_PAGE - 1) & ~(KIT_EMU_PAGE - 1);
  return n < MIN_STACK ? MIN_STACK : n;
}

/* the process's mapped bytes now (/proc/self/statm's first field) */
static uint64_t vm_now(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (f) {
    if (fscanf(f, "%lu", &pages) != 1) pages = 0;
    fclose(f);
  }
  return (uint64_t)pages * (uint64_t)sysconf(_SC_PAGESIZE);
}

uint64_t kit_emu_window_size(uint64_t stack, FILE *err) {
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY) return KIT_EMU_WINDOW;
  uint64_t lim = rl.rlim_cur, used = vm_now();
  uint64_t avail = lim > used ? lim - used : 0;
  uint64_t rest = avail > INTERP_ROOM ? avail - INTERP_ROOM : 0;
  uint64_t room = INTERP_ROOM + (rest / 3 < HOST_ROOM ? rest / 3 : HOST_ROOM);
  /* per window byte: itself, the code-page marks (1/4096) and ASan's shadow
   * (1/8) should --sanitize=address install it */
  uint64_t left = avail > room + KIT_EMU_GUARD ? avail - room - KIT_EMU_GUARD : 0;
  uint64_t w = left / (4096 + 1 + 512) * 4096;
  w &= ~((1ull << 20) - 1);
  if (w > KIT_EMU_WINDOW) w = KIT_EMU_WINDOW;
  uint64_t need = MIN_WINDOW > 2 * stack ? MIN_WINDOW : 2 * stack;
  if (w < need) {
    fprintf(err, "kit-emu: the address-space limit (ulimit -v %llu KiB) leaves %llu MiB for the guest; "
                 "kit-emu needs at least %llu MiB (with a %llu MiB stack)\n",
            (unsigned long long)(lim >> 10), (unsigned long long)(w >> 20), (unsigned long long)(need >> 20),
            (unsigned long long)(stack >> 20));
    return 0;
  }
  return w;
}

/* ---- the emulator's descriptors ---- */

static int fd_floor = -1, fd_next; /* the reserved range [fd_floor, fd_floor + KIT_EMU_RESERVED_FDS) */

static bool fd_range(void) {
  if (fd_floor < 0) {
    struct rlimit rl;
    uint64_t soft = getrlimit(RLIMIT_NOFILE, &rl) == 0 ? (uint64_t)rl.rlim_cur : 1024;
    if (soft > 1024) soft = 1024;
    if (soft < 3 + 2 * KIT_EMU_RESERVED_FDS) return false; /* too few to spare any */
    fd_floor = fd_next = (int)soft - KIT_EMU_RESERVED_FDS;
  }
  return true;
}

int kit_emu_fd_keep(int fd) {
  if (!fd_range() || fd_next >= fd_floor + KIT_EMU_RESERVED_FDS) return -1;
  if (fd >= fd_next && fd < fd_floor + KIT_EMU_RESERVED_FDS) { /* already there (a parent kit-emu's, at exec) */
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) return -1;
    fd_next = fd + 1;
    return fd;
  }
  int k = fcntl(fd, F_DUPFD_CLOEXEC, fd_next);
  if (k < 0) return -1;
  if (k >= fd_floor + KIT_EMU_RESERVED_FDS) { /* the range is taken by the process's own */
    close(k);
    return -1;
  }
  fd_next = k + 1;
  return k;
}

bool kit_emu_fd_reserved(int64_t fd) { return fd_floor >= 0 && fd >= fd_floor && fd < fd_next; }

int kit_emu_fd_ranges(uint64_t first, uint64_t last, uint64_t out[2][2]) {
  if (fd_floor < 0 || last < (uint64_t)fd_floor || first >= (uint64_t)fd_next) {
    out[0][0] = first, out[0][1] = last;
    return 1;
  }
  int n = 0;
  if (first < (uint64_t)fd_floor) out[n][0] = first, out[n][1] = (uint64_t)fd_floor - 1, n++;
  if (last >= (uint64_t)fd_next) out[n][0] = (uint64_t)fd_next, out[n][1] = last, n++;
  return n;
}

int kit_emu_keep_fd(int fd) {
  int k = kit_emu_fd_keep(fd);
  if (k < 0) return fd;
  close(fd);
  return k;
}

int kit_emu_keep_log(int fd) {
  int k = kit_emu_fd_keep(fd);
  if (k < 0) return -1;
  FILE *f = fdopen(k, "w");
  if (!f) {
    close(k);
    return -1;
  }
  setvbuf(f, NULL, _IONBF, 0);
  fflush(stderr);
  stderr = f;
  return 0;
}

/* getrlimit/setrlimit for the guest, as qemu-user does them: the host's
 * limits; setting the memory ones (stack, address space, data) succeeds
 * without effect, since they would bind the emulator's own allocations. want
 * may be NULL; old gets the limit before. */
int64_t kit_emu_rlimit(int res, const uint64_t *want, uint64_t old[2]) {
  struct rlimit cur;
  if (getrlimit(res, &cur) < 0) return -errno;
  old[0] = cur.rlim_cur, old[1] = cur.rlim_max;
  if (want && res != RLIMIT_STACK && res != RLIMIT_AS && res != RLIMIT_DATA &&
      setrlimit(res, &(struct rlimit){want[0], want[1]}) < 0)
    return -errno;
  return 0;
}
