/* cg/x64/x64.c — the baseline compiler: CG straight to x86-64 machine code
 * in one pass, no LLVM (include/kit/cg_exec.h; docs/emu.md, "Baseline
 * tier"). It exists for compile speed: the emulator compiles a lifted block
 * here in microseconds, so guest code leaves the interpreter after a few runs
 * and only the hottest blocks pay for LLVM.
 *
 * One walk over the reachable blocks in reverse postorder (a definition
 * comes before its uses). Values live in the caller-saved registers (r11 is
 * kept as the scratch register), are spilled to 8-byte slots when the
 * registers run out (the one whose next use is furthest goes), and a value
 * used outside its defining block is written to its slot when defined, so a
 * block starts with empty registers, unless its only way in is a br from the
 * block emitted just before it. The first parameter (the emulator's CPU)
 * keeps one register throughout: rdi without calls, else rbx (pushed on
 * entry, popped on the way out). Constants get no
 * register until used and none of their own: equal constants share one, and
 * a constant address reuses a nearby constant's register as a displacement.
 * An icmp that only feeds the next select or condbr leaves its result in the
 * flags; a ptradd that only feeds a load or store becomes its addressing
 * mode. Integer values narrower than 64 bits are kept zero-extended.
 *
 * The frame: a function without calls keeps its slots in the red zone (up to
 * 16); one with calls allocates them below the return address so that rsp is
 * 16-byte aligned at each call. Tail calls (KIT_CG_F_TAIL) jump. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kit/cg_exec.h"

#if defined(__x86_64__)

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11 };
#define SCRATCH R11
static const int pool[] = {RAX, RCX, RDX, RSI, RDI, R8, R9, R10};
#define NPOOL 8
static const int argreg[6] = {RDI, RSI, RDX, RCX, R8, R9};
#define RED_SLOTS 16
#define CHUNK (4u << 20)

/* the side table of KIT_CG_F_FAULT_PC stores: per function, where in its
 * code each dropped store stood and the value it stored */
typedef struct Mark {
  uint32_t off;
  uint64_t value;
} Mark;
typedef struct FuncMarks {
  uintptr_t start, end;
  uint32_t first, n; /* into marks */
} FuncMarks;

struct KitX64 {
  KitCgResolver resolve;
  void *user;
  uint8_t *chunk; /* executable memory being filled */
  size_t used, cap, total;
  FuncMarks *funcs; /* sorted by start */
  uint32_t nfuncs, funcs_cap;
  Mark *marks;
  uint32_t nmarks, marks_cap;
};

typedef struct Val {
  int8_t reg;       /* host register or -1 */
  bool in_slot;     /* its slot holds it */
  bool global;      /* used outside its defining block */
  bool isconst;
  bool deferred;    /* a ptradd folded into the memory op that uses it */
  int32_t slot;     /* -1: none yet */
  uint32_t uses;    /* uses not yet emitted */
  uint32_t defblk;
  uint64_t imm;     /* constant: its bits, zero-extended from its width */
  const KitCgInst *def;
} Val;

typedef struct Fix {
  uint32_t at;  /* offset of a rel32 */
  uint32_t blk; /* block it jumps to */
} Fix;

/* the registers at a branch: what they hold, which constants they keep */
typedef struct Snap {
  KitCgVal regval[16];
  uint64_t kconst[16];
  unsigned kvalid;
} Snap;

/* the rare side of a likely select, out of line after the function: dst
 * gets the constant imm (src < 0) or register src, then jumps back */
typedef struct Rare {
  uint32_t at, back; /* the jcc's rel32; where to go on */
  int8_t dst, src;
  uint64_t imm;
} Rare;

typedef struct E {
  KitX64 *x;
  const KitCgModule *m;
  const KitCgFunc *f;
  const char *why;
  uint8_t *code;
  size_t n, cap;
  bool oom;
  Val *v;
  KitCgVal *canon; /* equal constants share one value */
  KitCgVal regval[16];
  uint64_t kconst[16]; /* a constant a register still holds (kvalid), used or not */
  unsigned kvalid;
  unsigned pinned;     /* registers the current instruction holds */
  unsigned reserved;   /* registers no value may take: the first parameter's home */
  int home;            /* where the first parameter lives throughout: rdi, rbx (saved) with calls, or -1 */
  int32_t *order;      /* blocks in emission order (the reachable ones) */
  uint32_t norder;
  int32_t *fused;      /* the block emitted right after, continuing its registers, or -1 */
  uint32_t *region;    /* a block and the blocks fused after it share one */
  const KitCgInst *skip[2]; /* instructions a read-modify-write folded in */
  Mark *marks;              /* KIT_CG_F_FAULT_PC stores left out */
  uint32_t nmarks, marks_cap;
  uint32_t nslots;
  bool frame;      /* slots below rsp (calls) instead of the red zone */
  bool red_full;   /* failed only for want of red-zone slots: compiled again with a frame */
  uint32_t *blkoff;
  Fix *fix;
  uint32_t nfix, fixcap;
  uint32_t *framefix; /* offsets of the imm32 of sub/add rsp */
  uint32_t nframefix, framefixcap;
  Rare *rare;
  uint32_t nrare, rarecap;
  /* cold paths (prepare(), "cold paths"): per block, the block whose cold
   * branch it hangs off (-1: none); per such block, its continuation, the
   * registers at its branch, and its last cold block */
  int32_t *cold_of, *cont_of, *cold_last;
  Snap *snap;
  bool *cold_started;
  KitCgVal *flipped; /* values a cold path stored to their slots */
  uint32_t nflipped;
  /* where the emitter is: for next-use distances */
  uint32_t cur_blk, cur_inst;
  /* an icmp whose result is in the flags: the value and its condition code */
  KitCgVal flags_val;
  int flags_cc;
} E;

/* ---- bytes ------------------------------------------------------------------ */

static void put(E *e, const void *p, size_t k) {
  if (e->n + k > e->cap) {
    size_t c = e->cap ? e->cap * 2 : 4096;
    while (c < e->n + k) c *= 2;
    uint8_t *q = realloc(e->code, c);
    if (!q) {
      e->oom = true;
      return;
    }
    e->code = q;
    e->cap = c;
  }
  memcpy(e->code + e->n, p, k);
  e->n += k;
}
/* room for `need` elements in a growing array (*arr of *cap) */
static bool grow(void **arr, uint32_t need, uint32_t *cap, size_t elem) {
  if (need <= *cap) return true;
  uint32_t c = *cap ? *cap : 16;
  while (c < need) c *= 2;
  void *p = realloc(*arr, c * elem);
  if (!p) return false;
  *arr = p;
  *cap = c;
  return true;
}

/* room for one more element (n used), else out of memory */
static bool room(E *e, void **arr, uint32_t n, uint32_t *cap, size_t elem) {
  if (grow(arr, n + 1, cap, elem)) return true;
  e->oom = true;
  return false;
}

static void b1(E *e, unsigned b) {
  uint8_t c = (uint8_t)b;
  put(e, &c, 1);
}
static void b4(E *e, uint32_t w) { put(e, &w, 4); }
static void b8(E *e, uint64_t w) { put(e, &w, 8); }
static bool fits8(int64_t d) { return d >= -128 && d <= 127; }
static bool fits32(int64_t d) { return d >= INT32_MIN && d <= INT32_MAX; }

/* ---- operands and encoding ------------------------------------------------------------------ */

/* a register (base >= 0, mem false) or a memory operand [base + index + disp] */
typedef struct Op {
  bool mem;
  bool byte; /* a byte register operand of a wider instruction (movzx, movsx) */
  int base, index; /* index -1: none */
  int32_t disp;
} Op;
static Op R(int r) { return (Op){false, false, r, -1, 0}; }
static Op M(int base, int index, int32_t disp) { return (Op){true, false, base, index, disp}; }

/* one instruction: [66] [REX] opcode modrm [sib] [disp]; size is the operand
 * size (8, 16, 32, 64); reg is the ModRM reg field (a register or /digit) */
static void ins(E *e, int size, unsigned opc, int nopc, int reg, Op rm) {
  if (size == 16) b1(e, 0x66);
  unsigned rex = 0x40 | (size == 64 ? 8 : 0) | (reg & 8 ? 4 : 0);
  if (rm.mem) rex |= (rm.index >= 0 && (rm.index & 8) ? 2 : 0) | (rm.base & 8 ? 1 : 0);
  else rex |= rm.base & 8 ? 1 : 0;
  /* byte registers spl/bpl/sil/dil need a REX prefix */
  bool byte_rex = (size == 8 && reg >= 4 && reg < 8 && nopc == 1) ||
                  ((size == 8 || rm.byte) && !rm.mem && rm.base >= 4 && rm.base < 8);
  if (rex != 0x40 || byte_rex) b1(e, rex);
  for (int i = nopc - 1; i >= 0; i--) b1(e, (opc >> (8 * i)) & 0xff);
  if (!rm.mem) {
    b1(e, 0xc0 | (reg & 7) << 3 | (rm.base & 7));
    return;
  }
  int mod = rm.disp == 0 && (rm.base & 7) != RBP ? 0 : fits8(rm.disp) ? 1 : 2;
  if (rm.index < 0 && (rm.base & 7) != RSP) {
    b1(e, mod << 6 | (reg & 7) << 3 | (rm.base & 7));
  } else {
    b1(e, mod << 6 | (reg & 7) << 3 | 4);
    b1(e, (rm.index < 0 ? 4 : rm.index & 7) << 3 | (rm.base & 7));
  }
  if (mod == 1) b1(e, (uint8_t)rm.disp);
  else if (mod == 2) b4(e, (uint32_t)rm.disp);
}

enum { ALU_ADD = 0, ALU_OR = 1, ALU_AND = 4, ALU_SUB = 5, ALU_XOR = 6, ALU_CMP = 7 };
enum { CC_O, CC_NO, CC_B, CC_AE, CC_E, CC_NE, CC_BE, CC_A, CC_S, CC_NS, CC_P, CC_NP, CC_L, CC_GE, CC_LE, CC_G };

