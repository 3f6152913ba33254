/* emu/tools/gdb/stub.c — the remote protocol's commands over a KitGdbTarget:
 * the stub is entered each time the program stops (kit_gdb_stub_stopped),
 * answers gdb until it resumes the program, and returns how to resume. The
 * replies follow gdb's "Remote Protocol" appendix; what qemu's user-mode stub
 * lacks (watchpoints, qXfer:threads, catch syscall, libraries) is answered when
 * the target provides it. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rsp.h"

struct KitGdbStub {
  KitRsp rsp;
  KitGdbTarget t;
  char *tdesc;          /* target.xml, built on first request */
  bool waiting;         /* gdb resumed the program and waits for a stop reply */
  bool multiprocess;    /* gdb offered multiprocess+ */
  KitGdbStop last;      /* for '?' */
  int files[16];        /* host fds gdb opened with vFile:open (-1: free) */
  uint64_t g_tid;       /* Hg */
  uint64_t c_tid;       /* Hc */
};

KitGdbStub *kit_gdb_stub_new(int fd, int out_fd, const KitGdbTarget *target) {
  for (size_t i = 0; i < target->nregs; i++)
    if (target->regs[i].bits % 8 || target->regs[i].bits > 512) return NULL;
  KitGdbStub *s = calloc(1, sizeof *s);
  if (!s) return NULL;
  kit_rsp_init(&s->rsp, fd, out_fd);
  s->t = *target;
  s->last = (KitGdbStop){.kind = KIT_GDB_STOP_SIGNAL, .sig = 5};
  for (size_t i = 0; i < sizeof s->files / sizeof s->files[0]; i++) s->files[i] = -1;
  return s;
}

void kit_gdb_stub_free(KitGdbStub *s) {
  if (!s) return;
  kit_rsp_free(&s->rsp);
  for (size_t i = 0; i < sizeof s->files / sizeof s->files[0]; i++)
    if (s->files[i] >= 0) close(s->files[i]);
  free(s->tdesc);
  free(s);
}

uint64_t kit_gdb_stub_thread(const KitGdbStub *s) { return s->g_tid; }

bool kit_gdb_stub_interrupted(KitGdbStub *s) {
  if (s->rsp.interrupted) {
    s->rsp.interrupted = false;
    return true;
  }
  return kit_rsp_poll_interrupt(&s->rsp);
}

static int reply(KitGdbStub *s, const char *text) { return kit_rsp_send_str(&s->rsp, text); }

/* "p<pid>.<tid>" with multiprocess, else "<tid>" (hex) */
static void thread_id(const KitGdbStub *s, uint64_t tid, char *out, size_t cap) {
  if (s->multiprocess)
    snprintf(out, cap, "p%" PRIx64 ".%" PRIx64, s->t.pid ? s->t.pid : 1, tid);
  else
    snprintf(out, cap, "%" PRIx64, tid);
}

/* a thread-id argument: "-1" all (0 here too), "0" any, "pP.T", "T" */
static uint64_t parse_tid(const char *p) {
  if (*p == 'p') {
    const char *dot = strchr(p, '.');
    if (!dot) return 0;
    p = dot + 1;
  }
  if (!strncmp(p, "-1", 2)) return 0;
  return strtoull(p, NULL, 16);
}

static void stop_reply(KitGdbStub *s, const KitGdbStop *st, char *out, size_t cap) {
  char tid[48];
  thread_id(s, st->tid ? st->tid : 1, tid, sizeof tid);
  switch (st->kind) {
  case KIT_GDB_STOP_EXITED:
    snprintf(out, cap, "W%02x", st->status & 0xff);
    return;
  case KIT_GDB_STOP_KILLED:
    snprintf(out, cap, "X%02x", st->sig & 0xff);
    return;
  case KIT_GDB_STOP_SWBREAK: snprintf(out, cap, "T05swbreak:;thread:%s;", tid); return;
  case KIT_GDB_STOP_HWBREAK: snprintf(out, cap, "T05hwbreak:;thread:%s;", tid); return;
  case KIT_GDB_STOP_WATCH: snprintf(out, cap, "T05watch:%" PRIx64 ";thread:%s;", st->addr, tid); return;
  case KIT_GDB_STOP_RWATCH: snprintf(out, cap, "T05rwatch:%" PRIx64 ";thread:%s;", st->addr, tid); return;
  case KIT_GDB_STOP_AWATCH: snprintf(out, cap, "T05awatch:%" PRIx64 ";thread:%s;", st->addr, tid); return;
  case KIT_GDB_STOP_SYSCALL_ENTRY:
    snprintf(out, cap, "T05syscall_entry:%" PRIx64 ";thread:%s;", st->sysno, tid);
    return;
  case KIT_GDB_STOP_SYSCALL_RETURN:
    snprintf(out, cap, "T05syscall_return:%" PRIx64 ";thread:%s;", st->sysno, tid);
    return;
  case KIT_GDB_STOP_SIGNAL:
  default:
    snprintf(out, cap, "T%02xthread:%s;", st->sig & 0xff, tid);
    return;
  }
}

