/* emu/syscall_fs.c — file and descriptor system calls: guest fds are host
 * fds; paths under the sysroot shadow absolute host paths (as qemu -L does);
 * struct stat is translated from the host layout to the generic one. */
#include "modules.h"
#include "rlimits.h"
#include "syscall.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <linux/loop.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/timerfd.h>
#include <sys/xattr.h>
#include <linux/limits.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* asm-generic's struct stat (the 64-bit ports on the generic syscall
 * table), 128 bytes */
typedef struct GenericStat {
  uint64_t dev, ino;
  uint32_t mode, nlink, uid, gid;
  uint64_t rdev, pad1;
  int64_t size;
  int32_t blksize, pad2;
  int64_t blocks;
  int64_t atime, atime_ns, mtime, mtime_ns, ctime, ctime_ns;
  uint32_t unused[2];
} GenericStat;
_Static_assert(sizeof(GenericStat) == 128, "asm-generic struct stat is 128 bytes");
/* what passes through as it is: the generic layouts are the host's */
_Static_assert(sizeof(struct statfs) == 120, "struct statfs is asm-generic's 120 bytes");
_Static_assert(sizeof(struct itimerspec) == 32, "struct itimerspec is 32 bytes");
_Static_assert(sizeof(struct loop_info64) == 232, "struct loop_info64 is 232 bytes");


/* copy a guest path and apply the sysroot; returns -errno or 0 */
static int path_in(KitEmu *emu, uint64_t va, char *out, size_t size) {
  char p[PATH_MAX];
  int64_t n = kit_aspace_strncpy(&emu->as, va, p, sizeof p);
  if (n < 0) return (int)n;
  if (p[0] == '/' && p[1] && emu->sysroot[0] && strncmp(p, "/proc", 5) != 0 && strncmp(p, "/dev", 4) != 0) {
    size_t ls = strlen(emu->sysroot), lp = strlen(p);
    if (ls + lp < size) {
      memcpy(out, emu->sysroot, ls);
      memcpy(out + ls, p, lp + 1);
      if (access(out, F_OK) == 0) return 0;
    }
  }
  if ((size_t)n >= size) return -ENAMETOOLONG;
  memcpy(out, p, (size_t)n + 1);
  return 0;
}

static int64_t stat_out(KitEmu *emu, const struct stat *st, uint64_t va) {
  GenericStat r = {.dev = st->st_dev, .ino = st->st_ino, .mode = st->st_mode, .nlink = (uint32_t)st->st_nlink,
              .uid = st->st_uid, .gid = st->st_gid, .rdev = st->st_rdev, .size = st->st_size,
              .blksize = (int32_t)st->st_blksize, .blocks = st->st_blocks,
              .atime = st->st_atim.tv_sec, .atime_ns = st->st_atim.tv_nsec,
              .mtime = st->st_mtim.tv_sec, .mtime_ns = st->st_mtim.tv_nsec,
              .ctime = st->st_ctim.tv_sec, .ctime_ns = st->st_ctim.tv_nsec};
  return kit_aspace_write(&emu->as, va, &r, sizeof r) < 0 ? -EFAULT : 0;
}

static bool is_self_exe(const char *p) {
  return !strcmp(p, "/proc/self/exe") || !strcmp(p, "/proc/thread-self/exe");
}

/* ---- /proc files in the guest's terms ---------------------------------------------- */

/* "/proc/self/NAME", "/proc/thread-self/NAME" or "/proc/<our pid>/NAME" */
static bool proc_self(const char *p, const char *name) {
  char own[64];
  snprintf(own, sizeof own, "/proc/%d/%s", (int)getpid(), name);
  if (!strcmp(p, own)) return true;
  if (strncmp(p, "/proc/", 6)) return false;
  p += 6;
  if (!strncmp(p, "self/", 5)) p += 5;
  else if (!strncmp(p, "thread-self/", 12)) p += 12;
  else return false;
  return !strcmp(p, name);
}