static void alu_rr(E *e, int op, int size, int dst, int src) {
  ins(e, size, (unsigned)(op << 3 | (size == 8 ? 0 : 1)), 1, src, R(dst));
}
static void alu_ri(E *e, int op, int size, Op dst, int64_t imm) {
  if (size == 8) {
    ins(e, 8, 0x80, 1, op, dst);
    b1(e, (uint8_t)imm);
  } else if (fits8(imm)) {
    ins(e, size, 0x83, 1, op, dst);
    b1(e, (uint8_t)imm);
  } else {
    ins(e, size, 0x81, 1, op, dst);
    if (size == 16) {
      uint16_t w = (uint16_t)imm;
      put(e, &w, 2);
    } else {
      b4(e, (uint32_t)imm);
    }
  }
}
static void mov_rr(E *e, int size, int dst, int src) {
  if (dst != src || size == 32) ins(e, size == 64 ? 64 : 32, 0x89, 1, src, R(dst));
}
/* without touching the flags */
static void mov_ri(E *e, int dst, uint64_t imm) {
  if (imm <= UINT32_MAX) {
    if (dst & 8) b1(e, 0x41);
    b1(e, 0xb8 + (dst & 7));
    b4(e, (uint32_t)imm);
  } else if (fits32((int64_t)imm)) {
    ins(e, 64, 0xc7, 1, 0, R(dst));
    b4(e, (uint32_t)imm);
  } else {
    b1(e, 0x48 | (dst & 8 ? 1 : 0));
    b1(e, 0xb8 + (dst & 7));
    b8(e, imm);
  }
}
static void movzx(E *e, int dst, int from_size, Op src) {
  src.byte = from_size == 8;
  ins(e, 32, from_size == 8 ? 0x0fb6 : 0x0fb7, 2, dst, src);
}
static void movsx(E *e, int to_size, int dst, int from_size, Op src) {
  src.byte = from_size == 8;
  if (from_size == 32) ins(e, 64, 0x63, 1, dst, src);
  else ins(e, to_size == 64 ? 64 : 32, from_size == 8 ? 0x0fbe : 0x0fbf, 2, dst, src);
}
static void lea(E *e, int size, int dst, Op m) { ins(e, size == 64 ? 64 : 32, 0x8d, 1, dst, m); }
static void load(E *e, int size, int dst, Op m) {
  if (size <= 16) movzx(e, dst, size, m);
  else ins(e, size, 0x8b, 1, dst, m);
}
static void store(E *e, int size, Op m, int src) { ins(e, size, size == 8 ? 0x88 : 0x89, 1, src, m); }
static void cmov(E *e, int size, int cc, int dst, int src) {
  ins(e, size == 64 ? 64 : 32, 0x0f40u | (unsigned)cc, 2, dst, R(src));
}
static uint32_t jcc(E *e, int cc) { /* returns the rel32's offset */
  b1(e, 0x0f);
  b1(e, 0x80 | cc);
  b4(e, 0);
  return (uint32_t)e->n - 4;
}
static uint32_t jmp(E *e) {
  b1(e, 0xe9);
  b4(e, 0);
  return (uint32_t)e->n - 4;
}

/* ---- values and registers ------------------------------------------------------------------ */

static int width(KitCgType t) {
  switch (t) {
  case KIT_CG_I1: return 1;
  case KIT_CG_I8: return 8;
  case KIT_CG_I16: return 16;
  case KIT_CG_I32: return 32;
  default: return 64;
  }
}
/* the operand size an instruction on a value of type t uses */
static int opsize(KitCgType t) { return width(t) == 64 ? 64 : 32; }
static uint64_t mask_of(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }
static KitCgType vt(E *e, KitCgVal v) { return (KitCgType)e->f->vtype[v]; }

static int32_t slot_disp(E *e, uint32_t s) { return e->frame ? (int32_t)(8 * s) : -(int32_t)(8 * (s + 1)); }
static Op slot_op(E *e, Val *v) {
  if (v->slot < 0) {
    v->slot = (int32_t)e->nslots++;
    if (!e->frame && e->nslots > RED_SLOTS && !e->why) { /* the only failure a frame mends */
      e->red_full = true;
      e->why = "red zone full";
    }
  }
  return M(RSP, -1, slot_disp(e, (uint32_t)v->slot));
}

/* does operand a use v (directly, or through the deferred values it is made of)? */
static bool mentions(E *e, KitCgVal a, KitCgVal v, int depth) {
  a = e->canon[a];
  if (a == v) return true;
  if (depth < 2 && e->v[a].deferred && e->v[a].def)
    for (uint32_t j = 0; j < e->v[a].def->nargs; j++)
      if (mentions(e, e->v[a].def->args[j], v, depth + 1)) return true;
  return false;
}

/* how many instructions ahead value v (canonical) is next used, through the
 * blocks fused after the current one; 1000: not soon */
static unsigned next_use(E *e, KitCgVal v) {
  uint32_t blk = e->cur_blk, i = e->cur_inst, d = 0;
  while (d < 64) {
    const KitCgBlock *bl = &e->f->blocks[blk];
    for (; i < bl->ninsts && d < 64; i++, d++) {
      const KitCgInst *in = &bl->insts[i];
      for (uint32_t k = 0; k < in->nargs; k++)
        if (mentions(e, in->args[k], v, 0)) return d;
    }
    if (e->fused[blk] < 0) break;
    blk = (uint32_t)e->fused[blk];
    i = 0;
  }
  return 1000;
}

/* make register r free: its value moves to its slot (constants are dropped) */
static void evict(E *e, int r) {
  KitCgVal v = e->regval[r];
  if (!v) return;
  Val *x = &e->v[v];
  if (!x->isconst && x->uses && !x->in_slot) {
    store(e, 64, slot_op(e, x), r);
    x->in_slot = true;
  }
  x->reg = -1;
  e->regval[r] = 0;
}

static int alloc_reg(E *e) {
  int best = -1;
  unsigned far = 0;
  for (int pass = 0; pass < 2; pass++) /* free ones, those without a constant first */
    for (int i = 0; i < NPOOL; i++) {
      int r = pool[i];
      if (!((e->pinned | e->reserved) & 1u << r) && !e->regval[r] && (pass || !(e->kvalid & 1u << r))) {
        e->kvalid &= ~(1u << r);
        return r;
      }
    }
  for (int i = 0; i < NPOOL; i++) {
    int r = pool[i];
    if ((e->pinned | e->reserved) & 1u << r) continue;
    KitCgVal v = e->regval[r];
    unsigned d = next_use(e, v) * 2 + (e->v[v].isconst || e->v[v].in_slot); /* cheap to drop first */
    if (best < 0 || d > far) {
      best = r;
      far = d;
    }
  }
  if (best < 0) { /* cannot happen: an instruction pins at most 4 */
    e->why = "out of registers";
    return RAX;
  }
  evict(e, best);
  e->kvalid &= ~(1u << best);
  return best;
}

static void bind(E *e, KitCgVal v, int r) {
  e->regval[r] = v;
  e->v[v].reg = (int8_t)r;
  if (e->v[v].isconst) {
    e->kconst[r] = e->v[v].imm;
    e->kvalid |= 1u << r;
  } else {
    e->kvalid &= ~(1u << r);
  }
}

/* every pool register free, no constant known in any */
static void forget_regs(E *e) {
  for (int i = 0; i < NPOOL; i++) {
    if (e->regval[pool[i]]) e->v[e->regval[pool[i]]].reg = -1;
    e->regval[pool[i]] = 0;
  }
  e->kvalid = 0;
}

/* registers an instruction writes as temporaries: their constants are gone */
static void clobber(E *e, int r) { e->kvalid &= ~(1u << r); }

static void load_into(E *e, int r, KitCgVal v) { /* v's value into r, from wherever it is */
  Val *x = &e->v[e->canon[v]];
  if (x->reg >= 0) mov_rr(e, 64, r, x->reg);
  else if (x->isconst) mov_ri(e, r, x->imm);
  else if (x->in_slot) ins(e, 64, 0x8b, 1, r, slot_op(e, x));
  else e->why = "value used before it is defined";
}

/* v in a register (pinned for the current instruction) */
static int get(E *e, KitCgVal v) {
  v = e->canon[v];
  Val *x = &e->v[v];
  if (x->reg >= 0) {
    e->pinned |= 1u << x->reg;
    return x->reg;
  }
  if (x->isconst)
    for (int i = 0; i < NPOOL; i++) {
      int r = pool[i];
      if (!e->regval[r] && (e->kvalid & 1u << r) && e->kconst[r] == x->imm && !(e->reserved & 1u << r)) {
        bind(e, v, r);
        e->pinned |= 1u << r;
        return r;
      }
    }
  int r = alloc_reg(e);
  load_into(e, r, v);
  bind(e, v, r);
  e->pinned |= 1u << r;
  return r;
}

/* v is constant and fits an instruction's sign-extended imm32 at size */
static bool imm_ok(E *e, KitCgVal v, int size, int64_t *imm) {
  Val *x = &e->v[e->canon[v]];
  if (!x->isconst) return false;
  int64_t s = size == 32 ? (int32_t)x->imm : (int64_t)x->imm;
  if (size == 64 && !fits32(s)) return false;
  *imm = s;
  return true;
}

/* one use of v done; its register is free once nothing else needs it */
static void use(E *e, KitCgVal v) {
  v = e->canon[v];
  Val *x = &e->v[v];
  if (x->uses) x->uses--;
  if (!x->uses && x->reg >= 0) {
    e->regval[x->reg] = 0;
    x->reg = -1;
  }
}

/* will this be the last use of v (the instruction being emitted holds one)? */
static bool dies(E *e, KitCgVal v) {
  Val *x = &e->v[e->canon[v]];
  return !x->isconst && x->uses == 1 && !(x->global && !x->in_slot);
}

/* the result register of an instruction: operand a's (in ra) when a dies
 * there (the two-operand form then needs no copy; the caller still counts
 * the use), else a fresh one */
static int result_from(E *e, KitCgVal a, int ra) {
  /* not the reserved rdi: blocks emitted earlier but run later still read
   * the first parameter there (uses are counted in emission order) */
  if (dies(e, a) && !e->v[e->canon[a]].global && !(e->reserved & 1u << ra)) {
    e->regval[ra] = 0;
    e->v[e->canon[a]].reg = -1;
    return ra;
  }
  int r = alloc_reg(e);
  e->pinned |= 1u << r;
  return r;
}

/* after computing value id into r: bind it; a global one goes to its slot */
static void define(E *e, KitCgVal id, int r) {
  Val *x = &e->v[id];
  if (!x->uses) return; /* dead */
  bind(e, id, r);
  if (x->global) {
    store(e, 64, slot_op(e, x), r);
    x->in_slot = true;
  }
}

/* keep value in r zero-extended from width w */
static void canonical(E *e, int r, int w) {
  if (w == 8 || w == 16) movzx(e, r, w, R(r));
  else if (w == 1) alu_ri(e, ALU_AND, 32, R(r), 1);
}

/* a constant address as [register + disp] when a register holds a nearby constant */
static Op const_addr(E *e, uint64_t a) {
  for (int i = 0; i < NPOOL; i++) {
    int r = pool[i];
    if ((e->kvalid & 1u << r) && fits32((int64_t)(a - e->kconst[r]))) {
      e->pinned |= 1u << r;
      return M(r, -1, (int32_t)(a - e->kconst[r]));
    }
  }
  return (Op){.mem = false, .base = -1, .index = -1};
}

