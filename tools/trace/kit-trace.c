/* tools/trace/kit-trace.c — reads a kit trace (a file, or shm:NAME while
 * kit-emu writes it): `dump` one event per line, `stats` counts per kind with
 * the hottest blocks and the system calls, `pcs` per-instruction execution
 * counts (blocks expanded through their TRANSLATE records), `insns` the
 * retired instructions' pcs in order, `export --chrome`
 * Trace Event Format JSON for Perfetto or chrome://tracing. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit/emu.h"
#include "kit/trace.h"

static void usage(FILE *to) {
  fprintf(to, "usage: kit-trace dump|stats|pcs|insns|export --chrome [--wait MS] TRACE\n"
              "  TRACE is a file written by kit-emu --trace-out=FILE, or shm:NAME (a live ring)\n"
              "  dump            one event per line\n"
              "  stats           events per kind, the 10 hottest blocks, system calls by count, probe hits\n"
              "  pcs             executions per instruction address (hottest first)\n"
              "  insns           every retired instruction in order: thread id and pc, one a line\n"
              "  export --chrome Trace Event Format JSON on stdout (Perfetto, chrome://tracing)\n");
}

static const char *sysname(uint64_t nr) {
  const char *n = kit_emu_syscall_name(nr);
  return n ? n : "syscall";
}

static void dump_event(const KitTraceEvent *e) {
  printf("%u %s", e->tid, kit_trace_kind_name(e->kind));
  switch (e->kind) {
  case KIT_TRACE_BLOCK: printf(" pc=0x%" PRIx64, e->pc); break;
  case KIT_TRACE_BRANCH: printf(" 0x%" PRIx64 " -> 0x%" PRIx64 " kind=%u", e->pc, e->u.branch.to, e->u.branch.kind); break;
  case KIT_TRACE_MEM:
    printf(" pc=0x%" PRIx64 " %s %u @0x%" PRIx64 " = 0x%" PRIx64, e->pc, e->u.mem.store ? "store" : "load", e->u.mem.size,
           e->u.mem.addr, e->u.mem.value);
    break;
  case KIT_TRACE_REG: printf(" pc=0x%" PRIx64 " r%u = 0x%" PRIx64, e->pc, e->u.reg.regno, e->u.reg.value); break;
  case KIT_TRACE_SYSCALL:
    printf(" %s(0x%" PRIx64 ", 0x%" PRIx64 ", 0x%" PRIx64 ", 0x%" PRIx64 ", 0x%" PRIx64 ", 0x%" PRIx64 ") = %" PRId64,
           sysname(e->u.syscall.nr), e->u.syscall.args[0], e->u.syscall.args[1], e->u.syscall.args[2],
           e->u.syscall.args[3], e->u.syscall.args[4], e->u.syscall.args[5], e->u.syscall.ret);
    break;
  case KIT_TRACE_MMAP:
    printf(" 0x%" PRIx64 "+0x%" PRIx64 " prot=%d flags=0x%x offset=0x%" PRIx64 " %s", e->u.mmap.addr, e->u.mmap.len,
           e->u.mmap.prot, e->u.mmap.flags, e->u.mmap.offset, e->u.mmap.path[0] ? e->u.mmap.path : "[anon]");
    break;
  case KIT_TRACE_SIGNAL:
    printf(" signo=%d code=%d addr=0x%" PRIx64 " pc=0x%" PRIx64, e->u.signal.signo, e->u.signal.code, e->u.signal.addr, e->pc);
    break;
  case KIT_TRACE_THREAD:
    if (e->u.thread.exit) printf(" exit status=%d", e->u.thread.status);
    else printf(" start parent=%u", e->u.thread.parent);
    break;
  case KIT_TRACE_TRANSLATE: printf(" pc=0x%" PRIx64 " tier=%u insns=%u", e->pc, e->u.translate.tier, e->u.translate.ninsns); break;
  case KIT_TRACE_INVALIDATE:
    printf(" [0x%" PRIx64 ", 0x%" PRIx64 ") reason=%u", e->u.invalidate.lo, e->u.invalidate.hi, e->u.invalidate.reason);
    break;
  case KIT_TRACE_DROPPED: printf(" %" PRIu64 " records", e->u.dropped.count); break;
  case KIT_TRACE_EXIT: printf(" status=%d", e->u.exit.status); break;
  case KIT_TRACE_PARTIAL: printf(" pc=0x%" PRIx64 " retired=%" PRIu64, e->pc, e->u.partial.count); break;
  case KIT_TRACE_PROBE: printf(" %u %s pc=0x%" PRIx64, e->u.probe.index, e->u.probe.spec, e->pc); break;
  case KIT_TRACE_CODE: printf(" pc=0x%" PRIx64 " tier=%u insns=%u", e->pc, e->u.code.tier, e->u.code.ninsns); break;
  default: break;
  }
  putchar('\n');
}

/* ---- counting by address ------------------------------------------------------ */