/* ---- registers and memory ---------------------------------------------------- */

static int reg_bytes(const KitGdbStub *s, unsigned regno) { return (int)(s->t.regs[regno].bits / 8); }

static void cmd_read_regs(KitGdbStub *s) {
  size_t total = 0;
  for (size_t i = 0; i < s->t.nregs; i++) total += (size_t)reg_bytes(s, (unsigned)i);
  char *out = malloc(2 * total + 1);
  uint8_t buf[64];
  size_t at = 0;
  for (size_t i = 0; out && i < s->t.nregs; i++) {
    int n = reg_bytes(s, (unsigned)i);
    if (s->t.reg(s->t.user, s->g_tid, (unsigned)i, buf, false) == 0) {
      kit_rsp_hex(out + at, buf, (size_t)n);
    } else {
      memset(out + at, 'x', 2 * (size_t)n); /* unavailable */
      out[at + 2 * (size_t)n] = 0;
    }
    at += 2 * (size_t)n;
  }
  reply(s, out ? out : "E01");
  free(out);
}

static void cmd_write_regs(KitGdbStub *s, const char *hex) {
  size_t at = 0, len = strlen(hex);
  uint8_t buf[64];
  for (size_t i = 0; i < s->t.nregs; i++) {
    size_t n = (size_t)reg_bytes(s, (unsigned)i);
    if (at + 2 * n > len) break;
    if (kit_rsp_unhex(buf, hex + at, n) < 0 || s->t.reg(s->t.user, s->g_tid, (unsigned)i, buf, true) < 0) {
      reply(s, "E01");
      return;
    }
    at += 2 * n;
  }
  reply(s, "OK");
}

static void cmd_read_reg(KitGdbStub *s, const char *arg) {
  unsigned long regno = strtoul(arg, NULL, 16);
  uint8_t buf[64];
  char hex[129];
  if (regno >= s->t.nregs || s->t.reg(s->t.user, s->g_tid, (unsigned)regno, buf, false) < 0) {
    reply(s, "E01");
    return;
  }
  kit_rsp_hex(hex, buf, (size_t)reg_bytes(s, (unsigned)regno));
  reply(s, hex);
}

static void cmd_write_reg(KitGdbStub *s, const char *arg) {
  char *eq;
  unsigned long regno = strtoul(arg, &eq, 16);
  uint8_t buf[64];
  if (*eq != '=' || regno >= s->t.nregs || strlen(eq + 1) < 2 * (size_t)reg_bytes(s, (unsigned)regno) ||
      kit_rsp_unhex(buf, eq + 1, (size_t)reg_bytes(s, (unsigned)regno)) < 0 ||
      s->t.reg(s->t.user, s->g_tid, (unsigned)regno, buf, true) < 0) {
    reply(s, "E01");
    return;
  }
  reply(s, "OK");
}

/* "ADDR,LEN" then the rest after it */
static bool addr_len(const char *arg, uint64_t *addr, uint64_t *len, const char **rest) {
  char *e;
  *addr = strtoull(arg, &e, 16);
  if (*e != ',') return false;
  *len = strtoull(e + 1, &e, 16);
  if (rest) *rest = e;
  return true;
}