/* the memory operand of a load/store address p (ptradds folded) */
static Op address(E *e, KitCgVal p) {
  KitCgVal c = e->canon[p];
  Val *x = &e->v[c];
  Op m;
  if (x->deferred) {
    const KitCgInst *pa = x->def;
    KitCgVal base = pa->args[0], off = pa->args[1];
    Val *bx = &e->v[e->canon[base]];
    int64_t imm;
    if (imm_ok(e, off, 64, &imm)) {
      if (bx->isconst && bx->reg < 0 && (m = const_addr(e, bx->imm + (uint64_t)imm)).mem) {
      } else {
        m = M(get(e, base), -1, (int32_t)imm);
      }
    } else if (bx->isconst && bx->imm < 0x80000000u) { /* a base that fits the displacement */
      m = M(get(e, off), -1, (int32_t)bx->imm);
    } else {
      int rb = get(e, base);
      m = M(rb, get(e, off), 0);
    }
    use(e, base);
    use(e, off);
    x->uses--;
    return m;
  }
  if (!x->isconst || x->reg >= 0 || !(m = const_addr(e, x->imm)).mem) m = M(get(e, p), -1, 0);
  use(e, p);
  return m;
}

/* ---- instructions ---------------------------------------------------------------------------- */

static int cc_of(KitCgPred p) {
  static const int cc[] = {[KIT_CG_EQ] = CC_E,   [KIT_CG_NE] = CC_NE,  [KIT_CG_SLT] = CC_L, [KIT_CG_SLE] = CC_LE,
                           [KIT_CG_SGT] = CC_G,  [KIT_CG_SGE] = CC_GE, [KIT_CG_ULT] = CC_B, [KIT_CG_ULE] = CC_BE,
                           [KIT_CG_UGT] = CC_A,  [KIT_CG_UGE] = CC_AE};
  return cc[p];
}
static KitCgPred swap_pred(KitCgPred p) {
  switch (p) {
  case KIT_CG_SLT: return KIT_CG_SGT;
  case KIT_CG_SGT: return KIT_CG_SLT;
  case KIT_CG_SLE: return KIT_CG_SGE;
  case KIT_CG_SGE: return KIT_CG_SLE;
  case KIT_CG_ULT: return KIT_CG_UGT;
  case KIT_CG_UGT: return KIT_CG_ULT;
  case KIT_CG_ULE: return KIT_CG_UGE;
  case KIT_CG_UGE: return KIT_CG_ULE;
  default: return p;
  }
}
static bool signed_pred(KitCgPred p) { return p >= KIT_CG_SLT && p <= KIT_CG_SGE; }

/* an instruction whose result is all it does (division traps, loads fault:
 * kept even when unused) */
static bool pure(const KitCgInst *in) {
  return !(kit_cg_op_info[in->op].flags & (KIT_CGO_SIDE | KIT_CGO_MEM | KIT_CGO_TERM)) &&
         in->op != KIT_CG_OP_SDIV && in->op != KIT_CG_OP_UDIV && in->op != KIT_CG_OP_SREM &&
         in->op != KIT_CG_OP_UREM;
}

/* an instruction that emits no code: constants (folded ones too), dead
 * results, ptradds folded into their memory op */
static bool silent(E *e, const KitCgInst *in) {
  if (!in->id) return false;
  Val *x = &e->v[in->id];
  return x->isconst || x->deferred || (!x->uses && x->def == NULL);
}

static const KitCgInst *next_real(E *e, uint32_t blk, uint32_t i) {
  const KitCgBlock *bl = &e->f->blocks[blk];
  for (i++; i < bl->ninsts; i++)
    if (!silent(e, &bl->insts[i])) return &bl->insts[i];
  return NULL;
}

/* copy of a into a new value id */
static void copy(E *e, KitCgVal id, KitCgVal a) {
  int ra = get(e, a);
  int dst = result_from(e, a, ra);
  mov_rr(e, 64, dst, ra);
  use(e, a);
  define(e, id, dst);
}

static void binary(E *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0], b = in->args[1];
  int w = width(t), sz = opsize(t);
  bool comm = kit_cg_op_info[in->op].flags & KIT_CGO_COMM;
  int64_t imm;
  if (comm && e->v[e->canon[a]].isconst && !e->v[e->canon[b]].isconst) {
    KitCgVal s = a;
    a = b;
    b = s;
  }
  int alu = in->op == KIT_CG_OP_ADD || in->op == KIT_CG_OP_PTRADD ? ALU_ADD
            : in->op == KIT_CG_OP_SUB                            ? ALU_SUB
            : in->op == KIT_CG_OP_AND                            ? ALU_AND
            : in->op == KIT_CG_OP_OR                             ? ALU_OR
            : in->op == KIT_CG_OP_XOR                            ? ALU_XOR
                                                                 : -1;
  int ra = get(e, a), dst;
  if (imm_ok(e, b, sz, &imm)) {
    dst = result_from(e, a, ra);
    if (alu == ALU_ADD && dst != ra) { /* three operands: lea */
      lea(e, sz, dst, M(ra, -1, (int32_t)imm));
    } else if (alu < 0) { /* mul */
      ins(e, sz, 0x69, 1, dst, R(ra));
      b4(e, (uint32_t)imm);
    } else {
      mov_rr(e, 64, dst, ra);
      alu_ri(e, alu, sz, R(dst), imm);
    }
  } else {
    int rb = get(e, b);
    if (comm && dies(e, b) && !dies(e, a)) {
      KitCgVal s = a;
      a = b;
      b = s;
      int r = ra;
      ra = rb;
      rb = r;
    }
    dst = result_from(e, a, ra);
    mov_rr(e, 64, dst, ra);
    if (alu < 0) ins(e, sz, 0x0faf, 2, dst, R(rb));
    else alu_rr(e, alu, sz, dst, rb);
  }
  use(e, a);
  use(e, b);
  if (alu == ALU_ADD || alu == ALU_SUB || alu < 0) canonical(e, dst, w);
  define(e, in->id, dst);
}

static void shift(E *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0], b = in->args[1];
  int w = width(t), sz = opsize(t);
  int digit = in->op == KIT_CG_OP_SHL ? 4 : in->op == KIT_CG_OP_LSHR ? 5 : 7;
  if (w == 1) { /* shifted by a multiple of 1: unchanged */
    use(e, b);
    copy(e, in->id, a);
    return;
  }
  Val *sh = &e->v[e->canon[a]];
  if (in->op == KIT_CG_OP_LSHR && sh->deferred && sh->def->op == KIT_CG_OP_SHL) { /* prepare(): zext of a low half */
    KitCgVal x = sh->def->args[0], root = x;
    Val *xv = &e->v[e->canon[x]];
    if (xv->deferred) root = xv->def->args[0]; /* sext(root) */
    int rr = get(e, root);
    int dst = result_from(e, root, rr);
    mov_rr(e, 32, dst, rr);
    if (xv->deferred) use(e, root);
    use(e, x);
    use(e, sh->def->args[1]);
    use(e, a);
    use(e, b);
    define(e, in->id, dst);
    return;
  }
  Val *bx = &e->v[e->canon[b]];
  unsigned amt = bx->isconst ? (unsigned)(bx->imm % (unsigned)w) : 0;
  if (!bx->isconst) { /* the amount goes to cl: rcx is a temporary of this instruction */
    evict(e, RCX);
    clobber(e, RCX);
    e->pinned |= 1u << RCX;
    mov_rr(e, 64, RCX, get(e, b));
    if (w < 32) alu_ri(e, ALU_AND, 32, R(RCX), w - 1);
  }
  int ra = get(e, a);
  int dst = result_from(e, a, ra);
  mov_rr(e, 64, dst, ra);
  if (digit == 7 && w < 32) movsx(e, 32, dst, w, R(dst));
  if (!bx->isconst) {
    ins(e, sz, 0xd3, 1, digit, R(dst));
  } else if (amt) {
    ins(e, sz, 0xc1, 1, digit, R(dst));
    b1(e, amt);
  } else if (sz == 32) {
    mov_rr(e, 32, dst, dst); /* an operand's high bits may be left (lazy_truncs) */
  }
  if (digit != 5) canonical(e, dst, w);
  use(e, a);
  use(e, b);
  define(e, in->id, dst);
}

/* division: the dividend in rax, rdx its extension; both are temporaries */
static void divide(E *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0], b = in->args[1];
  int w = width(t), sz = opsize(t);
  bool sgn = in->op == KIT_CG_OP_SDIV || in->op == KIT_CG_OP_SREM;
  bool rem = in->op == KIT_CG_OP_UREM || in->op == KIT_CG_OP_SREM;
  evict(e, RAX);
  evict(e, RDX);
  clobber(e, RAX);
  clobber(e, RDX);
  e->pinned |= 1u << RAX | 1u << RDX;
  int rb = get(e, b);
  int ra = get(e, a);
  if (sgn && w < 32) {
    movsx(e, 32, RAX, w, R(ra));
    movsx(e, 32, SCRATCH, w, R(rb));
    rb = SCRATCH;
  } else {
    mov_rr(e, 64, RAX, ra);
  }
  if (sgn) {
    if (sz == 64) b1(e, 0x48);
    b1(e, 0x99); /* cqo / cdq */
  } else {
    alu_rr(e, ALU_XOR, 32, RDX, RDX);
  }
  ins(e, sz, 0xf7, 1, sgn ? 7 : 6, R(rb));
  use(e, a);
  use(e, b);
  int res = rem ? RDX : RAX;
  e->pinned &= ~(1u << (rem ? RAX : RDX));
  if (sgn && w < 32) movzx(e, res, w, R(res)); /* the signed result's high bits */
  define(e, in->id, res);
}

static void minmax(E *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0], b = in->args[1];
  int w = width(t), sz = opsize(t);
  bool sgn = in->op == KIT_CG_OP_SMIN || in->op == KIT_CG_OP_SMAX;
  int cc = in->op == KIT_CG_OP_SMIN ? CC_G : in->op == KIT_CG_OP_SMAX ? CC_L : in->op == KIT_CG_OP_UMIN ? CC_A : CC_B;
  int ra = get(e, a), rb = get(e, b);
  int dst = result_from(e, a, ra);
  mov_rr(e, 64, dst, ra);
  alu_rr(e, ALU_CMP, sgn && w < 32 ? w : sz, dst, rb);
  cmov(e, sz, cc, dst, rb);
  use(e, a);
  use(e, b);
  define(e, in->id, dst);
}