typedef struct Count {
  uint64_t key, n;
  uint64_t *pcs; /* pcs: the block's instructions (its last translation) */
  uint16_t ninsns;
} Count;

typedef struct Counts {
  Count *c;
  size_t n, cap;
} Counts;

static Count *count_of(Counts *t, uint64_t key) {
  if (2 * (t->n + 1) > t->cap) {
    Count *old = t->c;
    size_t oldcap = t->cap;
    t->cap = t->cap ? 2 * t->cap : 1024;
    t->c = calloc(t->cap, sizeof *t->c);
    if (!t->c) abort();
    for (size_t i = 0; i < oldcap; i++) {
      if (!old[i].key) continue;
      size_t j = (old[i].key * 0x9e3779b97f4a7c15ull >> 20) & (t->cap - 1);
      while (t->c[j].key) j = (j + 1) & (t->cap - 1);
      t->c[j] = old[i];
    }
    free(old);
  }
  key++; /* 0 marks an empty slot */
  size_t j = (key * 0x9e3779b97f4a7c15ull >> 20) & (t->cap - 1);
  while (t->c[j].key && t->c[j].key != key) j = (j + 1) & (t->cap - 1);
  if (!t->c[j].key) t->c[j].key = key, t->n++;
  return &t->c[j];
}

static int by_count(const void *a, const void *b) {
  const Count *x = a, *y = b;
  if (x->n != y->n) return x->n < y->n ? 1 : -1;
  return x->key < y->key ? -1 : x->key > y->key;
}

/* the used slots, hottest first */
static Count *sorted(Counts *t, size_t *n) {
  Count *s = malloc((t->n + 1) * sizeof *s);
  size_t k = 0;
  for (size_t i = 0; i < t->cap; i++)
    if (t->c[i].key) s[k] = t->c[i], s[k++].key--;
  qsort(s, k, sizeof *s, by_count);
  *n = k;
  return s;
}

/* Blocks expanded to their instructions: a BLOCK's are those of the last
 * TRANSLATE of its pc (a block without one is its first pc alone), and a
 * PARTIAL takes back the instructions of the thread's last block that did
 * not retire. */
typedef struct Expander {
  Counts blocks;
  uint64_t last[256]; /* the last block's pcs */
  size_t nlast;
} Expander;

/* TRANSLATE: 0, remembered; BLOCK: its instructions (*pcs), how many;
 * PARTIAL: the instructions taken back, as a negative count */
static long expand(Expander *x, const KitTraceEvent *e, const uint64_t **pcs) {
  if (e->kind == KIT_TRACE_PARTIAL) {
    size_t keep = e->u.partial.count < x->nlast ? (size_t)e->u.partial.count : x->nlast;
    *pcs = x->last + keep;
    long back = (long)(x->nlast - keep);
    x->nlast = keep;
    return -back;
  }
  if (e->kind != KIT_TRACE_TRANSLATE && e->kind != KIT_TRACE_BLOCK) return 0;
  Count *b = count_of(&x->blocks, e->pc);
  if (e->kind == KIT_TRACE_TRANSLATE) {
    free(b->pcs);
    b->pcs = malloc((e->u.translate.ninsns + 1u) * sizeof *b->pcs);
    if (!b->pcs) abort();
    b->ninsns = (uint16_t)kit_trace_block_pcs(e, b->pcs, e->u.translate.ninsns);
    return 0;
  }
  const uint64_t *p = b->ninsns ? b->pcs : &e->pc;
  size_t n = b->ninsns ? b->ninsns : 1;
  x->nlast = n < 256 ? n : 256;
  memcpy(x->last, p, x->nlast * sizeof *p);
  *pcs = p;
  return (long)n;
}

