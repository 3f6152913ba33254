/* frontends/c/arena.c — the frontend's one allocation arena: everything the
 * parser and lowering allocate lives until the compilation ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"

typedef struct Chunk {
  struct Chunk *next;
  size_t used, cap;
  _Alignas(16) unsigned char data[];
} Chunk;

static Chunk *chunks;
static unsigned generation;

void *c_alloc(size_t size) {
  size = (size + 15) & ~(size_t)15;
  if (!chunks || chunks->cap - chunks->used < size) {
    size_t cap = size > (1u << 20) ? size : (1u << 20);
    Chunk *c = malloc(sizeof(Chunk) + cap);
    if (!c) {
      fputs("kitcc: out of memory\n", stderr);
      exit(1);
    }
    c->next = chunks;
    c->used = 0;
    c->cap = cap;
    chunks = c;
  }
  void *p = chunks->data + chunks->used;
  chunks->used += size;
  memset(p, 0, size);
  return p;
}

char *c_strndup(const char *s, size_t n) {
  char *p = c_alloc(n + 1);
  memcpy(p, s, n);
  return p;
}

char *c_strdup(const char *s) { return c_strndup(s, strlen(s)); }

unsigned c_arena_generation(void) { return generation; }

void c_arena_free_all(void) {
  generation++;
  while (chunks) {
    Chunk *n = chunks->next;
    free(chunks);
    chunks = n;
  }
}
