/* emu/tools/callgrind/profile.h — the profile core of --tool=callgrind,
 * independent of the emulator: a calling-context tree (every distinct call
 * path a node, with its self cost per source position and its call count),
 * written as a callgrind.out file (format version 1, which callgrind_annotate
 * and KCachegrind read), as folded stacks and as an SVG flame graph; and
 * cachegrind's cache model (cache.c). */
#ifndef KIT_PROFILE_H
#define KIT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum { KIT_PROF_MAX_EVENTS = 16 };

typedef struct KitProf KitProf;
typedef uint32_t KitProfFn;   /* an interned (object, file, function) */
typedef uint32_t KitProfNode; /* a calling context; 0 is the root (no function) */

/* events: the cost columns ("Ir", or cachegrind's Ir Dr Dw I1mr ...) */
KitProf *kit_prof_new(const char *const *events, unsigned nevents);
void kit_prof_free(KitProf *p);
unsigned kit_prof_nevents(const KitProf *p);

/* The function `name` of object `obj` (a path) defined in source `file`
 * ("???" when unknown); the same triple gives the same id. */
KitProfFn kit_prof_fn(KitProf *p, const char *obj, const char *file, const char *name);

/* The context `callee` called from `parent` (created on first use); counts
 * one call from the call site `line` of the parent's function. */
KitProfNode kit_prof_enter(KitProf *p, KitProfNode parent, KitProfFn callee, uint32_t line);
KitProfNode kit_prof_parent(const KitProf *p, KitProfNode n);
KitProfFn kit_prof_node_fn(const KitProf *p, KitProfNode n);

/* Self cost in context n at source position (file, line) — file is the
 * function's own unless code was inlined from elsewhere (written as fi=/fe=);
 * NULL means the function's file. costs has nevents entries. */
void kit_prof_cost(KitProf *p, KitProfNode n, const char *file, uint32_t line, const uint64_t *costs);

/* the sum of all self costs of event e (of the function-level figures
 * below when there are any) */
uint64_t kit_prof_total(const KitProf *p, unsigned e);

/* ---- function-level figures, as callgrind keeps them ----------------------------
 * A collector that keeps self costs per function and call costs per call
 * site itself (no calling context: exact however deep the recursion) gives
 * them here; when there are any, kit_prof_write_callgrind writes these
 * instead of summing the contexts, which then feed only the folded stacks
 * and the flame graph. addr is the position's instruction address (written
 * with kit_prof_set_instr_positions; 0 otherwise). */
void kit_prof_fn_cost(KitProf *p, KitProfFn fn, const char *file, uint32_t line, uint64_t addr, const uint64_t *costs);
/* calls calls of callee from the call site (line, addr) of caller, whose
 * inclusive cost was incl (nevents entries) */
void kit_prof_fn_call(KitProf *p, KitProfFn caller, uint32_t line, uint64_t addr, KitProfFn callee, uint64_t calls,
                      const uint64_t *incl);
/* a jump inside fn from (line, addr) to (to_line, to_addr), as callgrind's
 * --collect-jumps=yes writes it: a conditional one (jcnd=) executed exe
 * times and taken jumped times, an unconditional one (jump=) taken jumped
 * times */
void kit_prof_fn_jump(KitProf *p, KitProfFn fn, uint32_t line, uint64_t addr, uint32_t to_line, uint64_t to_addr,
                      bool cond, uint64_t exe, uint64_t jumped);
/* "positions: instr line": every cost line starts with its address */
void kit_prof_set_instr_positions(KitProf *p, bool on);

typedef struct KitProfHeader {
  const char *creator; /* "kit-emu 0.1" */
  const char *cmd;     /* the command line */
  long pid;
  const char **desc;   /* extra "desc:" lines (cache geometry), NULL-terminated, or NULL */
  unsigned thread;     /* "thread: N" (one thread's file, --separate-threads=yes); 0: none */
} KitProfHeader;

/* callgrind format version 1: per function its self cost lines and, per
 * call site and callee, calls= and the inclusive cost of those calls; names
 * compressed ("fn=(3) main" once, then "fn=(3)"). 0, or -1 on a write error. */
int kit_prof_write_callgrind(const KitProf *p, FILE *out, const KitProfHeader *h);
/* Brendan Gregg's folded stacks: "main;f;g 123" per context with self cost
 * of event e, sorted. */
int kit_prof_write_folded(const KitProf *p, FILE *out, unsigned e);
/* An SVG flame graph of event e: one rectangle per context, width in
 * proportion to its inclusive cost, a <title> tooltip with the function, its
 * cost and share; contexts narrower than min_width pixels are merged away. */
int kit_prof_write_flamegraph(const KitProf *p, FILE *out, unsigned e, const char *title);

/* ---- cachegrind's cache model (cache.c) --------------------------------------- */

typedef struct KitCacheGeom {
  uint64_t size;   /* bytes */
  unsigned assoc;  /* ways */
  unsigned line;   /* bytes, a power of two */
} KitCacheGeom;

typedef struct KitCache KitCache;
/* NULL (with a message in err) when the geometry is not one cachegrind takes:
 * line a power of two >= 16, size a multiple of line * assoc, sets a power of two */
KitCache *kit_cache_new(KitCacheGeom g, char *err, size_t errsz);
void kit_cache_free(KitCache *c);
/* Parse "size,assoc,line" as Valgrind's --I1/--D1/--LL take it. */
int kit_cache_parse(const char *s, KitCacheGeom *g);

/* The simulated hierarchy: I1 and D1, both backed by LL; write-allocate,
 * LRU within a set; an access that straddles two lines touches both and
 * counts one miss per level at most. */
typedef struct KitCacheSim {
  KitCache *i1, *d1, *ll;
} KitCacheSim;

typedef struct KitCacheCost {
  uint64_t ir, i1mr, ilmr;       /* instruction fetches and their misses */
  uint64_t dr, d1mr, dlmr;       /* data reads */
  uint64_t dw, d1mw, dlmw;       /* data writes */
} KitCacheCost;

void kit_cache_fetch(KitCacheSim *s, uint64_t addr, unsigned size, KitCacheCost *c);
void kit_cache_read(KitCacheSim *s, uint64_t addr, unsigned size, KitCacheCost *c);
void kit_cache_write(KitCacheSim *s, uint64_t addr, unsigned size, KitCacheCost *c);

/* ---- an ELF file's DWARF line table (lines.c) ------------------------------------ */

typedef struct KitLineTab KitLineTab;
/* NULL when the file cannot be read or has no line rows */
KitLineTab *kit_lines_load(const char *path);
/* the file and line of link-time address addr; false outside every sequence */
bool kit_lines_find(const KitLineTab *t, uint64_t addr, const char **file, unsigned *line);
void kit_lines_free(KitLineTab *t);

#endif
