/* emu/syscall.h — the Linux generic (asm-generic/unistd.h) system call
 * numbers the emulator knows (an arch's own calls come from
 * KitArch.extra_syscalls), one table used by the dispatcher, -d syscall and --strace,
 * and the guest-pointer helpers shared by the syscall files. */
#ifndef KIT_EMU_SYSCALL_H
#define KIT_EMU_SYSCALL_H

#include "os.h"

#define KIT_EMU_SYSCALLS(X)                                                                              \
  X(17, getcwd) X(19, eventfd2) X(20, epoll_create1) X(21, epoll_ctl) X(22, epoll_pwait) X(23, dup) X(24, dup3) X(25, fcntl) X(29, ioctl) X(34, mkdirat) X(35, unlinkat)           \
  X(36, symlinkat) X(37, linkat) X(46, ftruncate) X(48, faccessat) X(49, chdir) X(50, fchdir)             \
  X(52, fchmod) X(53, fchmodat) X(54, fchownat) X(55, fchown) X(56, openat) X(57, close) X(59, pipe2)     \
  X(61, getdents64) X(62, lseek) X(63, read) X(64, write) X(65, readv) X(66, writev) X(67, pread64)       \
  X(68, pwrite64) X(71, sendfile) X(72, pselect6) X(73, ppoll) X(78, readlinkat) X(79, newfstatat)        \
  X(80, fstat) X(82, fsync) X(83, fdatasync) X(88, utimensat) X(93, exit) X(94, exit_group)              \
  X(96, set_tid_address) X(98, futex) X(99, set_robust_list) X(101, nanosleep) X(102, getitimer)          \
  X(103, setitimer) X(113, clock_gettime) X(114, clock_getres) X(115, clock_nanosleep)                   \
  X(123, sched_getaffinity) X(124, sched_yield) X(129, kill) X(130, tkill) X(131, tgkill) X(132, sigaltstack)                      \
  X(133, rt_sigsuspend) X(134, rt_sigaction) X(135, rt_sigprocmask) X(136, rt_sigpending) X(137, rt_sigtimedwait)                 \
  X(139, rt_sigreturn) X(154, setpgid) X(155, getpgid) X(156, getsid) X(157, setsid) X(160, uname)        \
  X(163, getrlimit) X(164, setrlimit) X(165, getrusage) X(166, umask) X(167, prctl)                       \
  X(169, gettimeofday) X(172, getpid) X(173, getppid) X(174, getuid) X(175, geteuid) X(176, getgid)      \
  X(177, getegid) X(178, gettid) X(179, sysinfo) X(198, socket) X(199, socketpair) X(200, bind)           \
  X(201, listen) X(202, accept) X(203, connect) X(204, getsockname) X(205, getpeername) X(206, sendto)   \
  X(207, recvfrom) X(208, setsockopt) X(209, getsockopt) X(210, shutdown) X(211, sendmsg) X(212, recvmsg) \
  X(242, accept4) X(214, brk) X(215, munmap) X(216, mremap) X(220, clone) \
  X(221, execve) X(222, mmap) X(226, mprotect) X(227, msync) X(233, madvise) X(260, wait4)                \
  X(261, prlimit64) X(276, renameat2) X(278, getrandom)         \
  X(291, statx) X(293, rseq) X(435, clone3) X(436, close_range) X(439, faccessat2)

enum {
#define KIT_EMU_SYSENUM(n, name) KIT_SYS_##name = n,
  KIT_EMU_SYSCALLS(KIT_EMU_SYSENUM)
#undef KIT_EMU_SYSENUM
};

/* guest pointers: NULL when [va, va+n) is not accessible as asked */
static inline void *kit_emu_gr(KitEmu *emu, uint64_t va, uint64_t n) {
  return kit_aspace_check(&emu->as, va, n, KIT_EMU_PROT_READ) ? kit_aspace_host(&emu->as, va) : NULL;
}
static inline void *kit_emu_gw(KitEmu *emu, uint64_t va, uint64_t n) {
  return kit_aspace_prep_write(&emu->as, va, n) == 0 ? kit_aspace_host(&emu->as, va) : NULL;
}

#endif