static void free_expander(Expander *x) {
  for (size_t i = 0; i < x->blocks.cap; i++) free(x->blocks.c[i].pcs);
  free(x->blocks.c);
}

static int stats(KitTraceReader *r) {
  uint64_t kinds[KIT_TRACE_KIND_MAX] = {0}, dropped = 0, ninsns = 0, tiers[4] = {0};
  Counts blocks = {0}, calls = {0}, errors = {0}, probes = {0};
  char *probe_names[256] = {0};
  Expander x = {0};
  KitTraceEvent e;
  int rc;
  while ((rc = kit_trace_next(r, &e)) == 1) {
    kinds[e.kind]++;
    if (e.kind == KIT_TRACE_BLOCK) count_of(&blocks, e.pc)->n++;
    const uint64_t *p;
    ninsns += (uint64_t)expand(&x, &e, &p);
    if (e.kind == KIT_TRACE_SYSCALL) {
      count_of(&calls, e.u.syscall.nr)->n++;
      if (e.u.syscall.ret < 0 && e.u.syscall.ret > -4096) count_of(&errors, e.u.syscall.nr)->n++;
    }
    if (e.kind == KIT_TRACE_DROPPED) dropped += e.u.dropped.count;
    if (e.kind == KIT_TRACE_CODE) tiers[e.u.code.tier & 3]++;
    if (e.kind == KIT_TRACE_PROBE && e.u.probe.index < 256) {
      count_of(&probes, e.u.probe.index)->n++;
      if (!probe_names[e.u.probe.index]) probe_names[e.u.probe.index] = strdup(e.u.probe.spec);
    }
  }
  for (int k = 1; k < KIT_TRACE_KIND_MAX; k++)
    if (kinds[k]) printf("%-12s %" PRIu64 "\n", kit_trace_kind_name((KitTraceKind)k), kinds[k]);
  if (kinds[KIT_TRACE_BLOCK]) printf("%-12s %" PRIu64 "\n", "insns", ninsns);
  if (dropped) printf("%-12s %" PRIu64 " records lost\n", "lost", dropped);
  static const char *const tier_name[4] = {"interpreter", "baseline", "llvm", "tier2"};
  if (kinds[KIT_TRACE_CODE]) {
    printf("code installed:\n");
    for (int t = 1; t < 4; t++)
      if (tiers[t]) printf("  %-16s %" PRIu64 " blocks\n", tier_name[t], tiers[t]);
  }
  size_t n;
  Count *s = sorted(&blocks, &n);
  if (n) printf("hottest blocks:\n");
  for (size_t i = 0; i < n && i < 10; i++) printf("  0x%" PRIx64 " %" PRIu64 "\n", s[i].key, s[i].n);
  free(s);
  s = sorted(&calls, &n);
  if (n) printf("system calls:\n");
  for (size_t i = 0; i < n; i++) {
    uint64_t err = count_of(&errors, s[i].key)->n;
    printf("  %-16s %" PRIu64 " calls, %" PRIu64 " errors\n", sysname(s[i].key), s[i].n, err);
  }
  free(s);
  s = sorted(&probes, &n);
  if (n) printf("probes:\n");
  for (size_t i = 0; i < n; i++) printf("  %-24s %" PRIu64 " hits\n", probe_names[s[i].key], s[i].n);
  free(s);
  for (int i = 0; i < 256; i++) free(probe_names[i]);
  free(blocks.c), free(calls.c), free(errors.c), free(probes.c);
  free_expander(&x);
  return rc < 0 ? (fprintf(stderr, "kit-trace: %s\n", kit_trace_error(r)), 1) : 0;
}

