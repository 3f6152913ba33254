/* emu/syscall.h — the Linux generic (asm-generic/unistd.h) system call
 * numbers the emulator knows (an arch's own calls come from
 * KitArch.extra_syscalls), one table used by the dispatcher, -d syscall and --strace,
 * and the guest-pointer helpers shared by the syscall files. */
#ifndef KIT_EMU_SYSCALL_H
#define KIT_EMU_SYSCALL_H

#include "os.h"

#include <errno.h>

#define KIT_EMU_SYSCALLS(X)                                                                              \
  X(5, setxattr) X(6, lsetxattr) X(7, fsetxattr) X(8, getxattr) X(9, lgetxattr) X(10, fgetxattr)          \
  X(11, listxattr) X(12, llistxattr) X(13, flistxattr) X(14, removexattr) X(15, lremovexattr)           \
  X(16, fremovexattr) X(26, inotify_init1) X(27, inotify_add_watch) X(28, inotify_rm_watch)              \
  X(32, flock) X(33, mknodat) X(39, umount2) X(40, mount) X(43, statfs) X(44, fstatfs) X(45, truncate) X(47, fallocate) X(76, splice) \
  X(81, sync) X(85, timerfd_create) X(86, timerfd_settime) X(87, timerfd_gettime) X(213, readahead)      \
  X(223, fadvise64) X(267, syncfs) X(279, memfd_create) X(285, copy_file_range)                          \
  X(90, capget) X(91, capset) X(92, personality) X(95, waitid) X(118, sched_setparam)                   \
  X(119, sched_setscheduler) X(120, sched_getscheduler) X(121, sched_getparam) X(122, sched_setaffinity) \
  X(125, sched_get_priority_max) X(126, sched_get_priority_min) X(127, sched_rr_get_interval)            \
  X(140, setpriority) X(141, getpriority) X(143, setregid) X(144, setgid) X(145, setreuid) X(146, setuid) \
  X(147, setresuid) X(148, getresuid) X(149, setresgid) X(150, getresgid) X(151, setfsuid)              \
  X(152, setfsgid) X(153, times) X(158, getgroups) X(159, setgroups) X(168, getcpu) X(228, mlock)        \
  X(229, munlock) X(230, mlockall) X(231, munlockall) X(232, mincore) X(283, membarrier)                 \
  X(17, getcwd) X(74, signalfd4) X(19, eventfd2) X(20, epoll_create1) X(21, epoll_ctl) X(22, epoll_pwait) X(23, dup) X(24, dup3) X(25, fcntl) X(29, ioctl) X(34, mkdirat) X(35, unlinkat)           \
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

/* a host call's result as the guest's: -errno on failure */
static inline int64_t neg(long r) { return r < 0 ? -errno : r; }

/* guest pointers: NULL when [va, va+n) is not accessible as asked */
static inline void *kit_emu_gr(KitEmu *emu, uint64_t va, uint64_t n) {
  return kit_aspace_check(&emu->as, va, n, KIT_EMU_PROT_READ) ? kit_aspace_host(&emu->as, va) : NULL;
}
static inline void *kit_emu_gw(KitEmu *emu, uint64_t va, uint64_t n) {
  return kit_aspace_prep_write(&emu->as, va, n) == 0 ? kit_aspace_host(&emu->as, va) : NULL;
}

#endif