static void cmd_read_mem(KitGdbStub *s, const char *arg) {
  uint64_t addr, len;
  if (!addr_len(arg, &addr, &len, NULL)) {
    reply(s, "E01");
    return;
  }
  if (len > KIT_RSP_MAX_PACKET / 2) len = KIT_RSP_MAX_PACKET / 2;
  uint8_t *buf = malloc(len ? len : 1);
  char *hex = malloc(2 * len + 1);
  /* a partial read answers what could be read, as gdb allows */
  size_t got = 0;
  if (buf && hex && s->t.read_mem(s->t.user, addr, buf, len) == 0) {
    got = len;
  } else if (buf && hex) {
    while (got < len && s->t.read_mem(s->t.user, addr + got, buf + got, 1) == 0) got++;
  }
  if (got || !len) {
    kit_rsp_hex(hex, buf, got);
    reply(s, hex);
  } else {
    reply(s, "E14"); /* EFAULT */
  }
  free(buf);
  free(hex);
}

/* M (hex) and X (binary) */
static void cmd_write_mem(KitGdbStub *s, const char *arg, size_t arglen, bool binary) {
  uint64_t addr, len;
  const char *data;
  if (!addr_len(arg, &addr, &len, &data) || *data != ':' || !s->t.write_mem) {
    reply(s, "E01");
    return;
  }
  data++;
  size_t avail = arglen - (size_t)(data - arg);
  uint8_t *buf = malloc(len ? len : 1);
  bool ok = buf != NULL;
  if (ok && binary) {
    ok = avail >= len;
    if (ok) memcpy(buf, data, len);
  } else if (ok) {
    ok = avail >= 2 * len && kit_rsp_unhex(buf, data, len) == 0;
  }
  if (ok && len) ok = s->t.write_mem(s->t.user, addr, buf, len) == 0;
  reply(s, ok ? "OK" : "E14");
  free(buf);
}

/* Z/z TYPE,ADDR,KIND */
static void cmd_point(KitGdbStub *s, const char *arg, bool insert) {
  char *e;
  unsigned long type = strtoul(arg, &e, 10);
  uint64_t addr, len;
  if (*e != ',' || type > KIT_GDB_WATCH_ACCESS || !addr_len(e + 1, &addr, &len, NULL)) {
    reply(s, "E01");
    return;
  }
  int rc = s->t.point ? s->t.point(s->t.user, (KitGdbPoint)type, addr, len, insert) : 1;
  reply(s, rc == 0 ? "OK" : rc > 0 ? "" : "E01");
}

/* ---- queries -------------------------------------------------------------------- */

/* is object in the target's comma-separated list (all when it has none)? */
static bool xfer_offered(const KitGdbStub *s, const char *object) {
  if (!s->t.xfer_objects) return true;
  size_t n = strlen(object);
  for (const char *p = s->t.xfer_objects; (p = strstr(p, object)); p += n)
    if ((p == s->t.xfer_objects || p[-1] == ',') && (p[n] == ',' || !p[n])) return true;
  return false;
}

/* qXfer:OBJECT:read:ANNEX:OFFSET,LENGTH — 'm' + a chunk, or 'l' + the last one */
static void xfer_reply(KitGdbStub *s, const char *data, size_t size, uint64_t off, uint64_t len) {
  if (off >= size) {
    reply(s, "l");
    return;
  }
  size_t n = size - off;
  if (n > len) n = len;
  if (n > KIT_RSP_MAX_PACKET - 8) n = KIT_RSP_MAX_PACKET - 8;
  char *out = malloc(n + 1);
  if (!out) {
    reply(s, "E01");
    return;
  }
  out[0] = off + n < size ? 'm' : 'l';
  memcpy(out + 1, data + off, n);
  kit_rsp_send(&s->rsp, out, n + 1);
  free(out);
}

