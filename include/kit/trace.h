/* include/kit/trace.h — kit's trace stream (docs/trace-format.md): the
 * records kit-emu --trace writes to a file or a shared-memory ring, and the
 * library that writes and reads them (libkit_trace; pkg-config kit-trace).
 * A reader sees one event at a time; pointers in an event stay valid until
 * the next call. */
#ifndef KIT_TRACE_H
#define KIT_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KIT_TRACE_VERSION 3u
#define KIT_TRACE_MIN_VERSION 2u /* the oldest a reader takes (version 3 added CODE records) */

typedef enum KitTraceKind {
  KIT_TRACE_BLOCK = 1,      /* a translated block ran: pc (its instructions: its TRANSLATE record) */
  KIT_TRACE_BRANCH = 2,     /* from, to, branch kind */
  KIT_TRACE_MEM = 3,        /* pc, addr, size, store?, value */
  KIT_TRACE_REG = 4,        /* pc, register, value */
  KIT_TRACE_SYSCALL = 5,    /* number, arguments, result */
  KIT_TRACE_MMAP = 6,       /* addr, length, prot, flags, offset, path ("" anonymous); munmap: prot -1 */
  KIT_TRACE_SIGNAL = 7,     /* signo, code, fault address */
  KIT_TRACE_THREAD = 8,     /* start (parent) or exit (status) */
  KIT_TRACE_TRANSLATE = 9,  /* a block translated: pc, tier, instruction lengths, followed jumps */
  KIT_TRACE_INVALIDATE = 10, /* translations dropped over [lo, hi): reason */
  KIT_TRACE_DROPPED = 11,   /* count records dropped before this one (--trace-drop) */
  KIT_TRACE_EXIT = 12,      /* the process ended: status */
  KIT_TRACE_PARTIAL = 13,   /* the thread's last block (pc) retired only its first count instructions (a fault) */
  KIT_TRACE_PROBE = 14,     /* a --probe hit: pc, the probe's number and spec */
  KIT_TRACE_CODE = 15,      /* machine code installed for the block at pc: tier, guest instructions it covers */
  KIT_TRACE_KIND_MAX
} KitTraceKind;

typedef struct KitTraceReg {
  uint16_t regno;
  uint16_t bits;
  uint8_t group;        /* 0 integer, 1 float, 2 pc, 3 csr */
  const char *name;
} KitTraceReg;

typedef struct KitTraceHeader {
  uint32_t version;
  uint16_t elf_machine; /* EM_RISCV = 243 */
  uint64_t start_ns;    /* CLOCK_REALTIME at the start */
  const char *exe;      /* the executable's path */
  const char *build_id; /* hex, "" if none */
  const KitTraceReg *regs;
  uint16_t nregs;
} KitTraceHeader;

typedef struct KitTraceEvent {
  KitTraceKind kind;
  uint32_t tid;
  uint64_t time_ns;     /* since start: set on SYSCALL, SIGNAL, THREAD, MMAP, EXIT, PROBE (0 on the others) */
  uint64_t pc;          /* BLOCK, MEM, REG, TRANSLATE, SIGNAL (the pc it was delivered at) */
  union {
    struct { uint64_t to; uint8_t kind; } branch;              /* pc is the branch's */
    struct { uint64_t addr, value; uint8_t size; bool store; } mem;
    struct { uint16_t regno; uint64_t value; } reg;
    struct { uint64_t nr, args[6]; int64_t ret; uint64_t duration_ns; } syscall; /* time_ns: its entry */
    /* prot -1: munmap; flags KIT_TRACE_MMAP_PROTECT: an mprotect (prot the new one);
     * else the mmap flags of the system call (0 for the mappings the loader made) */
    struct { uint64_t addr, len, offset; int32_t prot; uint32_t flags; const char *path; } mmap;
    struct { int32_t signo, code; uint64_t addr; } signal;
    struct { bool exit; uint32_t parent; int32_t status; } thread;
    /* lengths[i] & 0x7f is instruction i's length; with KIT_TRACE_LEN_JUMP
     * set the next instruction is not at pc + length but at the next entry
     * of jumps (a direct jump the block went on through): expand with
     * kit_trace_block_pcs */
    struct { uint8_t tier; uint16_t ninsns; const uint8_t *lengths; const uint64_t *jumps; } translate;
    struct { uint64_t lo, hi; uint8_t reason; } invalidate;
    struct { uint64_t count; } dropped;
    struct { int32_t status; } exit;
    struct { uint64_t count; } partial;                          /* pc is the block's */
    struct { uint32_t index; const char *spec; } probe;            /* pc is the probed instruction's */
    struct { uint8_t tier; uint32_t ninsns; } code;                /* pc is the block's */
  } u;
} KitTraceEvent;