/* one line as Linux's show_map_vma writes it, for [start, end) of region r */
static void maps_line(KitEmu *emu, FILE *f, const KitEmuRegion *r, uint64_t start, uint64_t end) {
  uint64_t off = 0;
  const char *path = kit_emu_files_at(emu, start, &off);
  struct stat st;
  unsigned long dev_major = 0, dev_minor = 0, ino = 0;
  if (path && stat(path, &st) == 0)
    dev_major = major(st.st_dev), dev_minor = minor(st.st_dev), ino = (unsigned long)st.st_ino;
  int n = fprintf(f, "%08llx-%08llx %c%c%cp %08llx %02lx:%02lx %lu ", (unsigned long long)start,
                  (unsigned long long)end, r->prot & KIT_EMU_PROT_READ ? 'r' : '-',
                  r->prot & KIT_EMU_PROT_WRITE ? 'w' : '-', r->prot & KIT_EMU_PROT_EXEC ? 'x' : '-',
                  (unsigned long long)(path ? off : 0), dev_major, dev_minor, ino);
  bool heap = r->kind == KIT_EMU_REG_BRK || (start < emu->as.brk_cur && emu->as.brk_start < end);
  const char *name = path ? path : heap ? "[heap]" : r->kind == KIT_EMU_REG_STACK ? "[stack]" : NULL;
  if (name) fprintf(f, "%*s%s", n < 73 ? 73 - n : 1, "", name);
  fputc('\n', f);
}

/* /proc/self/maps (the guest's mappings, not the emulator's) and
 * /proc/self/auxv (the guest's), as a file of their contents; -ENOENT when p
 * is neither */
static int proc_synth(KitEmu *emu, const char *p, int flags) {
  bool maps = proc_self(p, "maps"), auxv = proc_self(p, "auxv"), cmdline = proc_self(p, "cmdline"),
       environ_ = proc_self(p, "environ");
  if (!maps && !auxv && !cmdline && !environ_) return -ENOENT;
  if ((flags & O_ACCMODE) != O_RDONLY) return -EACCES;
  int fd = (int)syscall(SYS_memfd_create, "proc", (flags & O_CLOEXEC) ? 1u /* MFD_CLOEXEC */ : 0u);
  if (fd < 0) return -errno;
  FILE *f = fdopen(dup(fd), "w");
  if (!f) {
    close(fd);
    return -ENOMEM;
  }
  if (maps)
    for (size_t i = 0; i < emu->as.nregs; i++) {
      /* a region in lines as Linux's VMAs: a file's pages (contiguous in the
       * file), the rest after them (a data segment's bss, the heap) */
      const KitEmuRegion *r = &emu->as.regs[i];
      for (uint64_t at = r->start; at < r->end;) {
        uint64_t off = 0, e;
        const char *p = kit_emu_files_span(emu, at, &off, &e);
        if (e > r->end) e = r->end;
        if (!p && at < emu->as.brk_start && emu->as.brk_start < e) e = emu->as.brk_start;
        maps_line(emu, f, r, at, e);
        at = e;
      }
    }
  else if (auxv)
    fwrite(emu->auxv, 8, emu->auxv_words, f);
  else { /* the strings as they are now in guest memory (a program may rewrite its argv) */
    uint64_t lo = cmdline ? emu->arg_start : emu->env_start, hi = cmdline ? emu->arg_end : emu->env_end;
    const void *h = hi > lo ? kit_emu_gr(emu, lo, hi - lo) : NULL;
    if (h) fwrite(h, 1, hi - lo, f);
  }
  fclose(f);
  lseek(fd, 0, SEEK_SET);
  return fd;
}

static int64_t do_iov(KitEmu *emu, uint64_t nr, int fd, uint64_t iov_va, uint64_t cnt) {
  if (cnt > 1024) return -EINVAL;
  const uint64_t *gi = kit_emu_gr(emu, iov_va, cnt * 16);
  if (!gi && cnt) return -EFAULT;
  struct iovec iov[1024];
  for (uint64_t i = 0; i < cnt; i++) {
    uint64_t base = gi[2 * i], len = gi[2 * i + 1];
    void *h = nr == KIT_SYS_writev ? kit_emu_gr(emu, base, len) : kit_emu_gw(emu, base, len);
    if (!h && len) return -EFAULT;
    iov[i].iov_base = h;
    iov[i].iov_len = len;
  }
  return neg(KIT_EMU_BLOCKING(emu, nr == KIT_SYS_writev ? writev(fd, iov, (int)cnt) : readv(fd, iov, (int)cnt)));
}