static void cmd_xfer(KitGdbStub *s, const char *arg) {
  char object[32], annex[256];
  const char *p = arg;
  const char *c1 = strchr(p, ':');
  if (!c1 || (size_t)(c1 - p) >= sizeof object || strncmp(c1, ":read:", 6)) {
    reply(s, "");
    return;
  }
  memcpy(object, p, (size_t)(c1 - p));
  object[c1 - p] = 0;
  p = c1 + 6;
  const char *c2 = strchr(p, ':');
  if (!c2 || (size_t)(c2 - p) >= sizeof annex) {
    reply(s, "E00");
    return;
  }
  memcpy(annex, p, (size_t)(c2 - p));
  annex[c2 - p] = 0;
  uint64_t off, len;
  if (!addr_len(c2 + 1, &off, &len, NULL)) {
    reply(s, "E00");
    return;
  }
  if (!strcmp(object, "features")) {
    if (strcmp(annex, "target.xml")) {
      reply(s, "E00");
      return;
    }
    if (!s->tdesc) s->tdesc = kit_gdb_tdesc_xml(s->t.arch, s->t.regs, s->t.nregs);
    xfer_reply(s, s->tdesc, strlen(s->tdesc), off, len);
    return;
  }
  size_t size = 0;
  bool offered = s->t.xfer && xfer_offered(s, object);
  void *data = offered ? s->t.xfer(s->t.user, object, annex, &size) : NULL;
  if (!data) {
    reply(s, offered ? "E01" : "");
    return;
  }
  xfer_reply(s, data, size, off, len);
  free(data);
}

static void cmd_supported(KitGdbStub *s, const char *features) {
  s->multiprocess = strstr(features, "multiprocess+") != NULL;
  char out[512];
  int n = snprintf(out, sizeof out,
                   "PacketSize=%x;QStartNoAckMode+;qXfer:features:read+;vContSupported+;swbreak+;hwbreak+",
                   KIT_RSP_MAX_PACKET);
  if (s->multiprocess) n += snprintf(out + n, sizeof out - (size_t)n, ";multiprocess+");
  static const char *const objects[] = {"auxv", "exec-file", "libraries-svr4", "threads"};
  for (size_t i = 0; s->t.xfer && i < sizeof objects / sizeof objects[0]; i++)
    if (xfer_offered(s, objects[i])) n += snprintf(out + n, sizeof out - (size_t)n, ";qXfer:%s:read+", objects[i]);
  if (s->t.catch_syscalls) snprintf(out + n, sizeof out - (size_t)n, ";QCatchSyscalls+");
  reply(s, out);
}

static void cmd_thread_list(KitGdbStub *s) {
  uint64_t tids[256];
  size_t n = s->t.threads ? s->t.threads(s->t.user, tids, 256) : 0;
  if (n == 0) tids[0] = 1, n = 1;
  if (n > 256) n = 256;
  char *out = malloc(n * 48 + 2);
  if (!out) {
    reply(s, "E01");
    return;
  }
  size_t at = 0;
  out[at++] = 'm';
  for (size_t i = 0; i < n; i++) {
    if (i) out[at++] = ',';
    thread_id(s, tids[i], out + at, 48);
    at += strlen(out + at);
  }
  out[at] = 0;
  reply(s, out);
  free(out);
}

/* qRcmd,HEX: gdb's `monitor` */
static void cmd_monitor(KitGdbStub *s, const char *hex) {
  size_t n = strlen(hex) / 2;
  char *cmd = malloc(n + 1);
  if (!cmd || kit_rsp_unhex(cmd, hex, n) < 0) {
    free(cmd);
    reply(s, "E01");
    return;
  }
  cmd[n] = 0;
  char *text = s->t.monitor ? s->t.monitor(s->t.user, cmd) : NULL;
  if (!text) {
    size_t m = strlen(cmd) + 64;
    text = malloc(m);
    if (!text) {
      free(cmd);
      reply(s, "E01");
      return;
    }
    snprintf(text, m, "kit-emu: unknown monitor command '%s'\n", cmd);
  }
  /* the text goes to gdb's console as O packets, then OK */
  size_t len = strlen(text);
  for (size_t at = 0; at < len; at += 1024) {
    size_t k = len - at < 1024 ? len - at : 1024;
    char *o = malloc(2 * k + 2);
    if (!o) break;
    o[0] = 'O';
    kit_rsp_hex(o + 1, text + at, k);
    reply(s, o);
    free(o);
  }
  reply(s, "OK");
  free(text);
  free(cmd);
}