static void icmp(E *e, const KitCgInst *in, uint32_t blk, uint32_t idx) {
  KitCgVal a = in->args[0], b = in->args[1];
  KitCgPred p = (KitCgPred)in->pred;
  KitCgType t = vt(e, a);
  int w = width(t);
  int size = w == 64 ? 64 : w == 32 ? 32 : signed_pred(p) ? w : 32;
  if (e->v[e->canon[a]].isconst && !e->v[e->canon[b]].isconst) {
    KitCgVal s = a;
    a = b;
    b = s;
    p = swap_pred(p);
  }
  int64_t imm = 0; /* prepare() made sure it fits when a loaded operand is compared */
  if (e->v[e->canon[b]].deferred) { /* a loaded operand: compare memory */
    KitCgVal s = a;
    a = b;
    b = s;
    p = swap_pred(p);
  }
  Val *la = &e->v[e->canon[a]];
  if (la->deferred && la->def->op == KIT_CG_OP_LOAD) {
    int lsize = width((KitCgType)la->def->type);
    Op m = address(e, la->def->args[0]);
    la->uses--;
    imm_ok(e, b, lsize == 64 ? 64 : 32, &imm);
    alu_ri(e, ALU_CMP, lsize, m, imm);
  } else {
    int ra = get(e, a);
    if (imm_ok(e, b, size == 64 ? 64 : 32, &imm)) alu_ri(e, ALU_CMP, size, R(ra), imm);
    else alu_rr(e, ALU_CMP, size, ra, get(e, b));
    use(e, a);
  }
  use(e, b);
  int cc = cc_of(p);
  const KitCgInst *nx = next_real(e, blk, idx);
  KitCgVal id = in->id;
  if (e->v[id].uses == 1 && nx &&
      ((nx->op == KIT_CG_OP_SELECT && e->canon[nx->args[0]] == id && e->canon[nx->args[1]] != id &&
        e->canon[nx->args[2]] != id) ||
       (nx->op == KIT_CG_OP_CONDBR && e->canon[nx->args[0]] == id))) {
    e->flags_val = id;
    e->flags_cc = cc;
    return;
  }
  int dst = alloc_reg(e);
  ins(e, 8, 0x0f90u | (unsigned)cc, 2, 0, R(dst));
  movzx(e, dst, 8, R(dst));
  define(e, id, dst);
}

/* the condition code that holds when c is true: the flags of a fused icmp,
 * or a test of c's register */
static int condition(E *e, KitCgVal c) {
  c = e->canon[c];
  if (e->flags_val == c) {
    e->flags_val = 0;
    use(e, c);
    return e->flags_cc;
  }
  int rc = get(e, c);
  ins(e, 32, 0x85, 1, rc, R(rc));
  use(e, c);
  return CC_NE;
}

static void select_(E *e, const KitCgInst *in, KitCgType t) {
  KitCgVal c = in->args[0], a = in->args[1], b = in->args[2];
  int sz = opsize(t);
  bool cconst = e->v[e->canon[c]].isconst;
  if (cconst) {
    bool tv = e->v[e->canon[c]].imm & 1;
    use(e, c);
    use(e, tv ? b : a);
    copy(e, in->id, tv ? a : b);
    return;
  }
  int cc = condition(e, c);
  if ((in->flags & KIT_CG_F_LIKELY) && e->canon[a] != e->canon[b]) { /* a, and b out of line */
    Val *bx = &e->v[e->canon[b]];
    int ra = get(e, a), rb = bx->isconst ? -1 : get(e, b);
    int dst = result_from(e, a, ra);
    mov_rr(e, 64, dst, ra);
    uint32_t at = jcc(e, cc ^ 1);
    if (room(e, (void **)&e->rare, e->nrare, &e->rarecap, sizeof *e->rare))
      e->rare[e->nrare++] = (Rare){at, (uint32_t)e->n, (int8_t)dst, (int8_t)rb, bx->imm};
    use(e, a);
    use(e, b);
    define(e, in->id, dst);
    return;
  }
  int ra = get(e, a), rb = get(e, b), dst;
  if (e->canon[a] == e->canon[b]) {
    dst = result_from(e, a, ra);
    mov_rr(e, 64, dst, ra);
  } else if (dies(e, b)) {
    dst = result_from(e, b, rb);
    mov_rr(e, 64, dst, rb);
    cmov(e, sz, cc, dst, ra);
  } else if (dies(e, a)) {
    dst = result_from(e, a, ra);
    mov_rr(e, 64, dst, ra);
    cmov(e, sz, cc ^ 1, dst, rb);
  } else {
    dst = alloc_reg(e);
    e->pinned |= 1u << dst;
    mov_rr(e, 64, dst, rb);
    cmov(e, sz, cc, dst, ra);
  }
  use(e, a);
  use(e, b);
  define(e, in->id, dst);
}

static void convert(E *e, const KitCgInst *in) {
  KitCgVal a = in->args[0];
  int ws = width(vt(e, a)), wt = width((KitCgType)in->type);
  bool sext = in->op == KIT_CG_OP_SEXT;
  if (ws == wt || (ws < wt && !sext)) { /* zero-extended already */
    copy(e, in->id, a);
    return;
  }
  int ra = get(e, a);
  int dst = result_from(e, a, ra);
  if (ws > wt) { /* truncation */
    if (wt == 32) mov_rr(e, 32, dst, ra);
    else if (wt == 16 || wt == 8) movzx(e, dst, wt, R(ra));
    else {
      mov_rr(e, 64, dst, ra);
      alu_ri(e, ALU_AND, 32, R(dst), 1);
    }
  } else if (ws == 1) {
    mov_rr(e, 64, dst, ra);
    ins(e, wt == 64 ? 64 : 32, 0xf7, 1, 3, R(dst)); /* neg */
    canonical(e, dst, wt);
  } else {
    movsx(e, wt == 64 ? 64 : 32, dst, ws, R(ra));
    canonical(e, dst, wt);
  }
  use(e, a);
  define(e, in->id, dst);
}

static void unary(E *e, const KitCgInst *in, KitCgType t) {
  KitCgVal a = in->args[0];
  int w = width(t), sz = opsize(t);
  int ra = get(e, a);
  int dst = result_from(e, a, ra);
  mov_rr(e, 64, dst, ra);
  if (in->op == KIT_CG_OP_NOT && w < 32) alu_ri(e, ALU_XOR, 32, R(dst), (int64_t)mask_of(w));
  else ins(e, sz, 0xf7, 1, in->op == KIT_CG_OP_NOT ? 2 : 3, R(dst));
  if (in->op == KIT_CG_OP_NEG) canonical(e, dst, w);
  use(e, a);
  define(e, in->id, dst);
}

static int access_size(KitCgType t) { return t == KIT_CG_I1 ? 8 : width(t); }

/* the same memory location: one address value, or two folded ptradds of the
 * same base and constant offset */
static bool same_place(E *e, KitCgVal p, KitCgVal q) {
  p = e->canon[p];
  q = e->canon[q];
  if (p == q) return true;
  Val *x = &e->v[p], *y = &e->v[q];
  if (!x->deferred || !y->deferred || x->def->op != KIT_CG_OP_PTRADD || y->def->op != KIT_CG_OP_PTRADD) return false;
  Val *ox = &e->v[e->canon[x->def->args[1]]], *oy = &e->v[e->canon[y->def->args[1]]];
  return e->canon[x->def->args[0]] == e->canon[y->def->args[0]] && ox->isconst && oy->isconst && ox->imm == oy->imm;
}

/* an address operand that no instruction will read: its uses are done */
static void discard(E *e, KitCgVal p) {
  Val *x = &e->v[e->canon[p]];
  if (x->deferred) {
    use(e, x->def->args[0]);
    use(e, x->def->args[1]);
    x->uses--;
  } else {
    use(e, p);
  }
}

/* load, add a constant, store back to the same place: add to memory */
static bool rmw(E *e, const KitCgInst *in) {
  KitCgType t = (KitCgType)in->type;
  if ((t != KIT_CG_I64 && t != KIT_CG_I32) || e->v[in->id].uses != 1) return false;
  const KitCgInst *add = next_real(e, e->cur_blk, e->cur_inst);
  if (!add || add->op != KIT_CG_OP_ADD || e->v[add->id].uses != 1) return false;
  KitCgVal c = e->canon[add->args[0]] == in->id ? add->args[1] : add->args[0];
  int64_t imm;
  if (e->canon[add->args[0]] != in->id && e->canon[add->args[1]] != in->id) return false;
  if (!imm_ok(e, c, width(t), &imm)) return false;
  const KitCgInst *st = next_real(e, e->cur_blk, (uint32_t)(add - e->f->blocks[e->cur_blk].insts));
  if (!st || st->op != KIT_CG_OP_STORE || e->canon[st->args[0]] != add->id || !same_place(e, in->args[0], st->args[1]))
    return false;
  Op m = address(e, in->args[0]);
  alu_ri(e, ALU_ADD, width(t), m, imm);
  discard(e, st->args[1]);
  use(e, in->id);
  use(e, c);
  use(e, add->id);
  e->skip[0] = add;
  e->skip[1] = st;
  return true;
}

static void load_(E *e, const KitCgInst *in) {
  if (in->id && rmw(e, in)) return;
  /* a narrow load whose one use is the sext right after it: movsx from memory */
  const KitCgInst *nx = in->id ? next_real(e, e->cur_blk, e->cur_inst) : NULL;
  int w = width((KitCgType)in->type);
  if (nx && nx->op == KIT_CG_OP_SEXT && e->canon[nx->args[0]] == in->id && e->v[in->id].uses == 1 && w >= 8 &&
      w <= 32 && e->v[nx->id].uses) {
    Op m = address(e, in->args[0]);
    e->pinned = 0;
    int dst = alloc_reg(e), wt = width((KitCgType)nx->type);
    movsx(e, wt == 64 ? 64 : 32, dst, w, m);
    canonical(e, dst, wt);
    e->v[in->id].uses = 0;
    e->skip[0] = nx;
    define(e, nx->id, dst);
    return;
  }
  Op m = address(e, in->args[0]);
  e->pinned = 0; /* the load reads its address before it writes: any register will do */
  int dst = alloc_reg(e);
  load(e, access_size((KitCgType)in->type), dst, m);
  if (in->id && e->v[in->id].uses) define(e, in->id, dst);
}

static void store_(E *e, const KitCgInst *in) {
  KitCgVal v = in->args[0];
  if ((in->flags & KIT_CG_F_FAULT_PC) && e->v[e->canon[v]].isconst) { /* into the side table */
    if (!room(e, (void **)&e->marks, e->nmarks, &e->marks_cap, sizeof *e->marks)) return;
    e->marks[e->nmarks++] = (Mark){(uint32_t)e->n, e->v[e->canon[v]].imm};
    discard(e, in->args[1]);
    use(e, v);
    return;
  }
  int size = access_size(vt(e, v));
  Op m = address(e, in->args[1]);
  int64_t imm;
  if (imm_ok(e, v, size == 64 ? 64 : 32, &imm)) {
    if (size == 8) {
      ins(e, 8, 0xc6, 1, 0, m);
      b1(e, (uint8_t)imm);
    } else if (size == 16) {
      ins(e, 16, 0xc7, 1, 0, m);
      uint16_t h = (uint16_t)imm;
      put(e, &h, 2);
    } else {
      ins(e, size, 0xc7, 1, 0, m);
      b4(e, (uint32_t)imm);
    }
  } else {
    store(e, size, m, get(e, v));
  }
  use(e, v);
}

static void frame_adjust(E *e, int alu) { /* add/sub rsp, F: F is patched in at the end */
  ins(e, 64, 0x81, 1, alu, R(RSP));
  if (!room(e, (void **)&e->framefix, e->nframefix, &e->framefixcap, sizeof *e->framefix)) return;
  e->framefix[e->nframefix++] = (uint32_t)e->n;
  b4(e, 0);
}

/* the frame and the saved rbx go (a return or a tail call follows) */
static void leave(E *e) {
  if (e->frame) frame_adjust(e, ALU_ADD);
  if (e->home == RBX) b1(e, 0x5b); /* pop rbx */
}