/* setxattr/getxattr and their l and f forms: name, value, size (flags) */
static int64_t do_xattr(KitEmu *emu, uint64_t nr, const uint64_t a[6]) {
  char path[PATH_MAX + 64], name[XATTR_NAME_MAX + 1];
  int r;
  if (kit_aspace_strncpy(&emu->as, a[1], name, sizeof name) < 0) return -ERANGE;
  bool set = nr == KIT_SYS_setxattr || nr == KIT_SYS_lsetxattr || nr == KIT_SYS_fsetxattr;
  void *v = a[2] ? (set ? kit_emu_gr(emu, a[2], a[3]) : kit_emu_gw(emu, a[2], a[3])) : NULL;
  if (!v && a[2] && a[3]) return -EFAULT;
  bool byfd = nr == KIT_SYS_fsetxattr || nr == KIT_SYS_fgetxattr, link = nr == KIT_SYS_lsetxattr || nr == KIT_SYS_lgetxattr;
  if (byfd) {
    if (kit_emu_fd_reserved((int)a[0])) return -EBADF;
    return neg(set ? fsetxattr((int)a[0], name, v, a[3], (int)a[4]) : fgetxattr((int)a[0], name, v, a[3]));
  }
  if ((r = path_in(emu, a[0], path, sizeof path)) < 0) return r;
  if (set) return neg(link ? lsetxattr(path, name, v, a[3], (int)a[4]) : setxattr(path, name, v, a[3], (int)a[4]));
  return neg(link ? lgetxattr(path, name, v, a[3]) : getxattr(path, name, v, a[3]));
}

typedef struct {
  void *fds;
  uint64_t n;
  struct timespec *ts, limit;
} PpollArgs;
static long ppoll_under(const sigset_t *mask, void *ctx) {
  PpollArgs *p = ctx;
  return syscall(SYS_ppoll, p->fds, p->n, p->ts, mask, 8);
}

