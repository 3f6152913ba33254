/* emu/syscall_net.c — sockets, eventfd, epoll and pselect for the guest (docs/emu.md,
 * "Syscalls"). The socket structures (sockaddr of every family, msghdr,
 * cmsghdr, iovec, linger, timeval options) have one layout on every 64-bit
 * Linux, so the calls pass through with their guest pointers made host
 * pointers, the pointers inside a msghdr too; struct epoll_event is the one
 * that differs (x86-64 packs it to 12 bytes, the generic layout pads it to
 * 16), so epoll copies it. The emulator's own descriptors are not the
 * guest's (rlimits.h): calls on them fail with EBADF. */
#include "internal.h"
#include "rlimits.h"
#include "syscall.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

/* a guest buffer [va, va+n) as a host pointer (NULL stays NULL; -EFAULT when
 * it is not accessible as asked) */
static int buf(KitEmu *emu, uint64_t va, uint64_t n, bool write, void **out) {
  *out = NULL;
  if (!va) return 0;
  *out = write ? kit_emu_gw(emu, va, n) : kit_emu_gr(emu, va, n);
  return *out || !n ? 0 : -EFAULT;
}

/* an address argument with its socklen_t* (accept, getsockname, recvfrom):
 * both host pointers */
static int addr_out(KitEmu *emu, uint64_t addr_va, uint64_t len_va, void **addr, socklen_t **len) {
  *addr = NULL, *len = NULL;
  if (!addr_va) return 0;
  if (!(*len = kit_emu_gw(emu, len_va, sizeof(socklen_t)))) return -EFAULT;
  return buf(emu, addr_va, **len, true, addr);
}

/* the guest's msghdr at va as a host one (its iovecs in iov, at most 1024),
 * the buffers writable for recvmsg */
static int msg_in(KitEmu *emu, uint64_t va, bool write, struct msghdr *m, struct iovec *iov, uint64_t **gm) {
  uint64_t *g = write ? kit_emu_gw(emu, va, 56) : kit_emu_gr(emu, va, 56); /* recvmsg writes its lengths and flags back */
  if (!g) return -EFAULT;
  *gm = g;
  memset(m, 0, sizeof *m);
  uint32_t namelen = (uint32_t)g[1];
  uint64_t iovlen = g[3];
  if (iovlen > 1024) return -EMSGSIZE;
  int r;
  void *p;
  if ((r = buf(emu, g[0], namelen, write, &p)) < 0) return r;
  m->msg_name = p, m->msg_namelen = p ? namelen : 0;
  const uint64_t *gi = kit_emu_gr(emu, g[2], iovlen * 16);
  if (!gi && iovlen) return -EFAULT;
  for (uint64_t i = 0; i < iovlen; i++) {
    if ((r = buf(emu, gi[2 * i], gi[2 * i + 1], write, &p)) < 0) return r;
    iov[i].iov_base = p, iov[i].iov_len = gi[2 * i + 1];
  }
  m->msg_iov = iov, m->msg_iovlen = iovlen;
  if ((r = buf(emu, g[4], g[5], write, &p)) < 0) return r;
  m->msg_control = p, m->msg_controllen = p ? g[5] : 0;
  m->msg_flags = (int)(uint32_t)g[6];
  return 0;
}

/* the generic struct epoll_event: u32 events, 4 bytes of padding, u64 data */
typedef struct GuestEpollEvent {
  uint32_t events, pad;
  uint64_t data;
} GuestEpollEvent;

#define MAX_EPOLL_EVENTS 1024

/* the waits with a signal mask, as kit_emu_masked_wait calls them */
typedef struct {
  int fd, max, timeout;
  struct epoll_event ev[MAX_EPOLL_EVENTS];
} EpollArgs;
static long epoll_under(const sigset_t *mask, void *ctx) {
  EpollArgs *e = ctx;
  return epoll_pwait(e->fd, e->ev, e->max, e->timeout, mask);
}
typedef struct {
  int n;
  void *set[3], *ts;
} PselectArgs;
static long pselect_under(const sigset_t *mask, void *ctx) {
  PselectArgs *p = ctx;
  struct { const sigset_t *ss; size_t len; } m = {mask, 8};
  return syscall(SYS_pselect6, p->n, p->set[0], p->set[1], p->set[2], p->ts, &m);
}