static void call(E *e, const KitCgInst *in, void *target) {
  bool tail = in->flags & KIT_CG_F_TAIL, indirect = in->op == KIT_CG_OP_CALLI;
  uint32_t first = indirect ? 1 : 0, n = in->nargs - first;
  /* values needed after the call go to their slots (every pool register is
   * caller-saved); this call's own uses do not count */
  if (!tail)
    for (int i = 0; i < NPOOL; i++) {
      KitCgVal v = e->regval[pool[i]];
      if (!v || e->v[v].isconst || e->v[v].in_slot) continue;
      uint32_t here = 0;
      for (uint32_t k = 0; k < in->nargs; k++) here += e->canon[in->args[k]] == v;
      if (e->v[v].uses > here) {
        store(e, 64, slot_op(e, &e->v[v]), pool[i]);
        e->v[v].in_slot = true;
      }
    }
  /* a tail call through a pointer loaded right before it jumps through
   * memory: the address goes to the scratch register (a constant one may
   * be in an argument register after the moves) */
  Val *cx = indirect ? &e->v[e->canon[in->args[0]]] : NULL;
  const KitCgInst *ld = cx && cx->deferred && cx->def->op == KIT_CG_OP_LOAD ? cx->def : NULL;
  Val *ax = ld ? &e->v[e->canon[ld->args[0]]] : NULL;
  if (ld && ax->isconst) use(e, ld->args[0]);
  else if (ld) lea(e, 64, SCRATCH, address(e, ld->args[0]));
  else if (indirect) load_into(e, SCRATCH, in->args[0]);
  else mov_ri(e, SCRATCH, (uint64_t)(uintptr_t)target);
  /* register to register moves first (a parallel move: cycles swap), then
   * slots and constants */
  int dst[6], src[6];
  unsigned np = 0;
  for (uint32_t i = 0; i < n; i++) {
    Val *x = &e->v[e->canon[in->args[first + i]]];
    if (x->reg >= 0 && x->reg != argreg[i]) {
      dst[np] = argreg[i];
      src[np] = x->reg;
      np++;
    }
  }
  while (np) {
    unsigned k;
    for (k = 0; k < np; k++) {
      bool busy = false;
      for (unsigned j = 0; j < np; j++) busy |= j != k && src[j] == dst[k];
      if (!busy) break;
    }
    if (k < np) {
      mov_rr(e, 64, dst[k], src[k]);
    } else { /* a cycle */
      k = 0;
      ins(e, 64, 0x87, 1, src[k], R(dst[k])); /* xchg */
      for (unsigned j = 1; j < np; j++) {
        if (src[j] == dst[k]) src[j] = src[k];
        else if (src[j] == src[k]) src[j] = dst[k];
      }
    }
    dst[k] = dst[np - 1];
    src[k] = src[np - 1];
    np--;
  }
  for (uint32_t i = 0; i < n; i++) {
    Val *x = &e->v[e->canon[in->args[first + i]]];
    if (x->reg < 0) load_into(e, argreg[i], in->args[first + i]);
  }
  for (uint32_t k = 0; k < in->nargs; k++) use(e, in->args[k]);
  forget_regs(e);
  if (tail) {
    leave(e);
    if (!ld) {
      b1(e, 0x41), b1(e, 0xff), b1(e, 0xe3); /* jmp r11 */
      return;
    }
    int base = SCRATCH;
    if (ax->isconst) {
      base = -1;
      for (uint32_t i = 0; i < n && base < 0; i++) {
        Val *x = &e->v[e->canon[in->args[first + i]]];
        if (x->isconst && x->imm == ax->imm) base = argreg[i];
      }
      if (base < 0) mov_ri(e, base = SCRATCH, ax->imm);
    }
    ins(e, 32, 0xff, 1, 4, M(base, -1, 0)); /* jmp [base] */
    return;
  }
  b1(e, 0x41), b1(e, 0xff), b1(e, 0xd3); /* call r11 */
  if (in->id && e->v[in->id].uses) {
    int w = width((KitCgType)in->type);
    if (w == 32) mov_rr(e, 32, RAX, RAX);
    else if (w < 32) movzx(e, RAX, w == 16 ? 16 : 8, R(RAX));
    if (w == 1) alu_ri(e, ALU_AND, 32, R(RAX), 1);
    define(e, in->id, RAX);
  }
}

static void ret_(E *e, const KitCgInst *in) {
  if (in->nargs) load_into(e, RAX, in->args[0]);
  if (in->nargs) use(e, in->args[0]);
  leave(e);
  b1(e, 0xc3);
}

static void branch_to(E *e, uint32_t blk, int cc /* -1: always */) {
  uint32_t at = cc < 0 ? jmp(e) : jcc(e, cc);
  if (!room(e, (void **)&e->fix, e->nfix, &e->fixcap, sizeof *e->fix)) return;
  e->fix[e->nfix++] = (Fix){at, blk};
}

/* ---- the function ------------------------------------------------------------------------------ */

static bool int_type(KitCgType t) { return t == KIT_CG_VOID || (t >= KIT_CG_I1 && t <= KIT_CG_I64) || t == KIT_CG_PTR; }

static bool fold(E *e, const KitCgInst *in, uint64_t *out) {
  uint64_t a[3] = {0};
  for (uint32_t k = 0; k < in->nargs && k < 3; k++) {
    if (!e->v[in->args[k]].isconst) return false;
    a[k] = e->v[in->args[k]].imm;
  }
  int w = width((KitCgType)in->type);
  uint64_t r;
  switch (in->op) {
  case KIT_CG_OP_CONST: r = in->imm; break;
  case KIT_CG_OP_ZEXT:
  case KIT_CG_OP_TRUNC:
  case KIT_CG_OP_PTRTOINT:
  case KIT_CG_OP_INTTOPTR: r = a[0]; break;
  case KIT_CG_OP_SEXT: {
    int ws = width(vt(e, in->args[0]));
    r = ws == 64 ? a[0] : (a[0] >> (ws - 1) & 1) ? a[0] | ~mask_of(ws) : a[0];
    break;
  }
  case KIT_CG_OP_ADD:
  case KIT_CG_OP_PTRADD: r = a[0] + a[1]; break;
  case KIT_CG_OP_SUB: r = a[0] - a[1]; break;
  case KIT_CG_OP_AND: r = a[0] & a[1]; break;
  case KIT_CG_OP_OR: r = a[0] | a[1]; break;
  case KIT_CG_OP_XOR: r = a[0] ^ a[1]; break;
  case KIT_CG_OP_MUL: r = a[0] * a[1]; break;
  default: return false;
  }
  *out = r & mask_of(w);
  return true;
}

static const char *check(const KitCgModule *m, const KitCgFunc *f) {
  if (f->nparams > 6 || f->variadic || f->nstack) return "parameters or stack objects";
  for (uint32_t i = 0; i < f->nparams; i++)
    if (!int_type((KitCgType)f->params[i].type) || f->params[i].attrs & (KIT_CG_PA_BYVAL | KIT_CG_PA_SRET))
      return "a parameter type";
  if (!int_type((KitCgType)f->ret[0]) || f->ret[1] != KIT_CG_VOID) return "the result type";
  for (uint32_t v = 1; v < f->nvals; v++)
    if (!int_type((KitCgType)f->vtype[v]) && f->vtype[v] != KIT_CG_VOID) return "a value type (float, i128 or vector)";
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->ninsts; i++) {
      const KitCgInst *in = &bl->insts[i];
      switch (in->op) {
      case KIT_CG_OP_CONST: case KIT_CG_OP_ADD: case KIT_CG_OP_SUB: case KIT_CG_OP_MUL:
      case KIT_CG_OP_AND: case KIT_CG_OP_OR: case KIT_CG_OP_XOR: case KIT_CG_OP_SHL: case KIT_CG_OP_LSHR:
      case KIT_CG_OP_ASHR: case KIT_CG_OP_NEG: case KIT_CG_OP_NOT: case KIT_CG_OP_UMIN: case KIT_CG_OP_UMAX:
      case KIT_CG_OP_SELECT: case KIT_CG_OP_TRUNC: case KIT_CG_OP_ZEXT: case KIT_CG_OP_SEXT:
      case KIT_CG_OP_PTRTOINT: case KIT_CG_OP_INTTOPTR: case KIT_CG_OP_PTRADD: case KIT_CG_OP_BR:
      case KIT_CG_OP_CONDBR: case KIT_CG_OP_RET: case KIT_CG_OP_UNREACHABLE: case KIT_CG_OP_TRAP:
      case KIT_CG_OP_FENCE:
        break;
      case KIT_CG_OP_UDIV: case KIT_CG_OP_UREM: case KIT_CG_OP_SDIV: case KIT_CG_OP_SREM:
      case KIT_CG_OP_SMIN: case KIT_CG_OP_SMAX:
        if (in->type == KIT_CG_I1) return "i1 signed or divide";
        break;
      case KIT_CG_OP_ICMP:
        if (signed_pred((KitCgPred)in->pred) && f->vtype[in->args[0]] == KIT_CG_I1) return "signed i1 compare";
        break;
      case KIT_CG_OP_LOAD: case KIT_CG_OP_STORE:
        if (in->flags & KIT_CG_F_VOLATILE) return "volatile";
        break;
      case KIT_CG_OP_CALL: case KIT_CG_OP_CALLI: {
        if (in->type2 != KIT_CG_VOID || in->flags & KIT_CG_F_VARARGS || in->nargs - (in->op == KIT_CG_OP_CALLI) > 6)
          return "a call's signature";
        if (in->op == KIT_CG_OP_CALL) {
          const KitCgFunc *c = kit_cg_func_of(m, in->aux);
          if (m->syms[in->aux].kind != KIT_CG_SYM_FUNC || !kit_cg_func_is_decl(c)) return "a call into the module";
          for (uint32_t k = 0; k < c->nparams && k < in->nargs; k++)
            if (c->params[k].attrs & KIT_CG_PA_SEXT && width((KitCgType)c->params[k].type) < 32)
              return "a sign-extended argument";
        }
        if (in->argattrs)
          for (uint32_t k = 0; k + (in->op == KIT_CG_OP_CALLI) < in->nargs; k++)
            if (in->argattrs[k].attrs & ~KIT_CG_PA_ZEXT) return "a call's argument attributes";
        if (in->flags & KIT_CG_F_TAIL) { /* must be followed by the ret of its result */
          if (i + 1 >= bl->ninsts || bl->insts[i + 1].op != KIT_CG_OP_RET) return "a tail call not followed by ret";
          const KitCgInst *r = &bl->insts[i + 1];
          if (r->nargs && (!in->id || r->args[0] != in->id)) return "a tail call whose result is not returned";
        }
        break;
      }
      case KIT_CG_OP_ASM: case KIT_CG_OP_ASMGOTO: return "inline asm";
      default: return kit_cg_op_info[in->op].name;
      }
    }
  }
  return NULL;
}

