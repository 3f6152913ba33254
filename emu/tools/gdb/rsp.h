/* emu/tools/gdb/rsp.h — the GDB remote serial protocol as gdb-multiarch
 * speaks it, independent of the emulator: packet framing (rsp.c), the target
 * description (tdesc.c) and the command engine (stub.c), which serves gdb's
 * requests through a KitGdbTarget the emulator's gdb tool implements. */
#ifndef KIT_GDB_RSP_H
#define KIT_GDB_RSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- packets (rsp.c) ---------------------------------------------------- */

enum { KIT_RSP_MAX_PACKET = 0x4000 }; /* what qSupported announces as PacketSize */

typedef struct KitRsp {
  int fd, out_fd;      /* read from fd, write to out_fd (the same socket, or a pipe pair) */
  bool no_ack;         /* after QStartNoAckMode */
  bool interrupted;    /* a 0x03 arrived while waiting for a packet */
  unsigned char in[4096];
  size_t in_pos, in_len;
  char *buf;           /* the last packet read, unescaped, NUL-terminated */
  size_t len, cap;
} KitRsp;

void kit_rsp_init(KitRsp *r, int fd, int out_fd);
void kit_rsp_free(KitRsp *r);
/* Read the next packet into r->buf/r->len, acknowledging it (and asking again
 * for one whose checksum is wrong). A 0x03 outside a packet sets
 * r->interrupted and returns 1; 0 on a packet; -1 when the connection closed. */
int kit_rsp_read(KitRsp *r);
/* Is a 0x03 waiting on the connection? Reads without blocking; other bytes
 * stay buffered for kit_rsp_read. */
bool kit_rsp_poll_interrupt(KitRsp *r);
/* Send data[0..n) as one packet, escaping '#', '$', '}' and '*', and wait
 * for gdb's '+' unless in no-ack mode. 0, or -1 when the connection failed. */
int kit_rsp_send(KitRsp *r, const void *data, size_t n);
int kit_rsp_send_str(KitRsp *r, const char *s);

/* hex helpers: kit_rsp_hex writes 2n digits and a NUL; kit_rsp_unhex reads
 * n bytes from 2n digits and returns 0, or -1 on a bad digit */
void kit_rsp_hex(char *out, const void *data, size_t n);
int kit_rsp_unhex(void *out, const char *hex, size_t n);

/* ---- target description (tdesc.c) ---------------------------------------- */

/* One register as gdb numbers it (the order of the g packet). */
typedef struct KitGdbReg {
  const char *name;    /* "ra", "pc", "ft0", "fflags" */
  unsigned bits;       /* 64, 32 */
  const char *type;    /* gdb's type: "int", "code_ptr", "data_ptr", "ieee_double", ... */
  const char *group;   /* "general", "float", "system", or NULL */
  const char *feature; /* the target.xml feature it belongs to ("org.gnu.gdb.ARCH.cpu", ...) */
} KitGdbReg;

/* target.xml for regs[0..n): <architecture>arch</architecture> and one
 * <feature> per run of registers that share a feature name, with regnum
 * attributes wherever numbering skips. Returns a malloc'd string. */
char *kit_gdb_tdesc_xml(const char *arch, const KitGdbReg *regs, size_t n);

/* ---- the command engine (stub.c) -------------------------------------------- */

typedef enum KitGdbStopKind {
  KIT_GDB_STOP_SIGNAL,  /* sig: a signal (5 = SIGTRAP after a step or at start) */
  KIT_GDB_STOP_SWBREAK, /* a Z0 breakpoint at the pc */
  KIT_GDB_STOP_HWBREAK, /* a Z1 breakpoint at the pc */
  KIT_GDB_STOP_WATCH,   /* a Z2 write watchpoint: addr */
  KIT_GDB_STOP_RWATCH,  /* Z3 read: addr */
  KIT_GDB_STOP_AWATCH,  /* Z4 access: addr */
  KIT_GDB_STOP_SYSCALL_ENTRY, /* a caught system call: sysno */
  KIT_GDB_STOP_SYSCALL_RETURN,
  KIT_GDB_STOP_EXITED,  /* status: the exit code (W) */
  KIT_GDB_STOP_KILLED,  /* sig: the fatal signal (X) */
} KitGdbStopKind;