int64_t kit_emu_sys_net(KitEmu *emu, uint64_t nr, const uint64_t a[6], bool *handled) {
  int fd = (int)a[0], r;
  *handled = true;
  switch (nr) {
  case KIT_SYS_epoll_ctl:
    if (kit_emu_fd_reserved(fd) || kit_emu_fd_reserved((int)a[2])) return -EBADF;
    break;
  case KIT_SYS_epoll_pwait: case KIT_SYS_bind: case KIT_SYS_listen: case KIT_SYS_accept: case KIT_SYS_connect:
  case KIT_SYS_getsockname: case KIT_SYS_getpeername: case KIT_SYS_sendto: case KIT_SYS_recvfrom:
  case KIT_SYS_setsockopt: case KIT_SYS_getsockopt: case KIT_SYS_shutdown: case KIT_SYS_sendmsg:
  case KIT_SYS_recvmsg: case KIT_SYS_accept4:
    if (kit_emu_fd_reserved(fd)) return -EBADF;
    break;
  default:
    break;
  }
  void *p, *q;
  socklen_t *lp;
  switch (nr) {
  case KIT_SYS_eventfd2:
    return neg(eventfd((unsigned)a[0], (int)a[1]));
  case KIT_SYS_epoll_create1:
    return neg(epoll_create1((int)a[0]));
  case KIT_SYS_epoll_ctl: {
    struct epoll_event ev = {0};
    if (a[3]) {
      const GuestEpollEvent *g = kit_emu_gr(emu, a[3], sizeof *g);
      if (!g) return -EFAULT;
      ev.events = g->events, ev.data.u64 = g->data;
    }
    return neg(epoll_ctl(fd, (int)a[1], (int)a[2], a[3] ? &ev : NULL));
  }
  case KIT_SYS_epoll_pwait: {
    int max = (int)a[2];
    if (max <= 0) return -EINVAL;
    if (max > MAX_EPOLL_EVENTS) max = MAX_EPOLL_EVENTS;
    GuestEpollEvent *g = kit_emu_gw(emu, a[1], (uint64_t)max * sizeof *g);
    if (!g) return -EFAULT;
    EpollArgs e = {fd, max, (int)a[3], {{0}}};
    int64_t n = kit_emu_masked_wait(emu, a[4], a[5], epoll_under, &e);
    for (int64_t i = 0; i < n; i++) g[i] = (GuestEpollEvent){e.ev[i].events, 0, e.ev[i].data.u64};
    return n;
  }
  case KIT_SYS_pselect6: { /* fd_set and timespec: one layout */
    size_t setsz = ((a[0] + 63) / 64) * 8;
    PselectArgs p = {(int)a[0], {NULL, NULL, NULL}, NULL};
    if (a[0] > 65536) return -EINVAL;
    for (int k = 0; k < 3; k++)
      if ((r = buf(emu, a[1 + k], setsz, true, &p.set[k])) < 0) return r;
    if ((r = buf(emu, a[4], 16, true, &p.ts)) < 0) return r;
    /* a[5]: {the mask's address, its size}, or 0 */
    uint64_t sig[2] = {0, 0};
    if (a[5] && kit_aspace_read(&emu->as, a[5], sig, sizeof sig) < 0) return -EFAULT;
    return kit_emu_masked_wait(emu, sig[0], sig[1], pselect_under, &p);
  }
  case KIT_SYS_socket:
    return neg(socket((int)a[0], (int)a[1], (int)a[2]));
  case KIT_SYS_socketpair: {
    int sv[2];
    int *g = kit_emu_gw(emu, a[3], sizeof sv);
    if (!g) return -EFAULT;
    if (socketpair((int)a[0], (int)a[1], (int)a[2], sv) < 0) return -errno;
    memcpy(g, sv, sizeof sv);
    return 0;
  }
  case KIT_SYS_bind:
  case KIT_SYS_connect:
    if ((r = buf(emu, a[1], a[2], false, &p)) < 0) return r;
    if (nr == KIT_SYS_bind) return neg(bind(fd, p, (socklen_t)a[2]));
    return neg(KIT_EMU_BLOCKING(emu, connect(fd, p, (socklen_t)a[2])));
  case KIT_SYS_listen:
    return neg(listen(fd, (int)a[1]));
  case KIT_SYS_accept:
  case KIT_SYS_accept4:
    if ((r = addr_out(emu, a[1], a[2], &p, &lp)) < 0) return r;
    return neg(KIT_EMU_BLOCKING(emu, accept4(fd, p, lp, nr == KIT_SYS_accept4 ? (int)a[3] : 0)));
  case KIT_SYS_getsockname:
  case KIT_SYS_getpeername:
    if (!(lp = kit_emu_gw(emu, a[2], sizeof *lp))) return -EFAULT;
    if ((r = buf(emu, a[1], *lp, true, &p)) < 0) return r;
    return neg(nr == KIT_SYS_getsockname ? getsockname(fd, p, lp) : getpeername(fd, p, lp));
  case KIT_SYS_sendto:
    if ((r = buf(emu, a[1], a[2], false, &p)) < 0 || (r = buf(emu, a[4], a[5], false, &q)) < 0) return r;
    return neg(KIT_EMU_BLOCKING(emu, sendto(fd, p, a[2], (int)a[3], q, (socklen_t)a[5])));
  case KIT_SYS_recvfrom:
    if ((r = buf(emu, a[1], a[2], true, &p)) < 0 || (r = addr_out(emu, a[4], a[5], &q, &lp)) < 0) return r;
    return neg(KIT_EMU_BLOCKING(emu, recvfrom(fd, p, a[2], (int)a[3], q, lp)));
  case KIT_SYS_setsockopt:
    if ((r = buf(emu, a[3], a[4], false, &p)) < 0) return r;
    return neg(setsockopt(fd, (int)a[1], (int)a[2], p, (socklen_t)a[4]));
  case KIT_SYS_getsockopt:
    if ((r = addr_out(emu, a[3], a[4], &p, &lp)) < 0) return r;
    return neg(getsockopt(fd, (int)a[1], (int)a[2], p, lp));
  case KIT_SYS_shutdown:
    return neg(shutdown(fd, (int)a[1]));
  case KIT_SYS_sendmsg:
  case KIT_SYS_recvmsg: {
    struct msghdr m;
    struct iovec iov[1024];
    uint64_t *g;
    bool recv = nr == KIT_SYS_recvmsg;
    if ((r = msg_in(emu, a[1], recv, &m, iov, &g)) < 0) return r;
    long n = KIT_EMU_BLOCKING(emu, recv ? recvmsg(fd, &m, (int)a[2]) : sendmsg(fd, &m, (int)a[2]));
    if (n < 0) return -errno;
    if (recv) { /* what the kernel updates: the lengths and the flags */
      if (g[0]) g[1] = (g[1] & ~0xffffffffull) | m.msg_namelen;
      g[5] = m.msg_controllen;
      g[6] = (g[6] & ~0xffffffffull) | (uint32_t)m.msg_flags;
    }
    return n;
  }
  default:
    *handled = false;
    return -ENOSYS;
  }
}