/* the block's br or condbr, NULL when it ends otherwise */
static const KitCgInst *branch_of(const KitCgBlock *bl) {
  const KitCgInst *t = bl->ninsts ? &bl->insts[bl->ninsts - 1] : NULL;
  return t && (t->op == KIT_CG_OP_BR || t->op == KIT_CG_OP_CONDBR) ? t : NULL;
}

static bool is_k(E *e, KitCgVal v, uint64_t k) {
  Val *x = &e->v[e->canon[v]];
  return x->isconst && x->imm == k;
}

/* does instruction `in` read only the low 32 bits of its operand k (an i32)? */
static bool reads_low32(const KitCgInst *in, uint32_t k) {
  switch (in->op) {
  case KIT_CG_OP_ADD: case KIT_CG_OP_SUB: case KIT_CG_OP_MUL: case KIT_CG_OP_AND: case KIT_CG_OP_OR:
  case KIT_CG_OP_XOR: case KIT_CG_OP_SHL: case KIT_CG_OP_LSHR: case KIT_CG_OP_ASHR: return in->type == KIT_CG_I32;
  case KIT_CG_OP_ICMP: return true; /* compares at the operands' width */
  case KIT_CG_OP_SEXT: return in->type == KIT_CG_I64;
  case KIT_CG_OP_TRUNC: return true;
  case KIT_CG_OP_STORE: return k == 0 && !(in->flags & KIT_CG_F_FAULT_PC);
  default: return false;
  }
}

/* A truncation of an i64 to i32 whose every user reads only the low 32
 * bits (32-bit operations, which also zero-extend their results) emits
 * nothing: its users read the i64's register. Values narrower than 64 bits
 * are otherwise kept zero-extended. */
static void lazy_truncs(E *e) {
  const KitCgFunc *f = e->f;
  uint8_t *st = calloc(f->nvals + 1, 1); /* 1: candidate, 2: read otherwise */
  if (!st) return;
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      Val *x = &e->v[in->id];
      if (in->op == KIT_CG_OP_TRUNC && in->type == KIT_CG_I32 && vt(e, in->args[0]) == KIT_CG_I64 && !x->isconst &&
          x->uses && x->def && e->canon[in->args[0]] > f->nparams)
        st[in->id] = 1;
    }
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (in->id && (e->v[in->id].isconst || !e->v[in->id].def)) continue; /* folded or dead */
      for (uint32_t k = 0; k < in->nargs; k++)
        if (st[in->args[k]] == 1 && !reads_low32(in, k)) st[in->args[k]] = 2;
    }
  for (uint32_t t = 1; t <= f->nvals; t++) {
    if (st[t] != 1) continue;
    Val *x = &e->v[t], *src = &e->v[e->canon[x->def->args[0]]];
    src->uses += x->uses - 1;
    src->global |= x->global;
    e->canon[t] = e->canon[x->def->args[0]];
    x->uses = 0;
    x->def = NULL; /* silent */
  }
  free(st);
}

/* Cold paths: a block A ending in a condbr flagged cold to X whose blocks
 * (X and what it reaches before the other successor C) are entered only
 * from A and among themselves, and leave only to C (or end): C continues
 * A's registers, and the cold blocks go after the function's other blocks.
 * The first of them starts with A's registers at the branch (their values
 * go to their slots there), the others with none, and they return to C
 * through a stub that puts A's registers back. What ASan's checks are
 * made of: values used across a check stay in registers on the way that
 * runs. */
static void cold_paths(E *e, const uint32_t *preds) {
  const KitCgFunc *f = e->f;
  for (uint32_t b = 0; b < f->nblocks; b++) e->cold_of[b] = e->cont_of[b] = e->cold_last[b] = -1;
  for (uint32_t a = 0; a < f->nblocks; a++) {
    const KitCgInst *t = branch_of(&f->blocks[a]);
    if (!t || t->op != KIT_CG_OP_CONDBR || !(t->flags & KIT_CG_F_COLD) || e->cold_of[a] >= 0) continue;
    uint32_t x = t->blks[0], c = t->blks[1];
    if (x == c || !x || !c || x == a || c == a || preds[x] != 1 || e->cold_of[x] >= 0 || e->cold_of[c] >= 0 ||
        e->cont_of[a] >= 0)
      continue;
    uint32_t set[8], n = 0, into_c = 1; /* A's edge */
    bool ok = true;
    set[n++] = x;
    for (uint32_t i = 0; i < n && ok; i++) {
      const KitCgInst *bt = branch_of(&f->blocks[set[i]]);
      if (!bt) { /* unreachable or trap: ends there (a ret would leave from the cold path) */
        const KitCgBlock *bl = &f->blocks[set[i]];
        ok = bl->ninsts && (bl->insts[bl->ninsts - 1].op == KIT_CG_OP_UNREACHABLE ||
                            bl->insts[bl->ninsts - 1].op == KIT_CG_OP_TRAP);
        continue;
      }
      for (uint32_t k = 0; k < bt->nblks && ok; k++) {
        uint32_t s2 = bt->blks[k];
        if (s2 == c) {
          into_c++;
          continue;
        }
        bool in = false;
        for (uint32_t j = 0; j < n; j++) in |= set[j] == s2;
        if (in) continue;
        ok = n < 8 && s2 != a && s2 != 0 && e->cold_of[s2] < 0 && e->cont_of[s2] < 0;
        if (ok) set[n++] = s2;
      }
    }
    /* entered only from A and the set itself: count the set's edges */
    for (uint32_t i = 0; i < n && ok; i++) {
      uint32_t in = set[i] == x ? 1 : 0;
      for (uint32_t j = 0; j < n; j++) {
        const KitCgInst *bt = branch_of(&f->blocks[set[j]]);
        for (uint32_t k = 0; bt && k < bt->nblks; k++) in += bt->blks[k] == set[i];
      }
      ok = in == preds[set[i]];
    }
    if (!ok || into_c != preds[c]) continue;
    for (uint32_t i = 0; i < n; i++) e->cold_of[set[i]] = (int32_t)a;
    e->cont_of[a] = (int32_t)c;
  }
  /* a continuation that a later path took in as cold: not a cold path then */
  for (uint32_t a = 0; a < f->nblocks; a++) {
    if (e->cont_of[a] < 0 || e->cold_of[e->cont_of[a]] < 0) continue;
    for (uint32_t b = 0; b < f->nblocks; b++)
      if (e->cold_of[b] == (int32_t)a) e->cold_of[b] = -1;
    e->cont_of[a] = -1;
  }
}

/* emission order, use counts, constants (folded and shared), globals, dead
 * code, and the peepholes' folded values */