typedef struct KitGdbStop {
  KitGdbStopKind kind;
  int sig;          /* gdb's signal number (Linux numbering for 1..31) */
  int status;
  uint64_t tid;     /* the thread that stopped (1-based; 0: the current one) */
  uint64_t addr;    /* watchpoints */
  uint64_t sysno;   /* system calls */
} KitGdbStop;

typedef enum KitGdbResumeKind { KIT_GDB_CONTINUE, KIT_GDB_STEP, KIT_GDB_KILL, KIT_GDB_DETACH } KitGdbResumeKind;

typedef struct KitGdbResume {
  KitGdbResumeKind kind;
  int sig;          /* a signal to deliver as it resumes (C/S, vCont;C), or 0 */
  uint64_t tid;     /* the thread to step or continue; 0: all / the current one */
  bool has_addr;    /* c ADDR / s ADDR: resume at addr */
  uint64_t addr;
} KitGdbResume;

/* Z packet types */
typedef enum KitGdbPoint { KIT_GDB_SW_BREAK, KIT_GDB_HW_BREAK, KIT_GDB_WATCH_WRITE, KIT_GDB_WATCH_READ, KIT_GDB_WATCH_ACCESS } KitGdbPoint;

/* What the engine needs of the debugged program. Every function may be NULL
 * but reg, read_mem and point (a NULL one answers gdb "not supported").
 * Functions return 0 on success, -1 on an error gdb should see as E01. */
typedef struct KitGdbTarget {
  void *user;
  const KitGdbReg *regs;  /* gdb's register numbering */
  size_t nregs;
  const char *arch;       /* <architecture> of target.xml, in gdb's spelling */
  /* read (get) or write register regno of thread tid: bits/8 bytes, target order */
  int (*reg)(void *user, uint64_t tid, unsigned regno, uint8_t *buf, bool write);
  int (*read_mem)(void *user, uint64_t addr, void *buf, size_t n);
  int (*write_mem)(void *user, uint64_t addr, const void *buf, size_t n);
  /* insert or remove a breakpoint or watchpoint of len bytes (kind, for Z0/Z1) */
  int (*point)(void *user, KitGdbPoint type, uint64_t addr, uint64_t len, bool insert);
  /* threads: fill tids (up to cap) and return how many there are */
  size_t (*threads)(void *user, uint64_t *tids, size_t cap);
  bool (*thread_alive)(void *user, uint64_t tid);
  /* qXfer objects other than features: "auxv", "exec-file", "libraries-svr4",
   * "threads". A malloc'd buffer and its length, or NULL (E01). */
  void *(*xfer)(void *user, const char *object, const char *annex, size_t *len);
  /* the objects xfer serves, comma-separated ("auxv,exec-file"); NULL: all four */
  const char *xfer_objects;
  /* gdb's host I/O (vFile:open) of a file of the target, read only: a host
   * fd the engine reads and closes, or -errno (ENOENT for what the target
   * does not serve) */
  int (*open_file)(void *user, const char *path);
  /* catch syscall: all (any) or the n numbers in nrs; off when !enable */
  int (*catch_syscalls)(void *user, bool enable, bool any, const uint64_t *nrs, size_t n);
  /* `monitor CMD`: text for gdb's console (malloc'd), or NULL for "unknown command" */
  char *(*monitor)(void *user, const char *cmd);
  uint64_t pid;           /* the process id gdb sees (multiprocess replies) */
} KitGdbTarget;

typedef struct KitGdbStub KitGdbStub;

/* serve gdb on fd (or read fd and write out_fd); NULL if a register of the
 * target is wider than 512 bits or not whole bytes */
KitGdbStub *kit_gdb_stub_new(int fd, int out_fd, const KitGdbTarget *target);
void kit_gdb_stub_free(KitGdbStub *s);
/* The program stopped (or is about to start: kind SIGNAL, sig 5): tell gdb
 * when it is waiting for a stop, then serve its requests until it resumes the
 * program; returns how. A lost connection answers DETACH. */
KitGdbResume kit_gdb_stub_stopped(KitGdbStub *s, const KitGdbStop *stop);
/* The program ended (EXITED or KILLED): the last reply gdb gets. */
void kit_gdb_stub_ended(KitGdbStub *s, const KitGdbStop *stop);
/* Did gdb send Ctrl-C while the program ran? Does not block. */
bool kit_gdb_stub_interrupted(KitGdbStub *s);
/* the thread gdb selected for register access (Hg), 0 = any */
uint64_t kit_gdb_stub_thread(const KitGdbStub *s);

#endif