/* QCatchSyscalls:0 | QCatchSyscalls:1 | QCatchSyscalls:1;N;N... */
static void cmd_catch_syscalls(KitGdbStub *s, const char *arg) {
  if (!s->t.catch_syscalls) {
    reply(s, "");
    return;
  }
  bool enable = arg[0] == '1';
  uint64_t nrs[512];
  size_t n = 0;
  for (const char *p = strchr(arg, ';'); p && n < 512; p = strchr(p + 1, ';')) nrs[n++] = strtoull(p + 1, NULL, 16);
  reply(s, s->t.catch_syscalls(s->t.user, enable, n == 0, nrs, n) == 0 ? "OK" : "E01");
}

static void cmd_query(KitGdbStub *s, const char *q) {
  char out[128];
  if (!strncmp(q, "qSupported", 10)) {
    cmd_supported(s, q + 10);
  } else if (!strncmp(q, "qXfer:", 6)) {
    cmd_xfer(s, q + 6);
  } else if (!strcmp(q, "qC")) {
    char tid[48];
    thread_id(s, s->last.tid ? s->last.tid : 1, tid, sizeof tid);
    snprintf(out, sizeof out, "QC%s", tid);
    reply(s, out);
  } else if (!strncmp(q, "qAttached", 9)) {
    reply(s, "0"); /* kit-emu started the process: quitting gdb kills it */
  } else if (!strcmp(q, "qfThreadInfo")) {
    cmd_thread_list(s);
  } else if (!strcmp(q, "qsThreadInfo")) {
    reply(s, "l");
  } else if (!strncmp(q, "qRcmd,", 6)) {
    cmd_monitor(s, q + 6);
  } else if (!strncmp(q, "qSymbol", 7)) {
    reply(s, "OK");
  } else if (!strcmp(q, "QStartNoAckMode")) {
    reply(s, "OK");
    s->rsp.no_ack = true;
  } else if (!strncmp(q, "QCatchSyscalls:", 15)) {
    cmd_catch_syscalls(s, q + 15);
  } else {
    reply(s, ""); /* unsupported: gdb falls back */
  }
}

/* ---- host I/O: vFile ------------------------------------------------------------- */

/* gdb's fileio errno values are Linux's for the few a reader meets */
static void file_error(KitGdbStub *s, int err) {
  char out[32];
  snprintf(out, sizeof out, "F-1,%x", err == ENOENT || err == EACCES || err == EBADF || err == EINVAL ? err : EIO);
  reply(s, out);
}

static int file_slot(const KitGdbStub *s, long fd) {
  return fd >= 0 && (size_t)fd < sizeof s->files / sizeof s->files[0] && s->files[fd] >= 0 ? (int)fd : -1;
}