static bool prepare(E *e) {
  const KitCgFunc *f = e->f;
  uint32_t nv = f->nvals;
  e->v = calloc(nv + 1, sizeof *e->v);
  e->canon = calloc(nv + 1, sizeof *e->canon);
  e->blkoff = calloc(2 * f->nblocks + 2, sizeof *e->blkoff); /* blocks, then cold paths' returns */
  e->cold_of = calloc(f->nblocks + 1, sizeof *e->cold_of);
  e->cont_of = calloc(f->nblocks + 1, sizeof *e->cont_of);
  e->cold_last = calloc(f->nblocks + 1, sizeof *e->cold_last);
  e->snap = calloc(f->nblocks + 1, sizeof *e->snap);
  e->cold_started = calloc(f->nblocks + 1, sizeof *e->cold_started);
  e->flipped = calloc(nv + 1, sizeof *e->flipped);
  e->order = calloc(f->nblocks + 1, sizeof *e->order);
  e->fused = calloc(f->nblocks + 1, sizeof *e->fused);
  e->region = calloc(f->nblocks + 1, sizeof *e->region);
  /* working arrays (the E arrays are freed by e_free) */
  const KitCgInst **user = calloc(nv + 1, sizeof *user);
  uint32_t *preds = calloc(f->nblocks + 1, sizeof *preds), *rpo = calloc(f->nblocks + 1, sizeof *rpo),
           *stack = calloc(2 * f->nblocks + 2, sizeof *stack);
  bool *placed = calloc(f->nblocks + 1, sizeof *placed), *seen = calloc(f->nblocks + 1, sizeof *seen);
  uint32_t hcap = 64;
  while (hcap < nv * 2) hcap *= 2;
  KitCgVal *h = calloc(hcap, sizeof *h);
  bool ok = e->v && e->canon && e->blkoff && e->order && e->fused && e->region && user && preds && rpo && stack &&
            placed && seen && h && e->cold_of && e->cont_of && e->cold_last && e->snap && e->cold_started &&
            e->flipped;
  if (!ok) goto out;
  /* emission order: a block that ends in br to a block with no other
   * predecessor is followed by it, which continues its registers */
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgInst *t = branch_of(&f->blocks[bi]);
    for (uint32_t k = 0; t && k < t->nblks; k++) preds[t->blks[k]]++;
    e->fused[bi] = -1;
  }
  preds[0]++; /* the entry is entered */
  /* blocks in reverse postorder from the entry, so a definition is emitted
   * before its uses however the blocks are numbered (a pass appends the
   * blocks it splits off); unreachable blocks are not emitted */
  uint32_t nrpo = 0;
  { /* iterative DFS: stack of (block, next successor to visit) */
    uint32_t sp = 0, post = f->nblocks;
    stack[sp++] = 0;
    stack[sp++] = 0;
    seen[0] = true;
    while (sp) {
      uint32_t b = stack[sp - 2], k = stack[sp - 1];
      const KitCgInst *t = branch_of(&f->blocks[b]);
      uint32_t nsucc = t ? t->nblks : 0;
      if (k < nsucc) {
        stack[sp - 1]++;
        uint32_t s2 = t->blks[k];
        if (!seen[s2]) {
          seen[s2] = true;
          stack[sp++] = s2;
          stack[sp++] = 0;
        }
      } else {
        rpo[--post] = b;
        nrpo++;
        sp -= 2;
      }
    }
    memmove(rpo, rpo + (f->nblocks - nrpo), nrpo * sizeof *rpo);
  }
  cold_paths(e, preds);
  uint32_t no = 0;
  for (uint32_t ri = 0; ri < nrpo; ri++) {
    uint32_t bi = rpo[ri];
    if (placed[bi] || e->cold_of[bi] >= 0) continue;
    uint32_t b = bi;
    placed[b] = true;
    e->order[no++] = (int32_t)b;
    e->region[b] = bi;
    for (;;) {
      const KitCgInst *t = branch_of(&f->blocks[b]);
      int32_t nx = e->cont_of[b] >= 0 && !placed[e->cont_of[b]] ? e->cont_of[b] : -1;
      if (nx < 0 && t && t->op == KIT_CG_OP_BR && preds[t->blks[0]] == 1 && !placed[t->blks[0]] &&
          e->cold_of[t->blks[0]] < 0)
        nx = (int32_t)t->blks[0];
      /* the likely side of a branch, when only the branch leads there (the
       * other side starts with no registers) */
      int li = !t || t->op != KIT_CG_OP_CONDBR || t->blks[0] == t->blks[1] ? -1
               : t->flags & KIT_CG_F_LIKELY                              ? 0
               : t->flags & KIT_CG_F_COLD                                ? 1
                                                                          : -1;
      if (nx < 0 && li >= 0 && preds[t->blks[li]] == 1 && !placed[t->blks[li]] && e->cold_of[t->blks[li]] < 0)
        nx = (int32_t)t->blks[li];
      if (nx < 0) break;
      e->fused[b] = nx;
      b = (uint32_t)nx;
      placed[b] = true;
      e->order[no++] = (int32_t)b;
      e->region[b] = bi;
    }
  }
  /* cold paths last, each in one piece, in their branch's register region */
  for (uint32_t k = 0, nhot = no; k < nhot; k++) {
    int32_t a = e->order[k];
    if (e->cont_of[a] < 0) continue;
    for (uint32_t ri = 0; ri < nrpo; ri++) {
      uint32_t bi = rpo[ri];
      if (e->cold_of[bi] != a || placed[bi]) continue;
      placed[bi] = true;
      e->order[no++] = (int32_t)bi;
      e->region[bi] = e->region[a];
      e->cold_last[a] = (int32_t)bi;
    }
  }
  e->norder = no;
  for (uint32_t v = 0; v <= nv; v++) {
    e->v[v].reg = -1;
    e->v[v].slot = -1;
    e->canon[v] = v;
  }
  /* fold; equal constants: the first one stands for all (a small hash) */
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (!in->id) continue;
      Val *x = &e->v[in->id];
      x->def = in;
      x->defblk = bi;
      uint64_t imm;
      if (!fold(e, in, &imm)) continue;
      x->isconst = true;
      x->imm = imm;
      uint32_t k = (uint32_t)((imm * 0x9E3779B97F4A7C15ull) >> 40) & (hcap - 1);
      while (h[k] && e->v[h[k]].imm != imm) k = (k + 1) & (hcap - 1);
      if (!h[k]) h[k] = in->id;
      e->canon[in->id] = h[k];
    }
  /* uses (of canonical values), the block of the last one */
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (in->id && e->v[in->id].isconst) continue;
      for (uint32_t k = 0; k < in->nargs; k++) {
        KitCgVal a = e->canon[in->args[k]];
        e->v[a].uses++;
        user[a] = in;
        if (!e->v[a].isconst && a > f->nparams && e->region[e->v[a].defblk] != e->region[bi]) e->v[a].global = true;
        /* from one cold block to another: the second starts with no registers */
        if (!e->v[a].isconst && a > f->nparams && e->cold_of[bi] >= 0 && e->cold_of[e->v[a].defblk] >= 0 &&
            e->v[a].defblk != bi)
          e->v[a].global = true;
        if (a <= f->nparams && e->region[bi] != e->region[0] && !(a == 1 && e->reserved)) e->v[a].global = true;
      }
    }
  /* dead pure results */
  for (uint32_t bi = f->nblocks; bi-- > 0;)
    for (uint32_t i = f->blocks[bi].ninsts; i-- > 0;) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      if (!in->id || e->v[in->id].isconst || e->v[in->id].uses || !pure(in)) continue;
      e->v[in->id].def = NULL; /* silent */
      for (uint32_t k = 0; k < in->nargs; k++) e->v[e->canon[in->args[k]]].uses--;
    }
  /* a ptradd whose one use is the address of a load or store in its block */
  for (uint32_t v = f->nparams + 1; v < nv; v++) {
    Val *x = &e->v[v];
    const KitCgInst *u = user[v];
    if (!x->def || x->isconst || x->def->op != KIT_CG_OP_PTRADD || x->uses != 1 || x->global || !u) continue;
    if ((u->op == KIT_CG_OP_LOAD && u->args[0] == v) ||
        (u->op == KIT_CG_OP_STORE && u->args[1] == v && u->args[0] != v))
      x->deferred = true;
  }
  /* a load whose one use is the compare right after it, with a constant:
   * the compare reads memory */
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->ninsts; i++) {
      const KitCgInst *in = &bl->insts[i];
      if (in->op != KIT_CG_OP_LOAD || !in->id || e->v[in->id].uses != 1 || in->type == KIT_CG_I1) continue;
      const KitCgInst *u = user[in->id];
      if (!u || u->op != KIT_CG_OP_ICMP || next_real(e, bi, i) != u) continue;
      KitCgVal other = e->canon[u->args[0]] == in->id ? u->args[1] : u->args[0];
      int64_t imm;
      int w = width((KitCgType)in->type);
      if (e->canon[other] == in->id || !imm_ok(e, other, w == 64 ? 64 : 32, &imm)) continue;
      e->v[in->id].deferred = true;
    }
  }
  /* the pointer a tail call jumps through, loaded right before it */
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->ninsts; i++) {
      const KitCgInst *in = &bl->insts[i];
      if (in->op != KIT_CG_OP_LOAD || !in->id || e->v[in->id].uses != 1 || e->v[in->id].global ||
          access_size((KitCgType)in->type) != 64)
        continue;
      const KitCgInst *u = next_real(e, bi, i);
      if (u != user[in->id] || u->op != KIT_CG_OP_CALLI || !(u->flags & KIT_CG_F_TAIL) || u->args[0] != in->id)
        continue;
      e->v[in->id].deferred = true;
    }
  }
  /* lshr(shl(x, 32), 32), x perhaps sext(i32 y): the low half of x (of y) */
  for (uint32_t bi = 0; bi < f->nblocks; bi++) {
    const KitCgBlock *bl = &f->blocks[bi];
    for (uint32_t i = 0; i < bl->ninsts; i++) {
      const KitCgInst *in = &bl->insts[i];
      if (in->op != KIT_CG_OP_LSHR || in->type != KIT_CG_I64 || !is_k(e, in->args[1], 32)) continue;
      Val *sh = &e->v[e->canon[in->args[0]]];
      if (!sh->def || sh->def->op != KIT_CG_OP_SHL || sh->uses != 1 || sh->global || user[in->args[0]] != in ||
          !is_k(e, sh->def->args[1], 32) || sh->deferred)
        continue;
      sh->deferred = true;
      KitCgVal x = sh->def->args[0];
      Val *xv = &e->v[e->canon[x]];
      if (xv->def && xv->def->op == KIT_CG_OP_SEXT && vt(e, xv->def->args[0]) == KIT_CG_I32 && xv->uses == 1 &&
          !xv->global && user[x] == sh->def && !xv->deferred)
        xv->deferred = true;
    }
  }
  lazy_truncs(e);
out:
  free(user);
  free(preds);
  free(rpo);
  free(stack);
  free(placed);
  free(seen);
  free(h);
  return ok;
}

/* where a branch from the current block to blk goes: a cold path's way
 * back to its continuation is its return stub (block id nblocks + 1 + A) */
static uint32_t target(E *e, uint32_t blk) {
  int32_t a = e->cold_of[e->cur_blk];
  return a >= 0 && (int32_t)blk == e->cont_of[a] ? e->f->nblocks + 1 + (uint32_t)a : blk;
}

/* a cold block begins: the first of its path with the registers of its
 * branch, whose values go to their slots (the return stub reloads them),
 * the others with none */
static void cold_start(E *e, uint32_t bi) {
  uint32_t a = (uint32_t)e->cold_of[bi];
  forget_regs(e);
  e->flags_val = 0;
  if (e->cold_started[a]) {
    if (e->home >= 0) bind(e, 1, e->home);
    return;
  }
  e->cold_started[a] = true;
  const Snap *sn = &e->snap[a];
  memcpy(e->kconst, sn->kconst, sizeof e->kconst);
  e->kvalid = sn->kvalid;
  for (int r = 0; r < 16; r++) {
    KitCgVal v = sn->regval[r];
    if (!v) continue;
    e->regval[r] = v;
    e->v[v].reg = (int8_t)r;
    if (e->v[v].isconst || r == e->home) continue;
    /* stored even when its slot has it by now: that may be a store the
     * hot path makes only after the branch */
    store(e, 64, slot_op(e, &e->v[v]), r);
    if (!e->v[v].in_slot) e->flipped[e->nflipped++] = v;
    e->v[v].in_slot = true;
  }
}

/* after a cold path's last block: its return stub puts the branch's
 * registers back and jumps to the continuation */
static void cold_return(E *e, uint32_t a) {
  const Snap *sn = &e->snap[a];
  e->blkoff[e->f->nblocks + 1 + a] = (uint32_t)e->n;
  for (int r = 0; r < 16; r++) {
    KitCgVal v = sn->regval[r];
    if (!v && (sn->kvalid & 1u << r)) mov_ri(e, r, sn->kconst[r]);
    else if (v && e->v[v].isconst) mov_ri(e, r, e->v[v].imm);
    else if (v && r != e->home) ins(e, 64, 0x8b, 1, r, slot_op(e, &e->v[v]));
  }
  branch_to(e, (uint32_t)e->cont_of[a], -1);
  for (uint32_t i = 0; i < e->nflipped; i++) e->v[e->flipped[i]].in_slot = false;
  e->nflipped = 0;
  forget_regs(e);
}