/* every retired instruction's pc in order, one a line: "tid pc" (a block
 * is printed when the next one begins, a PARTIAL having cut it) */
static int insns(KitTraceReader *r) {
  Expander x = {0};
  KitTraceEvent e;
  uint32_t tid = 0;
  int rc;
  while ((rc = kit_trace_next(r, &e)) == 1) {
    if (e.kind != KIT_TRACE_BLOCK && e.kind != KIT_TRACE_PARTIAL && e.kind != KIT_TRACE_TRANSLATE) continue;
    if (e.kind == KIT_TRACE_BLOCK)
      for (size_t i = 0; i < x.nlast; i++) printf("%u 0x%" PRIx64 "\n", tid, x.last[i]);
    const uint64_t *p;
    expand(&x, &e, &p);
    if (e.kind == KIT_TRACE_BLOCK) tid = e.tid;
  }
  for (size_t i = 0; i < x.nlast; i++) printf("%u 0x%" PRIx64 "\n", tid, x.last[i]);
  free_expander(&x);
  return rc < 0 ? (fprintf(stderr, "kit-trace: %s\n", kit_trace_error(r)), 1) : 0;
}

static int pcs(KitTraceReader *r) {
  Counts counts = {0};
  Expander x = {0};
  KitTraceEvent e;
  int rc;
  while ((rc = kit_trace_next(r, &e)) == 1) {
    const uint64_t *p;
    long n = expand(&x, &e, &p);
    for (long i = 0; i < n; i++) count_of(&counts, p[i])->n++;
    for (long i = 0; i < -n; i++) count_of(&counts, p[i])->n--;
  }
  size_t n;
  Count *s = sorted(&counts, &n);
  for (size_t i = 0; i < n; i++)
    if (s[i].n) printf("0x%" PRIx64 " %" PRIu64 "\n", s[i].key, s[i].n);
  free(s);
  free_expander(&x);
  free(counts.c);
  return rc < 0 ? (fprintf(stderr, "kit-trace: %s\n", kit_trace_error(r)), 1) : 0;
}

static void json_str(const char *s) {
  putchar('"');
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') printf("\\%c", *s);
    else if ((unsigned char)*s < 0x20) printf("\\u%04x", *s);
    else putchar(*s);
  }
  putchar('"');
}