enum { KIT_TRACE_LEN_JUMP = 0x80 };
/* tiers (TRANSLATE: the one a block starts in; CODE: the one it runs in from then on) */
enum { KIT_TRACE_TIER_INTERP = 0, KIT_TRACE_TIER_BASELINE = 1, KIT_TRACE_TIER_LLVM = 2, KIT_TRACE_TIER_2 = 3 };
#define KIT_TRACE_MMAP_PROTECT 0x80000000u

/* The pcs of a TRANSLATE event's instructions, in order (at most cap):
 * how many it has. */
size_t kit_trace_block_pcs(const KitTraceEvent *translate, uint64_t *out, size_t cap);

/* ---- writing (the emulator's --trace, tests) ------------------------------------- */

typedef struct KitTraceWriter KitTraceWriter;
/* dest: a file path, or "shm:NAME" (a ring of ring_bytes, a power of two, in
 * /dev/shm/NAME). NULL with a message in err on failure. */
KitTraceWriter *kit_trace_writer_open(const char *dest, const KitTraceHeader *h, size_t ring_bytes, bool drop,
                                      char *err, size_t errsz);
/* Append one event; a full ring waits for the reader unless the writer drops
 * (then the loss is counted and a DROPPED record precedes the next one that
 * fits). 0, or -1 on a write error. */
int kit_trace_write(KitTraceWriter *w, const KitTraceEvent *ev);
/* Encode ev as a record into dst: its size in bytes (a multiple of 8),
 * written only when it is at most cap. */
size_t kit_trace_encode(const KitTraceEvent *ev, void *dst, size_t cap);
/* Append records already encoded (kit_trace_encode, or the hot kinds written
 * word by word as docs/trace-format.md lays them out): bytes of them,
 * nrecords in all. A full ring waits for the reader, or with drop (and
 * must false) leaves all of them out and counts nrecords lost; must waits
 * even in a dropping writer (translations a reader needs to expand blocks).
 * 0, or -1 on a write error. */
int kit_trace_write_records(KitTraceWriter *w, const void *recs, size_t bytes, uint64_t nrecords, bool must);
/* Flush and close (a ring gets an end mark its reader sees). 0, or -1. */
int kit_trace_writer_close(KitTraceWriter *w);

/* ---- reading ------------------------------------------------------------------------ */

typedef struct KitTraceReader KitTraceReader;
/* src: a file written by kit-emu --trace-out=FILE, or "shm:NAME" (waits for
 * the writer to create it for up to wait_ms). NULL with a message on err. */
KitTraceReader *kit_trace_reader_open(const char *src, unsigned wait_ms, char *err, size_t errsz);
const KitTraceHeader *kit_trace_header(const KitTraceReader *r);
/* The next event: 1, 0 at the end of the stream, -1 on a malformed stream
 * (kit_trace_error says where). */
int kit_trace_next(KitTraceReader *r, KitTraceEvent *ev);
const char *kit_trace_error(const KitTraceReader *r);
void kit_trace_reader_close(KitTraceReader *r);

const char *kit_trace_kind_name(KitTraceKind k);

#ifdef __cplusplus
}
#endif
#endif
