/* tests/emu/gdb/mock_target.c — the gdb stub's protocol engine (emu/tools/gdb)
 * over a scripted riscv64 target, for gdb-multiarch to drive through
 * `target remote | mock_target`: registers and 64 KiB of memory at 0x10000;
 * `continue` runs to the nearest breakpoint above the pc, or stores to the
 * first watched address, or exits with status 7 (after `monitor spin`: runs
 * until Ctrl-C); `stepi` advances the pc by 4.
 * It checks the protocol against the real gdb; the emulator's side is tested
 * by the gdb tool's own tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsp.h"

#define BASE 0x10000u
#define SIZE 0x10000u

static uint64_t x[32], pc = BASE, f[32];
static uint32_t fflags, frm, fcsr;
static uint8_t mem[SIZE];
static uint64_t breaks[16], watches[16];
static KitGdbPoint watch_kind[16];
static size_t nbreaks, nwatches;
static bool spin; /* `monitor spin`: the next continue runs until gdb's Ctrl-C */
static KitGdbStub *stub;

static const char *const xnames[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0",
                                       "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                       "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static KitGdbReg regs[68];

static void build_regs(void) {
  static char fname[32][8];
  for (int i = 0; i < 32; i++) {
    const char *type = i == 1 ? "code_ptr" : (i == 2 || i == 3 || i == 4 || i == 8) ? "data_ptr" : "int";
    regs[i] = (KitGdbReg){xnames[i], 64, type, "general", "org.gnu.gdb.riscv.cpu"};
  }
  regs[32] = (KitGdbReg){"pc", 64, "code_ptr", "general", "org.gnu.gdb.riscv.cpu"};
  for (int i = 0; i < 32; i++) {
    snprintf(fname[i], sizeof fname[i], "%s%d", i < 8 ? "ft" : i < 10 ? "fs" : i < 18 ? "fa" : i < 28 ? "fs" : "ft",
             i < 8 ? i : i < 10 ? i - 8 : i < 18 ? i - 10 : i < 28 ? i - 16 : i - 20);
    regs[33 + i] = (KitGdbReg){fname[i], 64, "ieee_double", "float", "org.gnu.gdb.riscv.fpu"};
  }
  regs[65] = (KitGdbReg){"fflags", 32, "int", "float", "org.gnu.gdb.riscv.fpu"};
  regs[66] = (KitGdbReg){"frm", 32, "int", "float", "org.gnu.gdb.riscv.fpu"};
  regs[67] = (KitGdbReg){"fcsr", 32, "int", "float", "org.gnu.gdb.riscv.fpu"};
}

static int reg(void *user, uint64_t tid, unsigned n, uint8_t *buf, bool write) {
  (void)user, (void)tid;
  void *p = n < 32 ? (void *)&x[n] : n == 32 ? (void *)&pc : n < 65 ? (void *)&f[n - 33]
          : n == 65 ? (void *)&fflags : n == 66 ? (void *)&frm : (void *)&fcsr;
  size_t size = n < 65 ? 8 : 4;
  if (write && n != 0) memcpy(p, buf, size);
  else if (!write) memcpy(buf, p, size);
  return 0;
}

static int read_mem(void *user, uint64_t a, void *buf, size_t n) {
  (void)user;
  if (a < BASE || a - BASE + n > SIZE) return -1;
  memcpy(buf, mem + (a - BASE), n);
  return 0;
}

static int write_mem(void *user, uint64_t a, const void *buf, size_t n) {
  (void)user;
  if (a < BASE || a - BASE + n > SIZE) return -1;
  memcpy(mem + (a - BASE), buf, n);
  return 0;
}

static int point(void *user, KitGdbPoint type, uint64_t a, uint64_t len, bool insert) {
  (void)user, (void)len;
  bool brk = type == KIT_GDB_SW_BREAK || type == KIT_GDB_HW_BREAK;
  uint64_t *set = brk ? breaks : watches;
  size_t *n = brk ? &nbreaks : &nwatches;
  if (insert) {
    if (*n == 16) return -1;
    if (!brk) watch_kind[*n] = type;
    set[(*n)++] = a;
    return 0;
  }
  for (size_t i = 0; i < *n; i++)
    if (set[i] == a) {
      set[i] = set[--*n];
      if (!brk) watch_kind[i] = watch_kind[*n];
      return 0;
    }
  return -1;
}

static size_t threads(void *user, uint64_t *tids, size_t cap) {
  (void)user;
  if (cap >= 2) tids[0] = 1, tids[1] = 2;
  return 2;
}

static bool thread_alive(void *user, uint64_t tid) { return (void)user, tid == 1 || tid == 2; }

static char *monitor(void *user, const char *cmd) {
  (void)user;
  if (!strcmp(cmd, "spin")) {
    spin = true;
    return strdup("mock: spinning on the next continue\n");
  }
  return strcmp(cmd, "insncount") ? NULL : strdup("mock: 42 instructions\n");
}

/* what `continue` does in this scripted target */
static KitGdbStop run(void) {
  if (spin) {
    spin = false;
    while (!kit_gdb_stub_interrupted(stub)) pc = pc + 4 >= BASE + SIZE ? BASE : pc + 4;
    return (KitGdbStop){.kind = KIT_GDB_STOP_SIGNAL, .sig = 2, .tid = 1};
  }
  if (nwatches) {
    uint64_t a = watches[0], v;
    read_mem(NULL, a, &v, 8);
    v += 1;
    if (watch_kind[0] != KIT_GDB_WATCH_READ) write_mem(NULL, a, &v, 8);
    KitGdbStopKind k = watch_kind[0] == KIT_GDB_WATCH_WRITE  ? KIT_GDB_STOP_WATCH
                       : watch_kind[0] == KIT_GDB_WATCH_READ ? KIT_GDB_STOP_RWATCH
                                                             : KIT_GDB_STOP_AWATCH;
    pc += 4;
    return (KitGdbStop){.kind = k, .tid = 1, .addr = a};
  }
  uint64_t best = 0;
  for (size_t i = 0; i < nbreaks; i++)
    if (breaks[i] > pc && (!best || breaks[i] < best)) best = breaks[i];
  if (best) {
    pc = best;
    return (KitGdbStop){.kind = KIT_GDB_STOP_SWBREAK, .tid = 1};
  }
  return (KitGdbStop){.kind = KIT_GDB_STOP_EXITED, .status = 7};
}

int main(void) {
  build_regs();
  for (int i = 0; i < 32; i++) x[i] = i ? 0x1000 + (uint64_t)i : 0;
  x[10] = 0x1111;
  f[0] = 0x3ff8000000000000ull; /* 1.5 */
  fcsr = 0x20;
  for (uint32_t i = 0; i < SIZE; i += 4) memcpy(mem + i, &(uint32_t){0x00000013}, 4); /* nop */
  KitGdbTarget t = {.regs = regs, .nregs = 68, .arch = "riscv:rv64", .reg = reg, .read_mem = read_mem,
                    .write_mem = write_mem, .point = point, .threads = threads, .thread_alive = thread_alive,
                    .monitor = monitor, .pid = 4242};
  KitGdbStub *s = stub = kit_gdb_stub_new(0, 1, &t);
  if (!s) return 2;
  KitGdbStop stop = {.kind = KIT_GDB_STOP_SIGNAL, .sig = 5, .tid = 1};
  for (;;) {
    KitGdbResume r = kit_gdb_stub_stopped(s, &stop);
    if (r.kind == KIT_GDB_KILL || r.kind == KIT_GDB_DETACH) break;
    if (r.kind == KIT_GDB_STEP) {
      pc += 4;
      stop = (KitGdbStop){.kind = KIT_GDB_STOP_SIGNAL, .sig = 5, .tid = r.tid ? r.tid : 1};
      continue;
    }
    stop = run();
    if (stop.kind == KIT_GDB_STOP_EXITED) {
      kit_gdb_stub_ended(s, &stop);
      break;
    }
  }
  kit_gdb_stub_free(s);
  return 0;
}