/* Trace Event Format: instants on each thread's track (ts in microseconds) */
static int chrome(KitTraceReader *r) {
  const KitTraceHeader *h = kit_trace_header(r);
  printf("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"exe\":");
  json_str(h->exe);
  printf("},\"traceEvents\":[\n");
  printf("{\"name\":\"process_name\",\"ph\":\"M\",\"ts\":0,\"pid\":1,\"tid\":0,\"args\":{\"name\":");
  json_str(h->exe);
  printf("}}");
  KitTraceEvent e;
  int rc;
  while ((rc = kit_trace_next(r, &e)) == 1) {
    double ts = (double)e.time_ns / 1000.0;
    switch (e.kind) {
    case KIT_TRACE_SYSCALL:
      /* a slice from its entry to its return */
      printf(",\n{\"name\":\"%s\",\"cat\":\"syscall\",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":%u,"
             "\"args\":{\"ret\":%" PRId64 ",\"a0\":\"0x%" PRIx64 "\",\"a1\":\"0x%" PRIx64 "\",\"a2\":\"0x%" PRIx64 "\"}}",
             sysname(e.u.syscall.nr), ts, (double)e.u.syscall.duration_ns / 1000.0, e.tid, e.u.syscall.ret,
             e.u.syscall.args[0], e.u.syscall.args[1], e.u.syscall.args[2]);
      break;
    case KIT_TRACE_SIGNAL:
      printf(",\n{\"name\":\"signal %d\",\"cat\":\"signal\",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f,\"pid\":1,\"tid\":%u,"
             "\"args\":{\"code\":%d,\"addr\":\"0x%" PRIx64 "\"}}",
             e.u.signal.signo, ts, e.tid, e.u.signal.code, e.u.signal.addr);
      break;
    case KIT_TRACE_MMAP:
      printf(",\n{\"name\":\"%s\",\"cat\":\"mmap\",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f,\"pid\":1,\"tid\":%u,\"args\":{\"path\":",
             e.u.mmap.prot < 0 ? "munmap" : "mmap", ts, e.tid);
      json_str(e.u.mmap.path);
      printf(",\"addr\":\"0x%" PRIx64 "\",\"len\":%" PRIu64 "}}", e.u.mmap.addr, e.u.mmap.len);
      break;
    case KIT_TRACE_THREAD:
      printf(",\n{\"name\":\"thread %s\",\"cat\":\"thread\",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f,\"pid\":1,\"tid\":%u}",
             e.u.thread.exit ? "exit" : "start", ts, e.tid);
      if (!e.u.thread.exit)
        printf(",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"ts\":0,\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"thread %u\"}}", e.tid, e.tid);
      break;
    case KIT_TRACE_PROBE:
      printf(",\n{\"name\":");
      json_str(e.u.probe.spec);
      printf(",\"cat\":\"probe\",\"ph\":\"i\",\"s\":\"t\",\"ts\":%.3f,\"pid\":1,\"tid\":%u,\"args\":{\"pc\":\"0x%" PRIx64
             "\"}}", ts, e.tid, e.pc);
      break;
    case KIT_TRACE_EXIT:
      printf(",\n{\"name\":\"exit %d\",\"cat\":\"process\",\"ph\":\"i\",\"s\":\"p\",\"ts\":%.3f,\"pid\":1,\"tid\":%u}",
             e.u.exit.status, ts, e.tid);
      break;
    default: break;
    }
  }
  printf("\n]}\n");
  return rc < 0 ? (fprintf(stderr, "kit-trace: %s\n", kit_trace_error(r)), 1) : 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    usage(stdout);
    return 0;
  }
  if (argc >= 2 && !strcmp(argv[1], "--version")) {
    printf("kit-trace (kit) %s\ntrace format %u\n", KIT_VERSION, KIT_TRACE_VERSION);
    return 0;
  }
  const char *cmd = argc >= 2 ? argv[1] : "", *src = NULL;
  unsigned wait_ms = 5000;
  bool chrome_fmt = false;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--chrome")) chrome_fmt = true;
    else if (!strcmp(argv[i], "--wait") && i + 1 < argc) wait_ms = (unsigned)strtoul(argv[++i], NULL, 10);
    else if (!src && argv[i][0] != '-') src = argv[i];
    else {
      fprintf(stderr, "kit-trace: unexpected argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  bool known = !strcmp(cmd, "dump") || !strcmp(cmd, "stats") || !strcmp(cmd, "pcs") || !strcmp(cmd, "insns") ||
               !strcmp(cmd, "export");
  if (!known || !src || (!strcmp(cmd, "export") && !chrome_fmt)) {
    usage(stderr);
    return 2;
  }
  char err[256];
  KitTraceReader *r = kit_trace_reader_open(src, wait_ms, err, sizeof err);
  if (!r) {
    fprintf(stderr, "kit-trace: %s\n", err);
    return 1;
  }
  int rc = 0;
  if (!strcmp(cmd, "dump")) {
    const KitTraceHeader *h = kit_trace_header(r);
    printf("# kit trace v%u, machine %u, %s, %u registers\n", h->version, h->elf_machine, h->exe, h->nregs);
    if (h->build_id[0]) printf("# build id %s\n", h->build_id);
    KitTraceEvent e;
    int k;
    while ((k = kit_trace_next(r, &e)) == 1) dump_event(&e);
    if (k < 0) fprintf(stderr, "kit-trace: %s\n", kit_trace_error(r)), rc = 1;
  } else if (!strcmp(cmd, "stats")) {
    rc = stats(r);
  } else if (!strcmp(cmd, "pcs")) {
    rc = pcs(r);
  } else if (!strcmp(cmd, "insns")) {
    rc = insns(r);
  } else {
    rc = chrome(r);
  }
  kit_trace_reader_close(r);
  return rc;
}
