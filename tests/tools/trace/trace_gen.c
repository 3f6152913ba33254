/* tests/tools/trace/trace_gen.c — writes kit trace streams whose contents the
 * test knows, through libkit_trace's writer:
 *   trace_gen file PATH            every kind of record, scripted
 *   trace_gen ring NAME N BYTES    N block records into a ring of BYTES (lossless: waits for the reader)
 *   trace_gen drop NAME N          N block records into a 4 KiB ring nobody reads yet (--trace-drop) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/trace.h"

static const KitTraceReg regs[] = {{0, 64, 2, "pc"}, {10, 64, 0, "a0"}, {33, 64, 1, "ft0"}};

static KitTraceWriter *open_w(const char *dest, size_t ring, bool drop) {
  KitTraceHeader h = {.elf_machine = 243, .exe = "/bin/prog \"q\"", .build_id = "abcd", .regs = regs, .nregs = 3};
  char err[256];
  KitTraceWriter *w = kit_trace_writer_open(dest, &h, ring, drop, err, sizeof err);
  if (!w) fprintf(stderr, "trace_gen: %s\n", err), exit(1);
  return w;
}

static void put(KitTraceWriter *w, KitTraceEvent e) {
  if (kit_trace_write(w, &e)) fprintf(stderr, "trace_gen: write failed\n"), exit(1);
}

static void scripted(const char *path) {
  KitTraceWriter *w = open_w(path, 0, false);
  static const uint8_t l1[] = {4, 2, 4}, l2[] = {4};
  put(w, (KitTraceEvent){.kind = KIT_TRACE_MMAP, .tid = 1, .time_ns = 1000,
                         .u.mmap = {0x10000, 0x2000, 0x1000, 5, 2, "/lib/ld-linux-riscv64-lp64d.so.1"}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_TRANSLATE, .tid = 1, .pc = 0x1000, .u.translate = {1, 3, l1}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_CODE, .tid = 1, .pc = 0x1000, .u.code = {KIT_TRACE_TIER_BASELINE, 3}});
  for (int i = 0; i < 5; i++) put(w, (KitTraceEvent){.kind = KIT_TRACE_BLOCK, .tid = 1, .pc = 0x1000});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_TRANSLATE, .tid = 1, .pc = 0x2000, .u.translate = {0, 1, l2}});
  for (int i = 0; i < 3; i++) put(w, (KitTraceEvent){.kind = KIT_TRACE_BLOCK, .tid = 2, .pc = 0x2000});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_THREAD, .tid = 2, .time_ns = 2000, .u.thread = {false, 1, 0}});
  for (int i = 0; i < 2; i++)
    put(w, (KitTraceEvent){.kind = KIT_TRACE_SYSCALL, .tid = 1, .time_ns = 3000 + i, .u.syscall = {64, {1, 0x5000, 6}, 6}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_SYSCALL, .tid = 2, .time_ns = 4000, .u.syscall = {56, {0xffffff9c, 0x6000}, -2}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_MEM, .tid = 1, .pc = 0x1004, .u.mem = {0x7000, 0xdeadbeef, 4, true}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_REG, .tid = 1, .pc = 0x1004, .u.reg = {10, 42}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_BRANCH, .tid = 1, .pc = 0x1008, .u.branch = {0x2000, 0}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_SIGNAL, .tid = 2, .time_ns = 5000, .pc = 0x2000, .u.signal = {11, 1, 0x10}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_INVALIDATE, .tid = 1, .u.invalidate = {0x1000, 0x2000, 1}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_THREAD, .tid = 2, .time_ns = 6000, .u.thread = {true, 0, 3}});
  put(w, (KitTraceEvent){.kind = KIT_TRACE_EXIT, .tid = 1, .time_ns = 7000, .u.exit = {0}});
  if (kit_trace_writer_close(w)) exit(1);
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "file")) {
    scripted(argv[2]);
    return 0;
  }
  if (argc >= 4 && (!strcmp(argv[1], "ring") || !strcmp(argv[1], "drop"))) {
    char dest[300];
    snprintf(dest, sizeof dest, "shm:%s", argv[2]);
    bool drop = !strcmp(argv[1], "drop");
    KitTraceWriter *w = open_w(dest, drop ? 4096 : strtoull(argv[4], NULL, 10), drop);
    unsigned long n = strtoul(argv[3], NULL, 10);
    for (unsigned long i = 0; i < n; i++) put(w, (KitTraceEvent){.kind = KIT_TRACE_BLOCK, .tid = 1, .pc = 0x1000 + 4 * (i % 7)});
    put(w, (KitTraceEvent){.kind = KIT_TRACE_EXIT, .tid = 1, .u.exit = {0}});
    return kit_trace_writer_close(w) ? 1 : 0;
  }
  fprintf(stderr, "usage: trace_gen file PATH | ring NAME N BYTES | drop NAME N\n");
  return 2;
}
