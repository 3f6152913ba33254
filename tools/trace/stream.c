/* tools/trace/stream.c — kit's trace stream (docs/trace-format.md): the byte
 * encoding of the header and records, over a file or a shared-memory ring
 * (a byte pipe in /dev/shm: the writer waits while it is full, or with drop
 * counts what it leaves out), for the writer and the reader alike. */
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kit/trace.h"

static const char FILE_MAGIC[8] = "KITTRACE";
static const char RING_MAGIC[8] = "KITRING";

/* the shared page in front of a ring's data */
typedef struct RingHead {
  char magic[8];
  uint32_t version, pad;
  uint64_t capacity;        /* bytes of data, a power of two */
  _Atomic uint64_t head;    /* bytes written, ever */
  _Atomic uint64_t tail;    /* bytes read, ever */
  _Atomic uint32_t closed;  /* the writer is done: what is between tail and head is the rest */
  uint32_t pad2;
  _Atomic uint64_t dropped; /* records the writer left out (--trace-drop), ever */
} RingHead;

enum { RING_PAGE = 4096 };

typedef struct Pipe {
  FILE *f;                 /* a file, or */
  RingHead *ring;          /* a ring */
  uint8_t *data;
  size_t map_len;
  char name[256];
  uint8_t *rbuf;           /* a ring reader's bytes taken from the ring at once */
  size_t rlen, rpos;
} Pipe;

enum { READ_CHUNK = 1 << 16 };

static void nap(void) { nanosleep(&(struct timespec){0, 50000}, NULL); }

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* ---- encoding ------------------------------------------------------------------ */

typedef struct Buf {
  uint8_t *p;
  size_t len, cap;
} Buf;

