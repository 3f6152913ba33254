/* tests/emu/guest/sysmisc.c — the less common system calls real programs
 * make (coreutils, Python, daemons): statfs, truncate, flock, fallocate,
 * sync, xattrs, inotify, memfd, copy_file_range, splice, fadvise,
 * readahead, mknodat, timerfd, times, waitid, credentials, groups, getcpu,
 * the scheduler, priorities, personality, capabilities, membarrier, mlock,
 * mincore. Prints results that do not depend on the machine (errno names
 * where a call may fail), so qemu-riscv64's output is the oracle.
 * usage: sysmisc DIR (a scratch directory) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/times.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

static const char *res(long r) { return r < 0 ? strerrorname_np(errno) : "ok"; }

int main(int argc, char **argv) {
  if (argc < 2 || chdir(argv[1])) return 2;
  struct statfs sf, sf2;
  const char *e = res(statfs(".", &sf));
  printf("statfs: %s, bsize>0 %d\n", e, sf.f_bsize > 0);
  int fd = open("f", O_RDWR | O_CREAT | O_TRUNC, 0644);
  e = res(fstatfs(fd, &sf2));
  printf("fstatfs: %s, same type %d\n", e, sf.f_type == sf2.f_type);
  printf("statfs of a missing path: %s\n", res(statfs("nonexistent/x", &sf)));
  if (write(fd, "0123456789", 10) != 10) return 3;
  struct stat st;
  printf("truncate: %s", res(truncate("f", 4)));
  fstat(fd, &st);
  printf(", size %lld\n", (long long)st.st_size);
  printf("flock: %s", res(flock(fd, LOCK_EX)));
  int fd2 = open("f", O_RDONLY);
  printf(", a second LOCK_NB: %s", res(flock(fd2, LOCK_EX | LOCK_NB)));
  printf(", unlock %s\n", res(flock(fd, LOCK_UN)));
  long r = fallocate(fd, 0, 0, 8192);
  fstat(fd, &st);
  printf("fallocate: %s, size %lld\n", r < 0 && errno == EOPNOTSUPP ? "EOPNOTSUPP" : res(r),
         (long long)(r < 0 ? 8192 : st.st_size));
  sync();
  printf("syncfs: %s, fadvise: %d, readahead: %s\n", res(syncfs(fd)), posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL),
         res(readahead(fd, 0, 4096)));
  r = fsetxattr(fd, "user.kit", "v1", 2, 0);
  if (r < 0 && errno == EOPNOTSUPP) {
    puts("xattr: not supported here");
  } else {
    char v[16] = {0}, list[64];
    long n = getxattr("f", "user.kit", v, sizeof v);
    long ln = listxattr("f", list, sizeof list);
    long lg = lgetxattr("f", "user.kit", v, sizeof v), fg = fgetxattr(fd, "user.kit", v, sizeof v);
    printf("xattr: set %s, get %ld '%s', list has it %d, lget %ld, fget %ld", res(r), n, v,
           ln > 0 && memmem(list, (size_t)ln, "user.kit", 9) != NULL, lg, fg);
    e = res(removexattr("f", "user.kit"));
    printf(", remove %s", e);
    printf(", get now %s\n", res(getxattr("f", "user.kit", v, sizeof v)));
  }
  int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  int w = inotify_add_watch(in, ".", IN_CREATE);
  close(open("created", O_CREAT | O_WRONLY, 0644));
  char ev[256];
  long n = read(in, ev, sizeof ev);
  ssize_t k;
  struct inotify_event *ie = (struct inotify_event *)ev;
  printf("inotify: watch %s, event %s for %s", res(w), n > 0 && (ie->mask & IN_CREATE) ? "IN_CREATE" : "none",
         n > 0 && ie->len ? ie->name : "-");
  printf(", rm %s\n", res(inotify_rm_watch(in, w)));
  int mfd = memfd_create("kit", MFD_CLOEXEC);
  char b[16] = {0};
  printf("memfd: %s, write %zd", res(mfd), write(mfd, "memfd data", 10));
  k = pread(mfd, b, sizeof b, 0);
  printf(", reads '%.*s'\n", (int)k, b);
  int src = open("src", O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (write(src, "copied data", 11) != 11) return 4;
  loff_t o1 = 0, o2 = 0;
  int out = open("copy", O_RDWR | O_CREAT | O_TRUNC, 0644);
  k = copy_file_range(src, &o1, out, &o2, 11, 0);
  printf("copy_file_range: %zd, offsets %lld %lld", k, (long long)o1, (long long)o2);
  k = pread(out, b, sizeof b, 0);
  printf(", copy reads '%.*s'\n", (int)k, b);
  int p[2];
  if (pipe(p)) return 4;
  loff_t so = 2;
  k = splice(out, &so, p[1], NULL, 5, 0);
  printf("splice: %zd", k);
  if (k > 0) k = read(p[0], b, sizeof b);
  printf(" '%.*s', offset %lld\n", k > 0 ? (int)k : 0, b, (long long)so);
  printf("mknodat fifo: %s\n", res(mknodat(AT_FDCWD, "fifo", S_IFIFO | 0600, 0)));
  int tf = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  struct itimerspec its = {.it_value = {0, 2000000}}, cur;
  printf("timerfd: %s", res(tf));
  printf(", set %s", res(timerfd_settime(tf, 0, &its, NULL)));
  uint64_t ticks = 0;
  k = read(tf, &ticks, 8);
  e = res(timerfd_gettime(tf, &cur));
  printf(", read %zd ticks %llu, get %s, disarmed %d\n", k, (unsigned long long)ticks, e,
         cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec == 0);
  struct tms t;
  printf("times: %s\n", times(&t) == (clock_t)-1 ? strerrorname_np(errno) : "ok");
  fflush(stdout);
  pid_t c = fork();
  if (c == 0) _exit(7);
  siginfo_t si;
  memset(&si, 0, sizeof si);
  e = res(waitid(P_PID, (id_t)c, &si, WEXITED));
  printf("waitid: %s, pid ok %d, code %s, status %d\n", e, si.si_pid == c,
         si.si_code == CLD_EXITED ? "CLD_EXITED" : "other", si.si_status);
  uid_t ru, eu, su;
  gid_t rg, eg, sg;
  getresuid(&ru, &eu, &su), getresgid(&rg, &eg, &sg);
  printf("getresuid: matches %d, getresgid: matches %d\n", ru == getuid() && eu == geteuid(), rg == getgid() && eg == getegid());
  printf("setuid to itself: %s, setresgid to itself: %s\n", res(setuid(getuid())), res(setresgid(-1, getegid(), -1)));
  int ng = getgroups(0, NULL);
  gid_t gs[256];
  int ng2 = getgroups(256, gs);
  printf("getgroups: count ok %d\n", ng >= 0 && ng2 == ng);
  unsigned cpu = 99, node = 99;
  e = res(syscall(SYS_getcpu, &cpu, &node, NULL));
  printf("getcpu: %s, cpu below CPU_SETSIZE %d\n", e, cpu < CPU_SETSIZE);
  cpu_set_t set;
  sched_getaffinity(0, sizeof set, &set);
  printf("sched_setaffinity (the same set): %s\n", res(sched_setaffinity(0, sizeof set, &set)));
  struct sched_param sp = {-1};
  e = res(sched_getparam(0, &sp));
  printf("scheduler: %s, param %s prio %d, max %d min %d", sched_getscheduler(0) == SCHED_OTHER ? "SCHED_OTHER" : "other",
         e, sp.sched_priority, sched_get_priority_max(SCHED_FIFO), sched_get_priority_min(SCHED_FIFO));
  struct timespec rr;
  printf(", rr interval %s\n", res(sched_rr_get_interval(0, &rr)));
  errno = 0;
  int prio = getpriority(PRIO_PROCESS, 0);
  printf("getpriority: %s, setpriority (the same): %s\n", errno ? strerrorname_np(errno) : "ok",
         res(setpriority(PRIO_PROCESS, 0, prio)));
  printf("personality query: %s\n", personality(0xffffffff) == -1 ? strerrorname_np(errno) : "ok");
  struct __user_cap_header_struct ch = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct cd[2];
  printf("capget: %s\n", res(syscall(SYS_capget, &ch, cd)));
  printf("membarrier query: %s\n", res(syscall(SYS_membarrier, 0, 0, 0)));
  char *page = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  page[0] = 1;
  unsigned char vec[2];
  e = res(mincore(page, 8192, vec));
  printf("mincore: %s, first page resident %d", e, vec[0] & 1);
  r = mlock(page, 4096);
  printf(", mlock %s", r < 0 && (errno == EPERM || errno == ENOMEM) ? "refused" : res(r));
  printf(", munlock %s\n", res(munlock(page, 4096)));
  printf("mincore of an unmapped range: %s\n", res(mincore((void *)(uintptr_t)0x1000, 4096, vec)));
  /* a pseudo-terminal: TIOCSPTLCK, TIOCGPTN, then data through it; FIOCLEX */
  int m = posix_openpt(O_RDWR | O_NOCTTY);
  if (m < 0) {
    printf("ptmx: %s\n", strerrorname_np(errno));
  } else {
    e = res(unlockpt(m));
    char *name = ptsname(m);
    int sl = name ? open(name, O_RDWR | O_NOCTTY) : -1;
    printf("pty: unlockpt %s, ptsname %s, open %s", e, name && !strncmp(name, "/dev/pts/", 9) ? "/dev/pts/N" : "?",
           sl >= 0 ? "ok" : strerrorname_np(errno));
    e = res(ioctl(m, FIOCLEX));
    printf(", FIOCLEX %s cloexec %d", e, (fcntl(m, F_GETFD) & FD_CLOEXEC) != 0);
    if (sl >= 0 && write(sl, "out\n", 4) == 4) {
      char pb[16];
      k = read(m, pb, sizeof pb);
      printf(", through: %zd bytes", k);
    }
    int q = -1;
    e = res(ioctl(m, TIOCOUTQ, &q));
    printf(", TIOCOUTQ %s %d\n", e, q);
  }
  return 0;
}
