/* cg/llvm/jit_tls.c — emulated thread-local storage for jitted code.
 * LLJIT's C API cannot install a platform that allocates TLS for the code it
 * loads, so the lowering (jit mode) turns every TLS global into a control
 * object {size, align, initial image, key} and every address of it into a
 * call of __kit_tls_get(&control), this function: the calling thread's copy,
 * made on its first use from the image. It is the scheme of GCC's emutls,
 * with our own helper so no libgcc symbol is needed. */
#include "llvm.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct TlsControl {
  uint64_t size, align;
  const void *image; /* initial contents (the template global) */
  uint64_t key;      /* 0 until the first use anywhere; then 1, 2, ... */
} TlsControl;

/* this thread's copies, indexed by key */
typedef struct TlsTable {
  uint64_t n;
  void *copy[];
} TlsTable;

static _Thread_local TlsTable *table;
static pthread_key_t exit_key;
static pthread_once_t exit_once = PTHREAD_ONCE_INIT;
static uint64_t next_key; /* atomic */

/* frees a finished thread's copies */
static void free_table(void *p) {
  TlsTable *t = p;
  for (uint64_t i = 0; i < t->n; i++) free(t->copy[i]);
  free(t);
  table = NULL; /* a later destructor's TLS access makes a fresh table */
}

static void make_exit_key(void) { pthread_key_create(&exit_key, free_table); }

/* the slow path: a key for a control seen first, a bigger table, a copy */
static void *first_use(TlsControl *c, uint64_t key) {
  if (!key) {
    uint64_t fresh = __atomic_add_fetch(&next_key, 1, __ATOMIC_RELAXED), expected = 0;
    /* two threads may race for the control's key: the first one wins */
    bool won = __atomic_compare_exchange_n(&c->key, &expected, fresh, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    key = won ? fresh : expected;
  }
  if (!table || key > table->n) {
    uint64_t n = table ? table->n : 0, want = key > 2 * n ? key : 2 * n;
    TlsTable *t = realloc(table, sizeof *t + want * sizeof t->copy[0]);
    if (!t) return NULL;
    memset(t->copy + n, 0, (want - n) * sizeof t->copy[0]);
    t->n = want;
    table = t;
    pthread_once(&exit_once, make_exit_key);
    pthread_setspecific(exit_key, t);
  }
  void **slot = &table->copy[key - 1];
  if (!*slot) {
    uint64_t align = c->align < sizeof(void *) ? sizeof(void *) : c->align;
    uint64_t size = (c->size + align - 1) / align * align; /* aligned_alloc wants a multiple */
    void *p = aligned_alloc(align, size ? size : align);
    if (!p) return NULL;
    if (c->image) memcpy(p, c->image, c->size);
    else memset(p, 0, c->size);
    *slot = p;
  }
  return *slot;
}

void *kit_jit__tls_get(void *control) {
  TlsControl *c = control;
  if (!c) return NULL;
  uint64_t key = __atomic_load_n(&c->key, __ATOMIC_ACQUIRE);
  if (key && table && key <= table->n && table->copy[key - 1]) return table->copy[key - 1];
  return first_use(c, key);
}