int64_t kit_emu_sys_fs(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled) {
  char path[PATH_MAX + 64], path2[PATH_MAX + 64];
  int r;
  int fd = (int)a[0];
  *handled = true;
  /* the emulator's own descriptors are not the guest's (rlimits.h) */
  switch (nr) {
  case KIT_SYS_close:
    if (kit_emu_fd_reserved(fd)) return -EBADF;
    break;
  case KIT_SYS_dup3:
    if (kit_emu_fd_reserved((int)a[1])) return -EBADF; /* as for a number past the limit */
    /* fall through */
  case KIT_SYS_read: case KIT_SYS_write: case KIT_SYS_pread64: case KIT_SYS_pwrite64: case KIT_SYS_readv:
  case KIT_SYS_writev: case KIT_SYS_lseek: case KIT_SYS_dup: case KIT_SYS_fcntl: case KIT_SYS_ioctl:
  case KIT_SYS_getdents64: case KIT_SYS_fstat: case KIT_SYS_fchmod: case KIT_SYS_fchown: case KIT_SYS_fchdir:
  case KIT_SYS_ftruncate: case KIT_SYS_fsync: case KIT_SYS_fdatasync: case KIT_SYS_fstatfs: case KIT_SYS_flock:
  case KIT_SYS_fallocate: case KIT_SYS_syncfs: case KIT_SYS_fadvise64: case KIT_SYS_readahead:
  case KIT_SYS_flistxattr: case KIT_SYS_fremovexattr: case KIT_SYS_inotify_add_watch: case KIT_SYS_inotify_rm_watch:
  case KIT_SYS_timerfd_settime: case KIT_SYS_timerfd_gettime:
    if (kit_emu_fd_reserved(fd)) return -EBADF;
    break;
  case KIT_SYS_copy_file_range: case KIT_SYS_splice:
    if (kit_emu_fd_reserved(fd) || kit_emu_fd_reserved((int)a[2])) return -EBADF;
    break;
  case KIT_SYS_sendfile:
    if (kit_emu_fd_reserved(fd) || kit_emu_fd_reserved((int)a[1])) return -EBADF;
    break;
  default:
    break;
  }
  switch (nr) {
  case KIT_SYS_openat:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    if (is_self_exe(path)) snprintf(path, sizeof path, "%s", emu->exe_path);
    if ((r = proc_synth(emu, path, (int)a[2])) != -ENOENT) return r;
    return neg(KIT_EMU_BLOCKING(emu, openat(fd, path, (int)a[2], (mode_t)a[3]))); /* a FIFO waits */
  case KIT_SYS_close:
    kit_emu_signalfd_closed(emu, fd, fd);
    return neg(close(fd));
  case KIT_SYS_read: {
    if (kit_emu_is_signalfd(emu, fd)) return kit_emu_signalfd_read(emu, fd, a[1], a[2]);
    void *h = kit_emu_gw(emu, a[1], a[2]);
    if (!h && a[2]) return -EFAULT;
    return neg(KIT_EMU_BLOCKING(emu, read(fd, h, a[2])));
  }
  case KIT_SYS_write: {
    void *h = kit_emu_gr(emu, a[1], a[2]);
    if (!h && a[2]) return -EFAULT;
    return neg(KIT_EMU_BLOCKING(emu, write(fd, h, a[2])));
  }
  case KIT_SYS_pread64:
  case KIT_SYS_pwrite64: {
    void *h = nr == KIT_SYS_pread64 ? kit_emu_gw(emu, a[1], a[2]) : kit_emu_gr(emu, a[1], a[2]);
    if (!h && a[2]) return -EFAULT;
    return neg(KIT_EMU_BLOCKING(emu, nr == KIT_SYS_pread64 ? pread(fd, h, a[2], (off_t)a[3])
                                                           : pwrite(fd, h, a[2], (off_t)a[3])));
  }
  case KIT_SYS_readv:
  case KIT_SYS_writev:
    return do_iov(emu, nr, fd, a[1], a[2]);
  case KIT_SYS_lseek:
    return neg(lseek(fd, (off_t)a[1], (int)a[2]));
  case KIT_SYS_dup:
    return neg(dup(fd));
  case KIT_SYS_dup3:
    if ((r = dup3(fd, (int)a[1], (int)a[2])) < 0) return -errno;
    kit_emu_signalfd_closed(emu, (int)a[1], (int)a[1]); /* the one it replaced */
    return r;
  case KIT_SYS_fcntl:
    /* the lock commands take a struct flock of identical layout; others an int */
    if (a[1] == F_GETLK || a[1] == F_SETLK || a[1] == F_SETLKW || a[1] == F_OFD_GETLK || a[1] == F_OFD_SETLK ||
        a[1] == F_OFD_SETLKW) {
      void *h = kit_emu_gw(emu, a[2], sizeof(struct flock));
      if (!h) return -EFAULT;
      return neg(KIT_EMU_BLOCKING(emu, fcntl(fd, (int)a[1], h))); /* F_SETLKW waits */
    }
    return neg(fcntl(fd, (int)a[1], a[2]));
  case KIT_SYS_ioctl:
    switch (a[1]) {
    /* asm-generic's numbers, which x86-64 shares: an int argument, or none */
    case FIOCLEX: case FIONCLEX: case TIOCSCTTY: case TIOCNOTTY: case TCFLSH: case TCSBRK: case TCXONC:
    case TCSBRKP: case TIOCSBRK: case TIOCCBRK:
      return neg(ioctl(fd, a[1], (long)a[2]));
    case TIOCOUTQ: case TIOCGPTN: case TIOCSPTLCK: case TIOCGSID: case TIOCMGET: case TIOCMSET: case TIOCMBIS:
    case TIOCMBIC: case TIOCGETD: case TIOCSETD: case FIOASYNC: case TIOCEXCL: case TIOCNXCL: case TIOCGEXCL:
    case TIOCGPKT: case TIOCPKT: case TIOCSTI: {
      bool noarg = a[1] == TIOCEXCL || a[1] == TIOCNXCL;
      void *h = noarg ? NULL : kit_emu_gw(emu, a[2], a[1] == TIOCSTI ? 1 : 4);
      if (!h && !noarg) return -EFAULT;
      return neg(ioctl(fd, a[1], h));
    }
    /* loop devices (mount -o loop): struct loop_info64 and loop_config have one layout */
    case LOOP_SET_FD: case LOOP_CLR_FD: case LOOP_CTL_GET_FREE: case LOOP_CTL_ADD: case LOOP_CTL_REMOVE:
    case LOOP_SET_CAPACITY: case LOOP_SET_DIRECT_IO: case LOOP_SET_BLOCK_SIZE:
      return neg(ioctl(fd, a[1], (long)a[2]));
    case LOOP_SET_STATUS64: case LOOP_GET_STATUS64: case LOOP_CONFIGURE: {
      void *h = kit_emu_gw(emu, a[2], a[1] == LOOP_CONFIGURE ? sizeof(struct loop_config) : sizeof(struct loop_info64));
      if (!h) return -EFAULT;
      return neg(ioctl(fd, a[1], h));
    }
    case TCGETS: case TCSETS: case TCSETSW: case TCSETSF: case TIOCGWINSZ: case TIOCSWINSZ:
    case TIOCGPGRP: case TIOCSPGRP: case FIONREAD: case FIONBIO: {
      size_t n = a[1] == TIOCGWINSZ || a[1] == TIOCSWINSZ ? 8 : (a[1] >= TCGETS && a[1] <= TCSETSF) ? 36 : 4;
      void *h = kit_emu_gw(emu, a[2], n);
      if (!h) return -EFAULT;
      return neg(ioctl(fd, a[1], h));
    }
    default:
      return -ENOTTY;
    }
  case KIT_SYS_pipe2: {
    int p[2];
    if (pipe2(p, (int)a[1]) < 0) return -errno;
    if (kit_aspace_write(&emu->as, a[0], p, sizeof p) < 0) {
      close(p[0]), close(p[1]);
      return -EFAULT;
    }
    return 0;
  }
  case KIT_SYS_getdents64: {
    void *h = kit_emu_gw(emu, a[1], a[2]);
    if (!h) return -EFAULT;
    return neg(syscall(SYS_getdents64, fd, h, a[2]));
  }
  case KIT_SYS_newfstatat:
  case KIT_SYS_fstat: {
    struct stat st;
    if (nr == KIT_SYS_fstat) {
      if (fstat(fd, &st) < 0) return -errno;
      return stat_out(emu, &st, a[1]);
    }
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    if (is_self_exe(path)) snprintf(path, sizeof path, "%s", emu->exe_path);
    if (fstatat(fd, path, &st, (int)a[3]) < 0) return -errno;
    return stat_out(emu, &st, a[2]);
  }
  case KIT_SYS_statx: {
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    void *h = kit_emu_gw(emu, a[4], 256);
    if (!h) return -EFAULT;
    return neg(syscall(SYS_statx, fd, path, (int)a[2], (unsigned)a[3], h));
  }
  case KIT_SYS_faccessat:
  case KIT_SYS_faccessat2:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    return neg(faccessat(fd, path, (int)a[2], nr == KIT_SYS_faccessat2 ? (int)a[3] : 0));
  case KIT_SYS_readlinkat: {
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    void *h = kit_emu_gw(emu, a[2], a[3]);
    if (!h && a[3]) return -EFAULT;
    if (is_self_exe(path)) {
      size_t n = strlen(emu->exe_path);
      if (n > a[3]) n = a[3];
      memcpy(h, emu->exe_path, n);
      return (int64_t)n;
    }
    return neg(readlinkat(fd, path, h, a[3]));
  }
  case KIT_SYS_unlinkat:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    return neg(unlinkat(fd, path, (int)a[2]));
  case KIT_SYS_mkdirat:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    return neg(mkdirat(fd, path, (mode_t)a[2]));
  case KIT_SYS_renameat2:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    if ((r = path_in(emu, a[3], path2, sizeof path2)) < 0) return r;
    return neg(renameat2(fd, path, (int)a[2], path2, (unsigned)a[4]));
  case KIT_SYS_symlinkat:
    if (kit_aspace_strncpy(&emu->as, a[0], path2, PATH_MAX) < 0) return -EFAULT;
    if ((r = path_in(emu, a[2], path, sizeof path)) < 0) return r;
    return neg(symlinkat(path2, (int)a[1], path));
  case KIT_SYS_linkat:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    if ((r = path_in(emu, a[3], path2, sizeof path2)) < 0) return r;
    return neg(linkat(fd, path, (int)a[2], path2, (int)a[4]));
  case KIT_SYS_fchmodat:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    return neg(fchmodat(fd, path, (mode_t)a[2], 0));
  case KIT_SYS_fchownat:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    return neg(fchownat(fd, path, (uid_t)a[2], (gid_t)a[3], (int)a[4]));
  case KIT_SYS_fchmod:
    return neg(fchmod(fd, (mode_t)a[1]));
  case KIT_SYS_fchown:
    return neg(fchown(fd, (uid_t)a[1], (gid_t)a[2]));
  case KIT_SYS_utimensat: {
    const void *ts = a[2] ? kit_emu_gr(emu, a[2], 32) : NULL;
    if (a[2] && !ts) return -EFAULT;
    if (a[1]) {
      if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
      return neg(utimensat(fd, path, ts, (int)a[3]));
    }
    return neg(futimens(fd, ts));
  }
  case KIT_SYS_getcwd: {
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf)) return -errno;
    size_t n = strlen(buf) + 1;
    if (n > a[1]) return -ERANGE;
    if (kit_aspace_write(&emu->as, a[0], buf, n) < 0) return -EFAULT;
    return (int64_t)n;
  }
  case KIT_SYS_chdir:
    if ((r = path_in(emu, a[0], path, sizeof path)) < 0) return r;
    return neg(chdir(path));
  case KIT_SYS_fchdir:
    return neg(fchdir(fd));
  case KIT_SYS_ftruncate:
    return neg(ftruncate(fd, (off_t)a[1]));
  case KIT_SYS_fsync:
    return neg(fsync(fd));
  case KIT_SYS_fdatasync:
    return neg(fdatasync(fd));
  case KIT_SYS_umask:
    return umask((mode_t)a[0]);
  case KIT_SYS_sendfile: {
    off_t off, *po = NULL;
    if (a[2]) {
      if (kit_aspace_read(&emu->as, a[2], &off, 8) < 0) return -EFAULT;
      po = &off;
    }
    ssize_t n = sendfile(fd, (int)a[1], po, a[3]);
    if (n < 0) return -errno;
    if (po && kit_aspace_write(&emu->as, a[2], &off, 8) < 0) return -EFAULT;
    return n;
  }
  case KIT_SYS_ppoll: {
    /* struct pollfd has one layout; the time left is not written back (glibc hides it) */
    PpollArgs p = {kit_emu_gw(emu, a[0], a[1] * 8), a[1], NULL, {0, 0}};
    if (!p.fds && a[1]) return -EFAULT;
    if (a[2]) {
      if (kit_aspace_read(&emu->as, a[2], &p.limit, sizeof p.limit) < 0) return -EFAULT;
      p.ts = &p.limit;
    }
    return kit_emu_masked_wait(emu, a[3], a[4], ppoll_under, &p);
  }
  case KIT_SYS_mount: { /* source and target through the sysroot as other paths; data a string or binary */
    char fstype[256], *data = NULL;
    if (a[0] && (r = path_in(emu, a[0], path, sizeof path)) < 0) return r;
    if ((r = path_in(emu, a[1], path2, sizeof path2)) < 0) return r;
    if (a[2] && kit_aspace_strncpy(&emu->as, a[2], fstype, sizeof fstype) < 0) return -EFAULT;
    if (a[4] && !(data = kit_emu_gr(emu, a[4], 1))) return -EFAULT;
    return neg(mount(a[0] ? path : NULL, path2, a[2] ? fstype : NULL, a[3], data));
  }
  case KIT_SYS_umount2:
    if ((r = path_in(emu, a[0], path, sizeof path)) < 0) return r;
    return neg(umount2(path, (int)a[1]));
  case KIT_SYS_truncate:
    if ((r = path_in(emu, a[0], path, sizeof path)) < 0) return r;
    return neg(truncate(path, (off_t)a[1]));
  case KIT_SYS_statfs:
  case KIT_SYS_fstatfs: { /* struct statfs: one layout on the 64-bit ports */
    struct statfs st;
    if (nr == KIT_SYS_fstatfs) r = fstatfs(fd, &st);
    else if ((r = path_in(emu, a[0], path, sizeof path)) < 0) return r;
    else r = statfs(path, &st);
    if (r < 0) return -errno;
    return kit_aspace_write(&emu->as, a[1], &st, sizeof st) < 0 ? -EFAULT : 0;
  }
  case KIT_SYS_flock:
    return neg(KIT_EMU_BLOCKING(emu, flock(fd, (int)a[1])));
  case KIT_SYS_fallocate:
    return neg(fallocate(fd, (int)a[1], (off_t)a[2], (off_t)a[3]));
  case KIT_SYS_sync:
    sync();
    return 0;
  case KIT_SYS_syncfs:
    return neg(syncfs(fd));
  case KIT_SYS_fadvise64:
    return neg(syscall(SYS_fadvise64, fd, (off_t)a[1], (off_t)a[2], (int)a[3]));
  case KIT_SYS_readahead:
    return neg(readahead(fd, (off_t)a[1], a[2]));
  case KIT_SYS_mknodat:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    return neg(mknodat(fd, path, (mode_t)a[2], (dev_t)a[3]));
  case KIT_SYS_setxattr: case KIT_SYS_lsetxattr: case KIT_SYS_fsetxattr:
  case KIT_SYS_getxattr: case KIT_SYS_lgetxattr: case KIT_SYS_fgetxattr:
    return do_xattr(emu, nr, a);
  case KIT_SYS_listxattr: case KIT_SYS_llistxattr: case KIT_SYS_flistxattr: {
    void *h = a[1] ? kit_emu_gw(emu, a[1], a[2]) : NULL;
    if (!h && a[1] && a[2]) return -EFAULT;
    if (nr == KIT_SYS_flistxattr) return neg(flistxattr(fd, h, a[2]));
    if ((r = path_in(emu, a[0], path, sizeof path)) < 0) return r;
    return neg(nr == KIT_SYS_listxattr ? listxattr(path, h, a[2]) : llistxattr(path, h, a[2]));
  }
  case KIT_SYS_removexattr: case KIT_SYS_lremovexattr: case KIT_SYS_fremovexattr: {
    char name[XATTR_NAME_MAX + 1];
    if (kit_aspace_strncpy(&emu->as, a[1], name, sizeof name) < 0) return -ERANGE;
    if (nr == KIT_SYS_fremovexattr) return neg(fremovexattr(fd, name));
    if ((r = path_in(emu, a[0], path, sizeof path)) < 0) return r;
    return neg(nr == KIT_SYS_removexattr ? removexattr(path, name) : lremovexattr(path, name));
  }
  case KIT_SYS_inotify_init1:
    return neg(inotify_init1((int)a[0]));
  case KIT_SYS_inotify_add_watch:
    if ((r = path_in(emu, a[1], path, sizeof path)) < 0) return r;
    return neg(inotify_add_watch(fd, path, (uint32_t)a[2]));
  case KIT_SYS_inotify_rm_watch:
    return neg(inotify_rm_watch(fd, (int)a[1]));
  case KIT_SYS_memfd_create: {
    char name[250];
    if (kit_aspace_strncpy(&emu->as, a[0], name, sizeof name) < 0) return -EINVAL;
    return neg(memfd_create(name, (unsigned)a[1]));
  }
  case KIT_SYS_copy_file_range:
  case KIT_SYS_splice: { /* the offsets (loff_t *) may be NULL */
    void *o1 = a[1] ? kit_emu_gw(emu, a[1], 8) : NULL, *o2 = a[3] ? kit_emu_gw(emu, a[3], 8) : NULL;
    if ((a[1] && !o1) || (a[3] && !o2)) return -EFAULT;
    if (nr == KIT_SYS_splice) return neg(KIT_EMU_BLOCKING(emu, splice(fd, o1, (int)a[2], o2, a[4], (unsigned)a[5])));
    return neg(copy_file_range(fd, o1, (int)a[2], o2, a[4], (unsigned)a[5]));
  }
  case KIT_SYS_timerfd_create:
    return neg(timerfd_create((int)a[0], (int)a[1]));
  case KIT_SYS_timerfd_settime:
  case KIT_SYS_timerfd_gettime: { /* struct itimerspec: one layout */
    bool set = nr == KIT_SYS_timerfd_settime;
    const void *nv = set ? kit_emu_gr(emu, a[2], sizeof(struct itimerspec)) : NULL;
    uint64_t ova = set ? a[3] : a[1];
    void *ov = ova ? kit_emu_gw(emu, ova, sizeof(struct itimerspec)) : NULL;
    if ((set && !nv) || (ova && !ov)) return -EFAULT;
    return neg(set ? timerfd_settime(fd, (int)a[1], nv, ov) : timerfd_gettime(fd, ov));
  }
  case KIT_SYS_close_range: { /* around the emulator's own descriptors */
    uint64_t rs[2][2];
    int n = kit_emu_fd_ranges((unsigned)a[0], (unsigned)a[1], rs);
    for (int i = 0; i < n; i++) {
      if (syscall(SYS_close_range, (unsigned)rs[i][0], (unsigned)rs[i][1], (unsigned)a[2]) < 0) return -errno;
      if (!(a[2] & 4 /* CLOSE_RANGE_CLOEXEC */))
        kit_emu_signalfd_closed(emu, (int)rs[i][0], rs[i][1] > INT_MAX ? INT_MAX : (int)rs[i][1]);
    }
    return 0;
  }
  default:
    *handled = false;
    return 0;
  }
}