static void put_be(uint8_t *p, uint64_t v, int n) {
  for (int i = n - 1; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

static void file_open(KitGdbStub *s, const char *arg) {
  const char *comma = strchr(arg, ',');
  size_t n = comma ? (size_t)(comma - arg) / 2 : 0;
  char *path = malloc(n + 1);
  if (!path || !comma || kit_rsp_unhex(path, arg, n) < 0) {
    free(path);
    file_error(s, EINVAL);
    return;
  }
  path[n] = 0;
  unsigned long flags = strtoul(comma + 1, NULL, 16);
  size_t slot = 0, nslots = sizeof s->files / sizeof s->files[0];
  while (slot < nslots && s->files[slot] >= 0) slot++;
  int fd = flags != 0 ? -EACCES : slot == nslots ? -EIO : s->t.open_file(s->t.user, path);
  free(path);
  if (fd < 0) {
    file_error(s, -fd);
    return;
  }
  s->files[slot] = fd;
  char out[32];
  snprintf(out, sizeof out, "F%zx", slot);
  reply(s, out);
}

static void file_pread(KitGdbStub *s, const char *arg) {
  char *e;
  int slot = file_slot(s, strtol(arg, &e, 16));
  uint64_t count = *e == ',' ? strtoull(e + 1, &e, 16) : 0, off = *e == ',' ? strtoull(e + 1, NULL, 16) : 0;
  if (slot < 0) {
    file_error(s, EBADF);
    return;
  }
  if (count > KIT_RSP_MAX_PACKET / 2) count = KIT_RSP_MAX_PACKET / 2; /* escapes may double it */
  char *out = malloc(count + 32);
  if (!out) {
    file_error(s, EIO);
    return;
  }
  ssize_t got = pread(s->files[slot], out + 32, count, (off_t)off);
  if (got < 0) {
    free(out);
    file_error(s, errno);
    return;
  }
  int h = snprintf(out, 32, "F%zx;", (size_t)got);
  memmove(out + h, out + 32, (size_t)got);
  kit_rsp_send(&s->rsp, out, (size_t)h + (size_t)got);
  free(out);
}

static void file_fstat(KitGdbStub *s, const char *arg) {
  int slot = file_slot(s, strtol(arg, NULL, 16));
  struct stat st;
  if (slot < 0 || fstat(s->files[slot], &st) < 0) {
    file_error(s, EBADF);
    return;
  }
  /* gdb's struct stat of the File-I/O protocol: big-endian, 64 bytes */
  uint8_t b[64] = {0};
  put_be(b + 0, st.st_dev, 4), put_be(b + 4, st.st_ino, 4), put_be(b + 8, st.st_mode, 4);
  put_be(b + 12, st.st_nlink, 4), put_be(b + 16, st.st_uid, 4), put_be(b + 20, st.st_gid, 4);
  put_be(b + 24, st.st_rdev, 4), put_be(b + 28, (uint64_t)st.st_size, 8);
  put_be(b + 36, (uint64_t)st.st_blksize, 8), put_be(b + 44, (uint64_t)st.st_blocks, 8);
  put_be(b + 52, (uint64_t)st.st_atime, 4), put_be(b + 56, (uint64_t)st.st_mtime, 4);
  put_be(b + 60, (uint64_t)st.st_ctime, 4);
  char out[80];
  int h = snprintf(out, sizeof out, "F%x;", (unsigned)sizeof b);
  memcpy(out + h, b, sizeof b);
  kit_rsp_send(&s->rsp, out, (size_t)h + sizeof b);
}

/* vFile:setfs, open (read only), pread, close, fstat; pwrite, unlink,
 * readlink unsupported (gdb reads the program and its libraries so) */
static void cmd_file(KitGdbStub *s, const char *arg) {
  if (!s->t.open_file) {
    reply(s, "");
  } else if (!strncmp(arg, "setfs:", 6)) {
    reply(s, "F0");
  } else if (!strncmp(arg, "open:", 5)) {
    file_open(s, arg + 5);
  } else if (!strncmp(arg, "pread:", 6)) {
    file_pread(s, arg + 6);
  } else if (!strncmp(arg, "close:", 6)) {
    int slot = file_slot(s, strtol(arg + 6, NULL, 16));
    if (slot < 0) {
      file_error(s, EBADF);
      return;
    }
    close(s->files[slot]);
    s->files[slot] = -1;
    reply(s, "F0");
  } else if (!strncmp(arg, "fstat:", 6)) {
    file_fstat(s, arg + 6);
  } else {
    reply(s, "");
  }
}

/* ---- resuming ------------------------------------------------------------------- */

/* vCont;ACTION[:TID];... — the first action naming a thread, else the default one */
static bool parse_vcont(const char *arg, KitGdbResume *r) {
  bool found = false;
  for (const char *p = arg; p && *p == ';'; p = strchr(p + 1, ';')) {
    char a = p[1];
    int sig = 0;
    const char *q = p + 2;
    if (a == 'C' || a == 'S') sig = (int)strtol(q, (char **)&q, 16);
    if (a != 'c' && a != 'C' && a != 's' && a != 'S') {
      if (a == 't') continue; /* stop: all are stopped already */
      return false;
    }
    uint64_t tid = *q == ':' ? parse_tid(q + 1) : 0;
    if (found && tid == 0) continue; /* the default action does not override a thread's */
    *r = (KitGdbResume){.kind = a == 's' || a == 'S' ? KIT_GDB_STEP : KIT_GDB_CONTINUE, .sig = sig, .tid = tid};
    found = true;
    if (r->kind == KIT_GDB_STEP) break; /* the stepped thread decides */
  }
  return found;
}

/* one packet; true when it resumes the program (*r says how) */
static bool handle(KitGdbStub *s, KitGdbResume *r) {
  const char *p = s->rsp.buf;
  size_t len = s->rsp.len;
  char out[256];
  switch (p[0]) {
  case '?':
    stop_reply(s, &s->last, out, sizeof out);
    reply(s, out);
    return false;
  case 'g': cmd_read_regs(s); return false;
  case 'G': cmd_write_regs(s, p + 1); return false;
  case 'p': cmd_read_reg(s, p + 1); return false;
  case 'P': cmd_write_reg(s, p + 1); return false;
  case 'm': cmd_read_mem(s, p + 1); return false;
  case 'M': cmd_write_mem(s, p + 1, len - 1, false); return false;
  case 'X': cmd_write_mem(s, p + 1, len - 1, true); return false;
  case 'Z': cmd_point(s, p + 1, true); return false;
  case 'z': cmd_point(s, p + 1, false); return false;
  case 'q': case 'Q': cmd_query(s, p); return false;
  case 'H':
    if (p[1] == 'g') s->g_tid = parse_tid(p + 2);
    else if (p[1] == 'c') s->c_tid = parse_tid(p + 2);
    reply(s, "OK");
    return false;
  case 'T': {
    uint64_t tid = parse_tid(p + 1);
    bool alive = s->t.thread_alive ? s->t.thread_alive(s->t.user, tid) : tid == 1;
    reply(s, alive ? "OK" : "E01");
    return false;
  }
  case 'c': case 's': case 'C': case 'S': {
    const char *a = p + 1;
    *r = (KitGdbResume){.kind = p[0] == 's' || p[0] == 'S' ? KIT_GDB_STEP : KIT_GDB_CONTINUE, .tid = s->c_tid};
    if (p[0] == 'C' || p[0] == 'S') {
      r->sig = (int)strtol(a, (char **)&a, 16);
      a = *a == ';' ? a + 1 : a + strlen(a);
    }
    if (*a) r->has_addr = true, r->addr = strtoull(a, NULL, 16);
    return true;
  }
  case 'v':
    if (!strcmp(p, "vCont?")) {
      reply(s, "vCont;c;C;s;S;t");
    } else if (!strncmp(p, "vCont;", 5) && p[5] == ';') {
      if (parse_vcont(p + 5, r)) return true;
      reply(s, "E01");
    } else if (!strncmp(p, "vFile:", 6)) {
      cmd_file(s, p + 6);
    } else if (!strncmp(p, "vKill", 5)) {
      reply(s, "OK");
      *r = (KitGdbResume){.kind = KIT_GDB_KILL};
      return true;
    } else {
      reply(s, ""); /* vMustReplyEmpty, vRun: not offered */
    }
    return false;
  case 'k':
    *r = (KitGdbResume){.kind = KIT_GDB_KILL};
    return true;
  case 'D':
    reply(s, "OK");
    *r = (KitGdbResume){.kind = KIT_GDB_DETACH};
    return true;
  default:
    reply(s, "");
    return false;
  }
}

KitGdbResume kit_gdb_stub_stopped(KitGdbStub *s, const KitGdbStop *stop) {
  s->last = *stop;
  /* gdb takes the thread a stop names for its general thread (it sends no
   * Hg before reading that thread's registers) */
  if (stop->tid) s->g_tid = stop->tid;
  if (s->waiting) {
    char out[256];
    stop_reply(s, stop, out, sizeof out);
    if (reply(s, out) < 0) return (KitGdbResume){.kind = KIT_GDB_DETACH};
    s->waiting = false;
  }
  for (;;) {
    int rc = kit_rsp_read(&s->rsp);
    if (rc < 0) return (KitGdbResume){.kind = KIT_GDB_DETACH};
    if (rc > 0) { /* a Ctrl-C that crossed the stop reply: the program is stopped already */
      s->rsp.interrupted = false;
      continue;
    }
    KitGdbResume r;
    if (handle(s, &r)) {
      s->waiting = r.kind == KIT_GDB_CONTINUE || r.kind == KIT_GDB_STEP;
      return r;
    }
  }
}

void kit_gdb_stub_ended(KitGdbStub *s, const KitGdbStop *stop) {
  if (!s->waiting) return; /* gdb did not resume the program; it is gone (k, D) */
  char out[64];
  stop_reply(s, stop, out, sizeof out);
  reply(s, out);
  s->waiting = false;
}
