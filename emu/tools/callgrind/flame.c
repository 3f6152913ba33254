/* emu/tools/callgrind/flame.c — an SVG flame graph of the profile, written by
 * kit itself: contexts merged by function name under the same parent (as
 * flamegraph.pl merges folded stacks), the root at the bottom, siblings in
 * name order, widths in proportion to inclusive cost, a <title> tooltip per
 * frame. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile_internal.h"

enum { WIDTH = 1200, PAD = 10, FRAME_H = 16, TOP = 40, CHAR_W = 7 };

typedef struct Frame {
  uint32_t parent, name; /* name id; the root's is UINT32_MAX */
  uint32_t first_child, next_sibling;
  uint64_t cost;
  unsigned depth;
} Frame;

typedef struct Graph {
  const KitProf *p;
  Frame *f;
  size_t n, cap;
  ProfMap index; /* (parent frame, name) -> frame */
  unsigned max_depth;
} Graph;

static uint32_t frame_of(Graph *g, uint32_t parent, uint32_t name) {
  uint64_t key = (((uint64_t)parent << 32) | name) * 2 + 1;
  uint32_t *v = kit_prof__map_get(&g->index, key);
  if (v) return *v;
  if (g->n == g->cap) {
    g->cap = g->cap ? 2 * g->cap : 256;
    g->f = realloc(g->f, g->cap * sizeof *g->f);
    if (!g->f) abort();
  }
  uint32_t id = (uint32_t)g->n++;
  unsigned depth = g->f[parent].depth + 1;
  g->f[id] = (Frame){.parent = parent, .name = name, .first_child = UINT32_MAX, .next_sibling = UINT32_MAX, .depth = depth};
  if (depth > g->max_depth) g->max_depth = depth;
  kit_prof__map_put(&g->index, key, id);
  return id;
}

/* children in name order, linked as lists for the layout */
static void link_children(Graph *g) {
  /* insertion into each parent's list, kept sorted by name */
  for (uint32_t i = 1; i < g->n; i++) {
    Frame *c = &g->f[i];
    uint32_t *at = &g->f[c->parent].first_child;
    while (*at != UINT32_MAX && strcmp(g->p->names[g->f[*at].name], g->p->names[c->name]) < 0) at = &g->f[*at].next_sibling;
    c->next_sibling = *at;
    *at = i;
  }
}

static void put_escaped(FILE *out, const char *s, size_t max) {
  for (size_t i = 0; s[i] && i < max; i++) {
    switch (s[i]) {
    case '&': fputs("&amp;", out); break;
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '"': fputs("&quot;", out); break;
    case '\'': fputs("&apos;", out); break;
    default: fputc(s[i], out);
    }
  }
}

static unsigned hash_name(const char *s) {
  unsigned h = 2166136261u;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void put_frame(const Graph *g, FILE *out, uint32_t id, double x, double w, uint64_t total, const char *unit,
                      unsigned height) {
  const Frame *f = &g->f[id];
  const char *name = f->name == UINT32_MAX ? "all" : g->p->names[f->name];
  double y = height - PAD - (double)(f->depth + 1) * FRAME_H;
  unsigned h = hash_name(name);
  fputs("<g><title>", out);
  put_escaped(out, name, SIZE_MAX);
  fprintf(out, " (%" PRIu64 " %s, %.2f%%)</title>", f->cost, unit, total ? 100.0 * (double)f->cost / (double)total : 0);
  fprintf(out, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"rgb(%u,%u,%u)\" rx=\"2\" ry=\"2\"/>", x, y,
          w, FRAME_H - 1, 205 + h % 50, (h >> 8) % 230, (h >> 16) % 55);
  size_t fit = (size_t)(w / CHAR_W);
  if (fit >= 3) {
    fprintf(out, "<text x=\"%.2f\" y=\"%.1f\">", x + 3, y + FRAME_H - 4.5);
    size_t len = strlen(name);
    put_escaped(out, name, len <= fit ? len : fit - 2);
    if (len > fit) fputs("..", out);
    fputs("</text>", out);
  }
  fputs("</g>\n", out);
}

/* depth-first: each frame, then its children from its left edge */
static void put_frames(const Graph *g, FILE *out, uint64_t total, const char *unit, unsigned height) {
  double scale = total ? (double)(WIDTH - 2 * PAD) / (double)total : 0;
  uint32_t *stack = malloc((g->n + 1) * sizeof *stack);
  double *xs = malloc((g->n + 1) * sizeof *xs);
  if (!stack || !xs) abort();
  size_t sp = 0;
  stack[sp] = 0, xs[sp++] = PAD;
  while (sp) {
    uint32_t id = stack[--sp];
    double x = xs[sp], w = (double)g->f[id].cost * scale;
    if (w < 0.1) continue; /* too narrow to see, as flamegraph.pl's minwidth */
    put_frame(g, out, id, x, w, total, unit, height);
    /* push the children right to left so the leftmost comes out first */
    size_t first = sp;
    double cx = x;
    for (uint32_t c = g->f[id].first_child; c != UINT32_MAX; c = g->f[c].next_sibling) {
      stack[sp] = c, xs[sp++] = cx;
      cx += (double)g->f[c].cost * scale;
    }
    for (size_t a = first, b = sp; b > a + 1; a++, b--) {
      uint32_t t = stack[a];
      double tx = xs[a];
      stack[a] = stack[b - 1], xs[a] = xs[b - 1];
      stack[b - 1] = t, xs[b - 1] = tx;
    }
  }
  free(stack);
  free(xs);
}

int kit_prof_write_flamegraph(const KitProf *p, FILE *out, unsigned e, const char *title) {
  uint64_t *inc = kit_prof__inclusive(p);
  Graph g = {.p = p};
  g.cap = 256;
  g.f = malloc(g.cap * sizeof *g.f);
  if (!g.f) abort();
  g.f[0] = (Frame){.parent = 0, .name = UINT32_MAX, .first_child = UINT32_MAX, .next_sibling = UINT32_MAX};
  g.n = 1;
  /* contexts in creation order: a parent's frame exists before its children's */
  uint32_t *frame = malloc(p->nnodes * sizeof *frame);
  if (!frame) abort();
  frame[0] = 0;
  for (KitProfNode i = 1; i < p->nnodes; i++) {
    frame[i] = frame_of(&g, frame[p->nodes[i].parent], p->fns[p->nodes[i].fn].name);
    g.f[frame[i]].cost += inc[i * p->nevents + e];
  }
  for (KitProfNode i = 1; i < p->nnodes; i++)
    if (!p->nodes[i].parent) g.f[0].cost += inc[i * p->nevents + e];
  link_children(&g);
  unsigned height = TOP + (g.max_depth + 1) * FRAME_H + 2 * PAD;
  fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
               "<svg version=\"1.1\" width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\" "
               "xmlns=\"http://www.w3.org/2000/svg\" font-family=\"Verdana, sans-serif\" font-size=\"12\">\n",
          WIDTH, height, WIDTH, height);
  fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%u\" fill=\"#f8f8f8\"/>\n", WIDTH, height);
  fprintf(out, "<text x=\"%d\" y=\"24\" text-anchor=\"middle\" font-size=\"17\">", WIDTH / 2);
  put_escaped(out, title ? title : "Flame Graph", SIZE_MAX);
  fputs("</text>\n", out);
  put_frames(&g, out, g.f[0].cost, p->events[e], height);
  fputs("</svg>\n", out);
  free(frame);
  free(g.f);
  free(g.index.slots);
  free(inc);
  return ferror(out) ? -1 : 0;
}