static void put(Buf *b, const void *v, size_t n) {
  if (b->len + n > b->cap) {
    b->cap = (b->len + n) * 2 + 64;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  memcpy(b->p + b->len, v, n);
  b->len += n;
}
static void put64(Buf *b, uint64_t v) { put(b, &v, 8); }
static void put32(Buf *b, uint32_t v) { put(b, &v, 4); }
static void put16(Buf *b, uint16_t v) { put(b, &v, 2); }
static void put8(Buf *b, uint8_t v) { put(b, &v, 1); }
static void pad8(Buf *b) {
  static const uint8_t z[8];
  put(b, z, (8 - b->len % 8) % 8);
}

static void encode_header(Buf *b, const KitTraceHeader *h) {
  put(b, FILE_MAGIC, 8);
  put32(b, KIT_TRACE_VERSION);
  put32(b, 0); /* the header's length, patched below */
  put16(b, h->elf_machine);
  put16(b, h->nregs);
  put32(b, 0);
  put64(b, h->start_ns ? h->start_ns : now_ns());
  for (uint16_t i = 0; i < h->nregs; i++) {
    size_t n = strlen(h->regs[i].name);
    put16(b, h->regs[i].regno), put16(b, h->regs[i].bits), put8(b, h->regs[i].group);
    put8(b, (uint8_t)(n > 255 ? 255 : n));
    put(b, h->regs[i].name, n > 255 ? 255 : n);
  }
  const char *exe = h->exe ? h->exe : "", *bid = h->build_id ? h->build_id : "";
  size_t ne = strlen(exe), nb = strlen(bid);
  put16(b, (uint16_t)(ne > 65535 ? 65535 : ne)), put(b, exe, ne > 65535 ? 65535 : ne);
  put8(b, (uint8_t)(nb > 255 ? 255 : nb)), put(b, bid, nb > 255 ? 255 : nb);
  pad8(b);
  uint32_t len = (uint32_t)b->len;
  memcpy(b->p + 12, &len, 4);
}

/* a record: u32 kind | words << 8, u32 tid, then the kind's fields, padded to 8 */
static void encode(Buf *b, const KitTraceEvent *e) {
  size_t at = b->len;
  put32(b, 0), put32(b, e->tid);
  switch (e->kind) {
  case KIT_TRACE_BLOCK: put64(b, e->pc); break;
  case KIT_TRACE_BRANCH: put64(b, e->pc), put64(b, e->u.branch.to), put64(b, e->u.branch.kind); break;
  case KIT_TRACE_MEM:
    put64(b, e->pc), put64(b, e->u.mem.addr), put64(b, e->u.mem.value);
    put64(b, e->u.mem.size | (uint64_t)e->u.mem.store << 8);
    break;
  case KIT_TRACE_REG: put64(b, e->pc), put64(b, e->u.reg.value), put64(b, e->u.reg.regno); break;
  case KIT_TRACE_SYSCALL:
    put64(b, e->time_ns), put64(b, e->u.syscall.nr);
    for (int i = 0; i < 6; i++) put64(b, e->u.syscall.args[i]);
    put64(b, (uint64_t)e->u.syscall.ret), put64(b, e->u.syscall.duration_ns);
    break;
  case KIT_TRACE_MMAP: {
    const char *path = e->u.mmap.path ? e->u.mmap.path : "";
    uint32_t n = (uint32_t)strlen(path);
    put64(b, e->time_ns), put64(b, e->u.mmap.addr), put64(b, e->u.mmap.len), put64(b, e->u.mmap.offset);
    put32(b, (uint32_t)e->u.mmap.prot), put32(b, e->u.mmap.flags), put32(b, n), put(b, path, n);
    break;
  }
  case KIT_TRACE_SIGNAL:
    put64(b, e->time_ns), put64(b, e->pc), put32(b, (uint32_t)e->u.signal.signo), put32(b, (uint32_t)e->u.signal.code);
    put64(b, e->u.signal.addr);
    break;
  case KIT_TRACE_THREAD:
    put64(b, e->time_ns), put32(b, e->u.thread.exit), put32(b, e->u.thread.parent);
    put32(b, (uint32_t)e->u.thread.status);
    break;
  case KIT_TRACE_TRANSLATE: {
    const uint8_t *len = e->u.translate.lengths;
    const uint64_t *jumps = e->u.translate.jumps;
    put64(b, e->pc), put32(b, e->u.translate.tier), put32(b, e->u.translate.ninsns);
    for (uint16_t i = 0; i < e->u.translate.ninsns; i++) put8(b, jumps ? len[i] : len[i] & ~KIT_TRACE_LEN_JUMP);
    pad8(b);
    for (uint16_t i = 0, j = 0; jumps && i < e->u.translate.ninsns; i++)
      if (len[i] & KIT_TRACE_LEN_JUMP) put64(b, jumps[j++]);
    break;
  }
  case KIT_TRACE_INVALIDATE: put64(b, e->u.invalidate.lo), put64(b, e->u.invalidate.hi), put64(b, e->u.invalidate.reason); break;
  case KIT_TRACE_DROPPED: put64(b, e->u.dropped.count); break;
  case KIT_TRACE_EXIT: put64(b, e->time_ns), put32(b, (uint32_t)e->u.exit.status); break;
  case KIT_TRACE_PARTIAL: put64(b, e->pc), put64(b, e->u.partial.count); break;
  case KIT_TRACE_CODE: put64(b, e->pc), put32(b, e->u.code.tier), put32(b, e->u.code.ninsns); break;
  case KIT_TRACE_PROBE: {
    const char *spec = e->u.probe.spec ? e->u.probe.spec : "";
    uint32_t n = (uint32_t)strlen(spec);
    put64(b, e->time_ns), put64(b, e->pc), put32(b, e->u.probe.index), put32(b, n), put(b, spec, n);
    break;
  }
  default: break;
  }
  pad8(b);
  uint32_t word = (uint32_t)e->kind | (uint32_t)((b->len - at) / 8) << 8;
  memcpy(b->p + at, &word, 4);
}

/* ---- the byte pipe ------------------------------------------------------------------- */

static int ring_map(Pipe *p, const char *name, size_t cap, bool create, char *err, size_t errsz) {
  snprintf(p->name, sizeof p->name, "/%s", name);
  if (create) shm_unlink(p->name); /* a reader still mapping an old ring keeps it to itself */
  int fd = create ? shm_open(p->name, O_RDWR | O_CREAT | O_EXCL, 0600) : shm_open(p->name, O_RDWR, 0);
  if (fd < 0) {
    snprintf(err, errsz, "shm:%s: %s", name, strerror(errno));
    return -1;
  }
  if (!create) {
    RingHead h;
    if (read(fd, &h, sizeof h) != (ssize_t)sizeof h || memcmp(h.magic, RING_MAGIC, 8)) {
      snprintf(err, errsz, "shm:%s: not a kit trace ring (yet)", name);
      close(fd);
      return -1;
    }
    if (atomic_load(&h.closed) && atomic_load(&h.head) == atomic_load(&h.tail)) {
      snprintf(err, errsz, "shm:%s: an old ring, closed and read to its end", name);
      close(fd);
      return -1;
    }
    cap = h.capacity;
  } else if (ftruncate(fd, (off_t)(RING_PAGE + cap)) < 0) {
    snprintf(err, errsz, "shm:%s: %s", name, strerror(errno));
    close(fd);
    return -1;
  }
  p->map_len = RING_PAGE + cap;
  void *m = mmap(NULL, p->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (m == MAP_FAILED) {
    snprintf(err, errsz, "shm:%s: %s", name, strerror(errno));
    return -1;
  }
  p->ring = m;
  p->data = (uint8_t *)m + RING_PAGE;
  if (create) {
    p->ring->version = KIT_TRACE_VERSION;
    p->ring->capacity = cap;
    atomic_store(&p->ring->head, 0);
    atomic_store(&p->ring->tail, 0);
    atomic_store(&p->ring->closed, 0);
    atomic_thread_fence(memory_order_release);
    memcpy(p->ring->magic, RING_MAGIC, 8); /* last: a reader that sees it sees the rest */
  }
  return 0;
}

/* room for n more bytes? (waits unless drop) */
static bool ring_room(Pipe *p, size_t n, bool drop) {
  RingHead *r = p->ring;
  if (n > r->capacity) return false;
  for (;;) {
    uint64_t used = atomic_load(&r->head) - atomic_load_explicit(&r->tail, memory_order_acquire);
    if (r->capacity - used >= n) return true;
    if (drop) return false;
    nap();
  }
}

static void ring_put(Pipe *p, const uint8_t *src, size_t n) {
  RingHead *r = p->ring;
  uint64_t head = atomic_load(&r->head);
  for (size_t i = 0; i < n;) {
    size_t at = (size_t)((head + i) & (r->capacity - 1)), k = r->capacity - at;
    if (k > n - i) k = n - i;
    memcpy(p->data + at, src + i, k);
    i += k;
  }
  atomic_store_explicit(&r->head, head + n, memory_order_release);
}

/* take what the ring holds (up to READ_CHUNK bytes) into the reader's
 * buffer, waiting while it is empty: false at the end (closed and empty) */
static bool ring_refill(Pipe *p) {
  RingHead *r = p->ring;
  if (!p->rbuf && !(p->rbuf = malloc(READ_CHUNK))) return false;
  uint64_t tail = atomic_load(&r->tail);
  for (;;) {
    uint64_t avail = atomic_load_explicit(&r->head, memory_order_acquire) - tail;
    if (avail) {
      size_t n = avail < READ_CHUNK ? (size_t)avail : READ_CHUNK;
      for (size_t i = 0; i < n;) {
        size_t at = (size_t)((tail + i) & (r->capacity - 1)), k = r->capacity - at;
        if (k > n - i) k = n - i;
        memcpy(p->rbuf + i, p->data + at, k);
        i += k;
      }
      atomic_store_explicit(&r->tail, tail + n, memory_order_release);
      p->rlen = n, p->rpos = 0;
      return true;
    }
    if (atomic_load(&r->closed) && atomic_load(&r->head) == tail) return false;
    nap();
  }
}

/* the next piece of a file into the reader's buffer: false at its end */
static bool file_refill(Pipe *p) {
  if (!p->rbuf && !(p->rbuf = malloc(READ_CHUNK))) return false;
  p->rlen = fread(p->rbuf, 1, READ_CHUNK, p->f), p->rpos = 0;
  return p->rlen > 0;
}

/* n bytes: n, 0 at a clean end, anything between for a stream cut short
 * (a ring: what is left when the writer closed it first) */
static size_t pipe_get(Pipe *p, uint8_t *dst, size_t n) {
  size_t got = 0;
  while (got < n) {
    if (p->rpos == p->rlen && !(p->ring ? ring_refill(p) : file_refill(p))) break;
    size_t k = p->rlen - p->rpos < n - got ? p->rlen - p->rpos : n - got;
    memcpy(dst + got, p->rbuf + p->rpos, k);
    p->rpos += k, got += k;
  }
  return got;
}


/* ---- the writer ------------------------------------------------------------------------ */

struct KitTraceWriter {
  Pipe pipe;
  bool drop;
  uint64_t dropped;
  Buf buf;
};

KitTraceWriter *kit_trace_writer_open(const char *dest, const KitTraceHeader *h, size_t ring_bytes, bool drop,
                                      char *err, size_t errsz) {
  KitTraceWriter *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->drop = drop;
  if (!strncmp(dest, "shm:", 4)) {
    if (!ring_bytes) ring_bytes = 1u << 24;
    if (ring_bytes & (ring_bytes - 1) || ring_bytes < 4096) {
      snprintf(err, errsz, "%s: the ring size must be a power of two of at least 4096 bytes", dest);
      free(w);
      return NULL;
    }
    if (ring_map(&w->pipe, dest + 4, ring_bytes, true, err, errsz) < 0) {
      free(w);
      return NULL;
    }
  } else if (!(w->pipe.f = fopen(dest, "wbe"))) {
    snprintf(err, errsz, "%s: %s", dest, strerror(errno));
    free(w);
    return NULL;
  }
  encode_header(&w->buf, h);
  if (w->pipe.ring) {
    ring_room(&w->pipe, w->buf.len, false);
    ring_put(&w->pipe, w->buf.p, w->buf.len);
  } else {
    fwrite(w->buf.p, 1, w->buf.len, w->pipe.f);
  }
  w->buf.len = 0;
  return w;
}

int kit_trace_write(KitTraceWriter *w, const KitTraceEvent *ev) {
  w->buf.len = 0;
  if (w->dropped) {
    KitTraceEvent d = {.kind = KIT_TRACE_DROPPED, .tid = ev->tid, .u.dropped.count = w->dropped};
    encode(&w->buf, &d);
  }
  encode(&w->buf, ev);
  if (!w->pipe.f) {
    if (!ring_room(&w->pipe, w->buf.len, w->drop)) {
      w->dropped++;
      atomic_fetch_add(&w->pipe.ring->dropped, 1);
      return 0;
    }
    ring_put(&w->pipe, w->buf.p, w->buf.len);
    w->dropped = 0;
    return 0;
  }
  w->dropped = 0;
  return fwrite(w->buf.p, 1, w->buf.len, w->pipe.f) == w->buf.len ? 0 : -1;
}

size_t kit_trace_encode(const KitTraceEvent *ev, void *dst, size_t cap) {
  Buf b = {0};
  encode(&b, ev);
  size_t n = b.len;
  if (n <= cap) memcpy(dst, b.p, n);
  free(b.p);
  return n;
}

int kit_trace_write_records(KitTraceWriter *w, const void *recs, size_t bytes, uint64_t nrecords, bool must) {
  uint8_t lost[16];
  size_t nlost = 0;
  if (w->dropped) {
    KitTraceEvent d = {.kind = KIT_TRACE_DROPPED, .u.dropped.count = w->dropped};
    nlost = kit_trace_encode(&d, lost, sizeof lost);
  }
  if (w->pipe.f) { /* flushed at once: a fork child of the writer must not write the same bytes again */
    w->dropped = 0;
    return fwrite(recs, 1, bytes, w->pipe.f) == bytes && !fflush(w->pipe.f) ? 0 : -1;
  }
  if (!ring_room(&w->pipe, nlost + bytes, w->drop && !must)) {
    if (nlost + bytes > w->pipe.ring->capacity) return -1;
    w->dropped += nrecords;
    atomic_fetch_add(&w->pipe.ring->dropped, nrecords);
    return 0;
  }
  if (nlost) ring_put(&w->pipe, lost, nlost);
  ring_put(&w->pipe, recs, bytes);
  w->dropped = 0;
  return 0;
}

size_t kit_trace_block_pcs(const KitTraceEvent *e, uint64_t *out, size_t cap) {
  uint64_t pc = e->pc;
  size_t j = 0;
  for (size_t i = 0; i < e->u.translate.ninsns; i++) {
    if (i < cap) out[i] = pc;
    uint8_t len = e->u.translate.lengths[i];
    if (len & KIT_TRACE_LEN_JUMP) {
      uint64_t to;
      memcpy(&to, e->u.translate.jumps + j++, 8);
      pc = to;
    } else {
      pc += len;
    }
  }
  return e->u.translate.ninsns;
}

int kit_trace_writer_close(KitTraceWriter *w) {
  int rc = 0;
  if (w->pipe.f) {
    rc = fclose(w->pipe.f) ? -1 : 0;
  } else {
    atomic_store(&w->pipe.ring->closed, 1);
    munmap(w->pipe.ring, w->pipe.map_len);
  }
  free(w->buf.p);
  free(w);
  return rc;
}

/* ---- the reader --------------------------------------------------------------------------- */

struct KitTraceReader {
  Pipe pipe;
  KitTraceHeader h;
  KitTraceReg *regs;
  char *exe, *bid;
  uint8_t *rec;
  size_t rec_cap;
  char error[160];
  uint64_t offset;  /* bytes read, for messages */
  uint64_t dropped; /* the loss DROPPED records reported so far */
  bool ended;
};

static uint64_t get64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint16_t get16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

static bool read_header(KitTraceReader *r, char *err, size_t errsz) {
  uint8_t fixed[32];
  if (pipe_get(&r->pipe, fixed, 32) != 32 || memcmp(fixed, FILE_MAGIC, 8)) {
    snprintf(err, errsz, "not a kit trace (no KITTRACE header)");
    return false;
  }
  uint32_t version = get32(fixed + 8), len = get32(fixed + 12);
  if (version < KIT_TRACE_MIN_VERSION || version > KIT_TRACE_VERSION) {
    snprintf(err, errsz, "trace format version %u; this reader takes versions %u to %u", version, KIT_TRACE_MIN_VERSION,
             KIT_TRACE_VERSION);
    return false;
  }
  if (len < 32 || len > (1u << 20) || len % 8) {
    snprintf(err, errsz, "trace header of %u bytes: malformed", len);
    return false;
  }
  uint8_t *rest = malloc(len - 32 + 1);
  if (!rest || pipe_get(&r->pipe, rest, len - 32) != len - 32) {
    free(rest);
    snprintf(err, errsz, "trace header cut short");
    return false;
  }
  r->h.version = version;
  r->h.elf_machine = get16(fixed + 16);
  r->h.nregs = get16(fixed + 18);
  r->h.start_ns = get64(fixed + 24);
  r->regs = calloc(r->h.nregs + 1u, sizeof *r->regs);
  size_t at = 0, n = len - 32;
  bool ok = r->regs != NULL;
  for (uint16_t i = 0; ok && i < r->h.nregs; i++) {
    ok = at + 6 <= n && at + 6 + rest[at + 5] <= n;
    if (!ok) break;
    char *name = strndup((char *)rest + at + 6, rest[at + 5]);
    r->regs[i] = (KitTraceReg){get16(rest + at), get16(rest + at + 2), rest[at + 4], name};
    at += 6u + rest[at + 5];
  }
  ok = ok && at + 2 <= n && at + 2 + get16(rest + at) + 1 <= n;
  if (ok) {
    r->exe = strndup((char *)rest + at + 2, get16(rest + at));
    at += 2u + get16(rest + at);
    ok = at + 1 + rest[at] <= n;
    if (ok) r->bid = strndup((char *)rest + at + 1, rest[at]);
  }
  free(rest);
  if (!ok) {
    snprintf(err, errsz, "trace header malformed (register descriptor or executable)");
    return false;
  }
  r->h.regs = r->regs, r->h.exe = r->exe, r->h.build_id = r->bid;
  r->offset = len;
  return true;
}

KitTraceReader *kit_trace_reader_open(const char *src, unsigned wait_ms, char *err, size_t errsz) {
  KitTraceReader *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  if (!strncmp(src, "shm:", 4)) {
    int rc;
    for (unsigned waited = 0; (rc = ring_map(&r->pipe, src + 4, 0, false, err, errsz)) < 0 && waited < wait_ms; waited++)
      nanosleep(&(struct timespec){0, 1000000}, NULL);
    if (rc < 0) {
      free(r);
      return NULL;
    }
  } else if (!(r->pipe.f = fopen(src, "rb"))) {
    snprintf(err, errsz, "%s: %s", src, strerror(errno));
    free(r);
    return NULL;
  }
  if (!read_header(r, err, errsz)) {
    kit_trace_reader_close(r);
    return NULL;
  }
  return r;
}

const KitTraceHeader *kit_trace_header(const KitTraceReader *r) { return &r->h; }
const char *kit_trace_error(const KitTraceReader *r) { return r->error; }

/* the minimum size of each kind's record, in bytes */
static size_t min_size(KitTraceKind k) {
  static const uint8_t sz[KIT_TRACE_KIND_MAX] = {
      [KIT_TRACE_BLOCK] = 16, [KIT_TRACE_BRANCH] = 32, [KIT_TRACE_MEM] = 40, [KIT_TRACE_REG] = 32,
      [KIT_TRACE_SYSCALL] = 88, [KIT_TRACE_MMAP] = 52, [KIT_TRACE_SIGNAL] = 40, [KIT_TRACE_THREAD] = 20,
      [KIT_TRACE_TRANSLATE] = 24, [KIT_TRACE_INVALIDATE] = 32, [KIT_TRACE_DROPPED] = 16, [KIT_TRACE_EXIT] = 20,
      [KIT_TRACE_PARTIAL] = 24, [KIT_TRACE_PROBE] = 32, [KIT_TRACE_CODE] = 24};
  return k > 0 && k < KIT_TRACE_KIND_MAX ? sz[k] : 0;
}

static void decode(const uint8_t *p, size_t size, KitTraceEvent *e) {
  const uint8_t *f = p + 8;
  switch (e->kind) {
  case KIT_TRACE_BLOCK: e->pc = get64(f); break;
  case KIT_TRACE_BRANCH: e->pc = get64(f), e->u.branch.to = get64(f + 8), e->u.branch.kind = (uint8_t)get64(f + 16); break;
  case KIT_TRACE_MEM:
    e->pc = get64(f), e->u.mem.addr = get64(f + 8), e->u.mem.value = get64(f + 16);
    e->u.mem.size = (uint8_t)get64(f + 24), e->u.mem.store = (get64(f + 24) >> 8) & 1;
    break;
  case KIT_TRACE_REG: e->pc = get64(f), e->u.reg.value = get64(f + 8), e->u.reg.regno = (uint16_t)get64(f + 16); break;
  case KIT_TRACE_SYSCALL:
    e->time_ns = get64(f), e->u.syscall.nr = get64(f + 8);
    for (int i = 0; i < 6; i++) e->u.syscall.args[i] = get64(f + 16 + 8 * i);
    e->u.syscall.ret = (int64_t)get64(f + 64);
    e->u.syscall.duration_ns = get64(f + 72);
    break;
  case KIT_TRACE_MMAP: {
    e->time_ns = get64(f), e->u.mmap.addr = get64(f + 8), e->u.mmap.len = get64(f + 16), e->u.mmap.offset = get64(f + 24);
    e->u.mmap.prot = (int32_t)get32(f + 32), e->u.mmap.flags = get32(f + 36);
    uint32_t n = get32(f + 40);
    if (52 + (size_t)n > size) n = (uint32_t)(size - 52);
    /* the path is NUL-terminated in place: the padding after it (or the next
     * byte of the record buffer, which has room) takes the NUL */
    ((uint8_t *)f)[44 + n] = 0;
    e->u.mmap.path = (const char *)f + 44;
    break;
  }
  case KIT_TRACE_SIGNAL:
    e->time_ns = get64(f), e->pc = get64(f + 8), e->u.signal.signo = (int32_t)get32(f + 16);
    e->u.signal.code = (int32_t)get32(f + 20), e->u.signal.addr = get64(f + 24);
    break;
  case KIT_TRACE_THREAD:
    e->time_ns = get64(f), e->u.thread.exit = get32(f + 8) != 0, e->u.thread.parent = get32(f + 12);
    e->u.thread.status = (int32_t)get32(f + 16);
    break;
  case KIT_TRACE_TRANSLATE: {
    e->pc = get64(f), e->u.translate.tier = (uint8_t)get32(f + 8);
    uint32_t n = get32(f + 12);
    if (24 + (size_t)n > size) n = (uint32_t)(size - 24);
    /* the jump list after the padded lengths: a flag without its entry is cleared */
    size_t at = 24 + ((size_t)n + 7) / 8 * 8;
    uint8_t *len = (uint8_t *)f + 16;
    for (uint32_t i = 0; i < n; i++)
      if (len[i] & KIT_TRACE_LEN_JUMP) {
        if (at + 8 <= size) at += 8;
        else len[i] &= (uint8_t)~KIT_TRACE_LEN_JUMP;
      }
    e->u.translate.ninsns = (uint16_t)n, e->u.translate.lengths = len;
    e->u.translate.jumps = (const uint64_t *)(p + 24 + ((size_t)n + 7) / 8 * 8);
    break;
  }
  case KIT_TRACE_INVALIDATE:
    e->u.invalidate.lo = get64(f), e->u.invalidate.hi = get64(f + 8), e->u.invalidate.reason = (uint8_t)get64(f + 16);
    break;
  case KIT_TRACE_DROPPED: e->u.dropped.count = get64(f); break;
  case KIT_TRACE_EXIT: e->time_ns = get64(f), e->u.exit.status = (int32_t)get32(f + 8); break;
  case KIT_TRACE_PARTIAL: e->pc = get64(f), e->u.partial.count = get64(f + 8); break;
  case KIT_TRACE_CODE: e->pc = get64(f), e->u.code.tier = (uint8_t)get32(f + 8), e->u.code.ninsns = get32(f + 12); break;
  case KIT_TRACE_PROBE: {
    e->time_ns = get64(f), e->pc = get64(f + 8), e->u.probe.index = get32(f + 16);
    uint32_t n = get32(f + 20);
    if (32 + (size_t)n > size) n = (uint32_t)(size - 32);
    ((uint8_t *)f)[24 + n] = 0; /* as an mmap record's path: in the padding, or the byte after */
    e->u.probe.spec = (const char *)f + 24;
    break;
  }
  default: break;
  }
}

/* at the end of a ring: the loss no DROPPED record got in to say (the ring
 * stayed full until the writer closed it), as one last DROPPED event */
static int end_of_stream(KitTraceReader *r, KitTraceEvent *ev) {
  uint64_t total = r->pipe.ring ? atomic_load(&r->pipe.ring->dropped) : 0;
  if (r->ended || total <= r->dropped) return 0;
  r->ended = true;
  memset(ev, 0, sizeof *ev);
  ev->kind = KIT_TRACE_DROPPED;
  ev->u.dropped.count = total - r->dropped;
  return 1;
}

static void event_head(KitTraceEvent *ev, KitTraceKind kind, uint32_t tid) {
  ev->kind = kind;
  ev->tid = tid;
  ev->time_ns = 0;
  ev->pc = 0;
}

int kit_trace_next(KitTraceReader *r, KitTraceEvent *ev) {
  /* the common case: a whole record in the reader's buffer, decoded in place
   * (not an mmap or probe record, whose string is NUL-terminated in the byte after it) */
  Pipe *p = &r->pipe;
  if (p->rlen - p->rpos >= 8) {
    const uint8_t *at = p->rbuf + p->rpos;
    uint32_t word = get32(at);
    KitTraceKind kind = (KitTraceKind)(word & 0xff);
    size_t size = (size_t)(word >> 8) * 8;
    if (kind != KIT_TRACE_MMAP && kind != KIT_TRACE_PROBE && min_size(kind) && size >= min_size(kind) && size <= p->rlen - p->rpos) {
      p->rpos += size;
      r->offset += size;
      event_head(ev, kind, get32(at + 4));
      memset(&ev->u, 0, sizeof ev->u);
      decode(at, size, ev);
      if (kind == KIT_TRACE_DROPPED) r->dropped += ev->u.dropped.count;
      return 1;
    }
  }
  uint8_t head[8];
  size_t got = pipe_get(&r->pipe, head, 8);
  if (got == 0) return end_of_stream(r, ev);
  if (got != 8) {
    snprintf(r->error, sizeof r->error, "record at byte %llu cut short", (unsigned long long)r->offset);
    return -1;
  }
  uint32_t word = get32(head);
  KitTraceKind kind = (KitTraceKind)(word & 0xff);
  size_t size = (size_t)(word >> 8) * 8;
  if (size < min_size(kind) || !min_size(kind) || size > (64u << 20)) {
    snprintf(r->error, sizeof r->error, "malformed record at byte %llu: kind %u, %zu bytes",
             (unsigned long long)r->offset, (unsigned)kind, size);
    return -1;
  }
  if (size + 1 > r->rec_cap) {
    r->rec_cap = size * 2 + 64;
    r->rec = realloc(r->rec, r->rec_cap);
    if (!r->rec) abort();
  }
  memcpy(r->rec, head, 8);
  if (pipe_get(&r->pipe, r->rec + 8, size - 8) != size - 8) {
    snprintf(r->error, sizeof r->error, "record at byte %llu cut short", (unsigned long long)r->offset);
    return -1;
  }
  r->rec[size] = 0;
  r->offset += size;
  memset(ev, 0, sizeof *ev);
  ev->kind = kind;
  ev->tid = get32(head + 4);
  decode(r->rec, size, ev);
  if (kind == KIT_TRACE_DROPPED) r->dropped += ev->u.dropped.count;
  return 1;
}

void kit_trace_reader_close(KitTraceReader *r) {
  if (!r) return;
  if (r->pipe.f) fclose(r->pipe.f), free(r->pipe.rbuf);
  if (r->pipe.ring) {
    /* the reader that saw the end removes the ring: the next writer makes a new one */
    if (atomic_load(&r->pipe.ring->closed) && atomic_load(&r->pipe.ring->head) == atomic_load(&r->pipe.ring->tail))
      shm_unlink(r->pipe.name);
    munmap(r->pipe.ring, r->pipe.map_len);
    free(r->pipe.rbuf);
  }
  for (uint16_t i = 0; r->regs && i < r->h.nregs; i++) free((char *)r->regs[i].name);
  free(r->regs);
  free(r->exe);
  free(r->bid);
  free(r->rec);
  free(r);
}

const char *kit_trace_kind_name(KitTraceKind k) {
  static const char *const names[KIT_TRACE_KIND_MAX] = {
      [KIT_TRACE_BLOCK] = "block", [KIT_TRACE_BRANCH] = "branch", [KIT_TRACE_MEM] = "mem",
      [KIT_TRACE_REG] = "regs", [KIT_TRACE_SYSCALL] = "syscall", [KIT_TRACE_MMAP] = "mmap",
      [KIT_TRACE_SIGNAL] = "signal", [KIT_TRACE_THREAD] = "thread", [KIT_TRACE_TRANSLATE] = "translate",
      [KIT_TRACE_INVALIDATE] = "invalidate", [KIT_TRACE_DROPPED] = "dropped", [KIT_TRACE_EXIT] = "exit",
      [KIT_TRACE_PARTIAL] = "partial", [KIT_TRACE_PROBE] = "probe", [KIT_TRACE_CODE] = "code"};
  return k > 0 && k < KIT_TRACE_KIND_MAX ? names[k] : "unknown";
}