static void emit_function(E *e) {
  const KitCgFunc *f = e->f;
  if (e->home == RBX) b1(e, 0x53); /* push rbx */
  if (e->frame) frame_adjust(e, ALU_SUB);
  for (uint32_t k = 0; k < e->norder && !e->why && !e->oom; k++) {
    uint32_t bi = (uint32_t)e->order[k];
    int32_t next = k + 1 < e->norder ? e->order[k + 1] : -1;
    const KitCgBlock *bl = &f->blocks[bi];
    e->blkoff[bi] = (uint32_t)e->n;
    if (e->cold_of[bi] >= 0) {
      cold_start(e, bi);
    } else if (!k || e->fused[e->order[k - 1]] != (int32_t)bi) { /* registers start empty */
      forget_regs(e);
      e->flags_val = 0;
      if (e->home >= 0 && e->v[1].uses) bind(e, 1, e->home);
    }
    if (bi == 0)
      for (uint32_t p = 1; p <= f->nparams; p++) {
        if (!e->v[p].uses) continue;
        /* the ABI leaves the bits above a narrow argument undefined */
        int w = width((KitCgType)f->params[p - 1].type);
        if (w == 32) mov_rr(e, 32, argreg[p - 1], argreg[p - 1]);
        else if (w == 8 || w == 16) movzx(e, argreg[p - 1], w, R(argreg[p - 1]));
        else if (w == 1) alu_ri(e, ALU_AND, 32, R(argreg[p - 1]), 1);
        if (p == 1 && e->home == RBX) mov_rr(e, 64, RBX, RDI);
        bind(e, p, p == 1 && e->home >= 0 ? e->home : argreg[p - 1]);
        if (e->v[p].global) {
          store(e, 64, slot_op(e, &e->v[p]), argreg[p - 1]);
          e->v[p].in_slot = true;
        }
      }
    for (uint32_t i = 0; i < bl->ninsts && !e->why; i++) {
      const KitCgInst *in = &bl->insts[i];
      e->cur_blk = bi;
      e->cur_inst = i;
      e->pinned = 0;
      if (silent(e, in) || in == e->skip[0] || in == e->skip[1]) continue;
      KitCgType t = (KitCgType)in->type;
      if (in->id && !e->v[in->id].uses && pure(in)) continue; /* dead by now */
      switch (in->op) {
      case KIT_CG_OP_ADD: case KIT_CG_OP_SUB: case KIT_CG_OP_MUL: case KIT_CG_OP_AND: case KIT_CG_OP_OR:
      case KIT_CG_OP_XOR: binary(e, in, t); break;
      case KIT_CG_OP_PTRADD: binary(e, in, KIT_CG_I64); break;
      case KIT_CG_OP_SHL: case KIT_CG_OP_LSHR: case KIT_CG_OP_ASHR: shift(e, in, t); break;
      case KIT_CG_OP_UDIV: case KIT_CG_OP_UREM: case KIT_CG_OP_SDIV: case KIT_CG_OP_SREM: divide(e, in, t); break;
      case KIT_CG_OP_SMIN: case KIT_CG_OP_SMAX: case KIT_CG_OP_UMIN: case KIT_CG_OP_UMAX: minmax(e, in, t); break;
      case KIT_CG_OP_NEG: case KIT_CG_OP_NOT: unary(e, in, t); break;
      case KIT_CG_OP_ICMP: icmp(e, in, bi, i); break;
      case KIT_CG_OP_SELECT: select_(e, in, t); break;
      case KIT_CG_OP_TRUNC: case KIT_CG_OP_ZEXT: case KIT_CG_OP_SEXT: case KIT_CG_OP_PTRTOINT:
      case KIT_CG_OP_INTTOPTR: convert(e, in); break;
      case KIT_CG_OP_LOAD: load_(e, in); break;
      case KIT_CG_OP_STORE: store_(e, in); break;
      case KIT_CG_OP_FENCE: b1(e, 0x0f), b1(e, 0xae), b1(e, 0xf0); break;
      case KIT_CG_OP_CALL:
      case KIT_CG_OP_CALLI: {
        void *target = NULL;
        if (in->op == KIT_CG_OP_CALL) {
          const char *name = kit_cg_sym_name(e->m, in->aux);
          target = e->x->resolve ? e->x->resolve(e->x->user, name) : NULL;
          if (!target) target = dlsym(RTLD_DEFAULT, name);
          if (!target) {
            e->why = "an external that does not resolve";
            break;
          }
        }
        call(e, in, target);
        if (in->flags & KIT_CG_F_TAIL) i++; /* its ret */
        break;
      }
      case KIT_CG_OP_RET: ret_(e, in); break;
      case KIT_CG_OP_BR:
        if ((int32_t)target(e, in->blks[0]) != next) branch_to(e, target(e, in->blks[0]), -1);
        break;
      case KIT_CG_OP_CONDBR: {
        uint32_t tb = target(e, in->blks[0]), fb = target(e, in->blks[1]);
        Val *c = &e->v[e->canon[in->args[0]]];
        if (c->isconst) {
          uint32_t to = c->imm & 1 ? tb : fb;
          use(e, in->args[0]);
          if ((int32_t)to != next) branch_to(e, to, -1);
        } else {
          int cc = condition(e, in->args[0]);
          if ((int32_t)tb == next) branch_to(e, fb, cc ^ 1);
          else {
            branch_to(e, tb, cc);
            if ((int32_t)fb != next) branch_to(e, fb, -1);
          }
        }
        if (e->cont_of[bi] >= 0) { /* the registers its cold path starts from */
          Snap *sn = &e->snap[bi];
          memcpy(sn->regval, e->regval, sizeof sn->regval);
          memcpy(sn->kconst, e->kconst, sizeof sn->kconst);
          sn->kvalid = e->kvalid;
        }
        break;
      }
      case KIT_CG_OP_UNREACHABLE:
      case KIT_CG_OP_TRAP: b1(e, 0x0f), b1(e, 0x0b); break;
      default: e->why = kit_cg_op_info[in->op].name; break;
      }
    }
    if (e->cold_of[bi] >= 0 && e->cold_last[e->cold_of[bi]] == (int32_t)bi) cold_return(e, (uint32_t)e->cold_of[bi]);
  }
  for (uint32_t i = 0; i < e->nrare && !e->oom; i++) {
    const Rare *k = &e->rare[i];
    int32_t rel = (int32_t)e->n - (int32_t)(k->at + 4);
    memcpy(e->code + k->at, &rel, 4);
    if (k->src < 0) mov_ri(e, k->dst, k->imm);
    else mov_rr(e, 64, k->dst, k->src);
    uint32_t j = jmp(e);
    rel = (int32_t)k->back - (int32_t)(j + 4);
    memcpy(e->code + j, &rel, 4);
  }
  for (uint32_t i = 0; i < e->nfix; i++) {
    int32_t rel = (int32_t)e->blkoff[e->fix[i].blk] - (int32_t)(e->fix[i].at + 4);
    memcpy(e->code + e->fix[i].at, &rel, 4);
  }
  uint32_t fs = 8 * e->nslots; /* rsp 16-byte aligned at calls: the return address and rbx are pushed */
  if (fs % 16 != (e->home == RBX ? 0u : 8u)) fs += 8;
  for (uint32_t i = 0; i < e->nframefix; i++) memcpy(e->code + e->framefix[i], &fs, 4);
}

static void *place(KitX64 *x, const uint8_t *code, size_t n) {
  size_t at = (x->used + 15) & ~(size_t)15;
  if (!x->chunk || at + n > x->cap) {
    size_t cap = n > CHUNK ? (n + 4095) & ~(size_t)4095 : CHUNK;
    void *p = mmap(NULL, cap, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    x->chunk = p;
    x->cap = cap;
    at = 0;
  }
  memcpy(x->chunk + at, code, n);
  x->used = at + n;
  x->total += n;
  return x->chunk + at;
}

/* the function placed at code gets its side table */
static bool add_marks(KitX64 *x, E *e, uint8_t *code) {
  if (!e->nmarks) return true;
  if (!grow((void **)&x->funcs, x->nfuncs + 1, &x->funcs_cap, sizeof *x->funcs) ||
      !grow((void **)&x->marks, x->nmarks + e->nmarks, &x->marks_cap, sizeof *x->marks))
    return false;
  memcpy(x->marks + x->nmarks, e->marks, e->nmarks * sizeof *e->marks);
  FuncMarks fm = {(uintptr_t)code, (uintptr_t)code + e->n, x->nmarks, e->nmarks};
  x->nmarks += e->nmarks;
  uint32_t i = x->nfuncs; /* code mostly grows upwards: insert from the end */
  while (i && x->funcs[i - 1].start > fm.start) i--;
  memmove(x->funcs + i + 1, x->funcs + i, (x->nfuncs - i) * sizeof *x->funcs);
  x->funcs[i] = fm;
  x->nfuncs++;
  return true;
}

bool kit_x64_fault_value(const KitX64 *x, uintptr_t pc, uint64_t *value) {
  if (!x || !x->nfuncs) return false;
  uint32_t lo = 0, hi = x->nfuncs; /* the last function starting at or before pc */
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (x->funcs[mid].start <= pc) lo = mid;
    else hi = mid;
  }
  const FuncMarks *f = &x->funcs[lo];
  if (pc < f->start || pc >= f->end) return false;
  uint32_t off = (uint32_t)(pc - f->start);
  const Mark *m = NULL;
  for (uint32_t i = 0; i < f->n && x->marks[f->first + i].off <= off; i++) m = &x->marks[f->first + i];
  if (!m) return false;
  *value = m->value;
  return true;
}

static void e_free(E *e) {
  free(e->marks);
  free(e->code);
  free(e->v);
  free(e->canon);
  free(e->blkoff);
  free(e->order);
  free(e->fused);
  free(e->region);
  free(e->fix);
  free(e->rare);
  free(e->cold_of);
  free(e->cont_of);
  free(e->cold_last);
  free(e->snap);
  free(e->cold_started);
  free(e->flipped);
  free(e->framefix);
}

void *kit_x64_compile(KitX64 *x, const KitCgModule *m, const KitCgFunc *f, const char **why) {
  const char *w = !x ? "no x86-64 compiler" : kit_cg_func_is_decl(f) ? "a declaration" : check(m, f);
  if (w) {
    if (why) *why = w;
    return NULL;
  }
  bool has_calls = false;
  for (uint32_t bi = 0; bi < f->nblocks; bi++)
    for (uint32_t i = 0; i < f->blocks[bi].ninsts; i++) {
      const KitCgInst *in = &f->blocks[bi].insts[i];
      has_calls |= (in->op == KIT_CG_OP_CALL || in->op == KIT_CG_OP_CALLI) && !(in->flags & KIT_CG_F_TAIL);
    }
  void *out = NULL;
  for (int attempt = 0; attempt < 2 && !out; attempt++) {
    /* the first parameter (the emulator's CPU) stays in rdi without calls,
     * in rbx (saved, restored on the way out) with them */
    int home = f->nparams < 1 ? -1 : has_calls ? RBX : RDI;
    E e = {.x = x, .m = m, .f = f, .frame = has_calls || attempt == 1,
           .reserved = home >= 0 ? 1u << home : 0, .home = home};
    if (!prepare(&e)) {
      e.why = "out of memory";
    } else {
      emit_function(&e);
      if (e.oom) e.why = "out of memory";
    }
    w = e.why;
    if (!w) out = place(x, e.code, e.n);
    if (out && !add_marks(x, &e, out)) {
      out = NULL; /* without its side table a fault could not find its pc */
      w = "out of memory";
    }
    bool retry = e.red_full;
    e_free(&e);
    if (!retry) break;
  }
  if (!out && why) *why = w ? w : "out of executable memory";
  return out;
}

KitX64 *kit_x64_new(KitCgResolver resolve, void *user) {
  KitX64 *x = calloc(1, sizeof *x);
  if (!x) return NULL;
  x->resolve = resolve;
  x->user = user;
  return x;
}

void kit_x64_free(KitX64 *x) {
  /* code chunks stay mapped: code may still be running or linked to */
  if (!x) return;
  free(x->funcs);
  free(x->marks);
  free(x);
}

size_t kit_x64_code_size(const KitX64 *x) { return x ? x->total : 0; }

#else /* not an x86-64 host */

KitX64 *kit_x64_new(KitCgResolver resolve, void *user) {
  (void)resolve;
  (void)user;
  return NULL;
}
void kit_x64_free(KitX64 *x) { (void)x; }
void *kit_x64_compile(KitX64 *x, const KitCgModule *m, const KitCgFunc *f, const char **why) {
  (void)x, (void)m, (void)f;
  if (why) *why = "not an x86-64 host";
  return NULL;
}
size_t kit_x64_code_size(const KitX64 *x) {
  (void)x;
  return 0;
}
bool kit_x64_fault_value(const KitX64 *x, uintptr_t host_pc, uint64_t *value) {
  (void)x, (void)host_pc, (void)value;
  return false;
}
#endif
