/* emu/syscall_mem.c — memory system calls on the guest address space: brk,
 * mmap (anonymous and file-backed), munmap, mprotect, mremap, madvise, msync. */
#include "syscall.h"

#include <errno.h>
#include <sys/mman.h>

int64_t kit_emu_sys_mem(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled) {
  KitEmuAspace *as = &emu->as;
  *handled = true;
  switch (nr) {
  case KIT_SYS_brk:
    return (int64_t)kit_aspace_brk(as, a[0]);
  case KIT_SYS_mmap: {
    uint64_t fl = a[3];
    unsigned f = 0;
    if (a[2] & ~7ull) return -EINVAL;
    if ((fl & (MAP_SHARED | MAP_PRIVATE)) == 0) return -EINVAL;
    if (fl & MAP_FIXED) f |= KIT_EMU_MAP_FIXED;
    if (fl & MAP_FIXED_NOREPLACE) f |= KIT_EMU_MAP_NOREPLACE;
    if (fl & MAP_SHARED) f |= KIT_EMU_MAP_SHARED;
    if (fl & MAP_NORESERVE) f |= KIT_EMU_MAP_NORESERVE;
    int fd = (fl & MAP_ANONYMOUS) ? -1 : (int)a[4];
    if (fd < 0 && !(fl & MAP_ANONYMOUS)) return -EBADF;
    emu->map_src.fd = fd; /* the file tools see the mapping come from */
    emu->map_src.off = a[5];
    int64_t r = kit_aspace_map(as, a[0], a[1], (uint8_t)a[2], f, fd, a[5]);
    emu->map_src.fd = -1;
    emu->map_src.off = 0;
    return r;
  }
  case KIT_SYS_munmap:
    return kit_aspace_unmap(as, a[0], a[1]);
  case KIT_SYS_mprotect:
    if (a[2] & ~7ull) return -EINVAL;
    return kit_aspace_protect(as, a[0], a[1], (uint8_t)a[2]);
  case KIT_SYS_mremap:
    return kit_aspace_remap(as, a[0], a[1], a[2], (unsigned)a[3], a[4]);
  case KIT_SYS_madvise:
    if (a[2] == MADV_DONTNEED) return kit_aspace_dontneed(as, a[0], a[1]);
    return 0; /* advice only */
  case KIT_SYS_msync:
    if (a[0] % KIT_EMU_PAGE) return -EINVAL;
    if (!kit_aspace_check(as, a[0], a[1], 0)) return -ENOMEM;
    return msync(kit_aspace_host(as, a[0]), a[1], (int)a[2]) < 0 ? -errno : 0;
  default:
    *handled = false;
    return 0;
  }
}
