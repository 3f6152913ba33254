/* tests/baseline/test_encode.c — the baseline compiler's x86-64 encoder
 * (cg/baseline/encode.c) on its own against GNU objdump: every instruction
 * form encode.h has, swept over all sixteen registers, the operand sizes and
 * memory operands of every shape (no displacement, disp8, disp32 at their
 * edges, rsp/rbp/r12/r13 bases that need a SIB byte or a displacement, an
 * index), is encoded into one buffer; the text each should disassemble to is
 * formatted from the same table. objdump -D -b binary -mi386:x86-64 reads the
 * buffer and every instruction must start where the encoder put it, have its
 * length and read as predicted.
 *   test_encode FILE   (FILE: where the encoded sweep is written) */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"

typedef struct Expect {
  uint32_t off, len;
  char text[112];
} Expect;
static Expect *want;
static size_t nwant, wantcap;
static CodeBuf cb;
static uint32_t start;

static void begin(void) { start = (uint32_t)cb.n; }
/* the instruction encoded since begin() must read as fmt */
static void expect(const char *fmt, ...) {
  if (nwant == wantcap) {
    wantcap = wantcap ? 2 * wantcap : 4096;
    want = realloc(want, wantcap * sizeof *want);
    if (!want) exit(2);
  }
  Expect *e = &want[nwant++];
  e->off = start;
  e->len = (uint32_t)cb.n - start;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->text, sizeof e->text, fmt, ap);
  va_end(ap);
}

/* ---- AT&T syntax, as objdump writes it ---------------------------------------- */

static const char *reg_name(int r, int size) {
  static const char *const r64[16] = {"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
                                      "r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15"};
  static const char *const r32[8] = {"eax", "ecx", "edx", "ebx", "esp", "ebp", "esi", "edi"};
  static const char *const r16[8] = {"ax", "cx", "dx", "bx", "sp", "bp", "si", "di"};
  static const char *const r8[8] = {"al", "cl", "dl", "bl", "spl", "bpl", "sil", "dil"};
  static char ring[8][16];
  static int k;
  char *s = ring[k++ & 7];
  if (size == 64) snprintf(s, 16, "%%%s", r64[r]);
  else if (r < 8) snprintf(s, 16, "%%%s", size == 32 ? r32[r] : size == 16 ? r16[r] : r8[r]);
  else snprintf(s, 16, "%%r%d%s", r, size == 32 ? "d" : size == 16 ? "w" : "b");
  return s;
}

static const char *mem_text(Operand m) {
  static char ring[8][48];
  static int k;
  char *s = ring[k++ & 7];
  char disp[16] = "";
  if (m.disp || (m.base & 7) == RBP)
    snprintf(disp, sizeof disp, "%s0x%llx", m.disp < 0 ? "-" : "",
             (unsigned long long)(m.disp < 0 ? -(int64_t)m.disp : m.disp));
  if (m.index >= 0) snprintf(s, 48, "%s(%s,%s,1)", disp, reg_name(m.base, 64), reg_name(m.index, 64));
  else snprintf(s, 48, "%s(%s)", disp, reg_name(m.base, 64));
  return s;
}

static uint64_t size_mask(int size) { return size == 64 ? ~0ull : (1ull << size) - 1; }
static const char *imm_text(int64_t v, int size) {
  static char ring[8][24];
  static int k;
  char *s = ring[k++ & 7];
  snprintf(s, 24, "$0x%llx", (unsigned long long)((uint64_t)v & size_mask(size)));
  return s;
}
static char suffix(int size) { return size == 8 ? 'b' : size == 16 ? 'w' : size == 32 ? 'l' : 'q'; }

static const char *const cc_name[16] = {"o", "no", "b", "ae", "e", "ne", "be", "a",
                                        "s", "ns", "p", "np", "l", "ge", "le", "g"};

/* ---- the operands swept ------------------------------------------------------------ */

static const int sizes[4] = {8, 16, 32, 64};
static const int32_t disps[] = {0, 1, -1, 8, 127, 128, -128, -129, 0x1000, 0x7fffffff, INT32_MIN};
#define NDISPS (int)(sizeof disps / sizeof disps[0])
static const int64_t imms[] = {0, 1, 5, 127, 128, -1, -128, -129, 0x7fff, 0x12345678, -0x12345678, INT32_MAX, INT32_MIN};
#define NIMMS (int)(sizeof imms / sizeof imms[0])

/* memory operands: every base with a few displacements, and base + index */
static int mem_operands(Operand *out) {
  int n = 0;
  for (int b = 0; b < 16; b++)
    for (int d = 0; d < NDISPS; d += (b == RSP || b == RBP || b == R12 || b == R13) ? 1 : 3)
      out[n++] = mem_op(b, -1, disps[d]);
  for (int b = 0; b < 16; b += 3)
    for (int i = 0; i < 16; i++)
      if (i != RSP) out[n++] = mem_op(b, i, disps[(b + i) % NDISPS]);
  return n;
}
static Operand mems[512];
static int nmems;

/* ---- the forms -------------------------------------------------------------------- */

static const struct {
  int alu;
  const char *name;
} alus[] = {{ALU_ADD, "add"}, {ALU_OR, "or"}, {ALU_AND, "and"}, {ALU_SUB, "sub"}, {ALU_XOR, "xor"}, {ALU_CMP, "cmp"}};

/* enc_modrm gives an 8-bit op whose ModRM reg field is 4..7 a REX prefix,
 * which sil/dil need as a register operand but a /4../7 digit does not: with
 * no other REX bit and no byte register 4..7 it is a spare byte, and objdump
 * names it */
static const char *spare_rex(int alu, int size, Operand o) {
  if (size != 8 || alu < 4) return "";
  if (!o.mem) return o.base < 4 ? "rex " : "";
  return o.base < 8 && o.index < 8 ? "rex " : "";
}

static void sweep_alu(void) {
  for (unsigned a = 0; a < sizeof alus / sizeof alus[0]; a++)
    for (int s = 0; s < 4; s++) {
      int size = sizes[s];
      for (int d = 0; d < 16; d++)
        for (int r = 0; r < 16; r += 5) {
          begin(), enc_alu_rr(&cb, alus[a].alu, size, d, r);
          expect("%s %s,%s", alus[a].name, reg_name(r, size), reg_name(d, size));
        }
      for (int i = 0; i < NIMMS; i++) {
        int64_t imm = imms[i];
        if (size == 8 && (imm > 255 || imm < -128)) continue;
        if (size == 16 && (imm > 0xffff || imm < -0x8000)) continue;
        for (int d = 0; d < 16; d += 3) {
          begin(), enc_alu_ri(&cb, alus[a].alu, size, reg_op(d), imm);
          expect("%s%s %s,%s", spare_rex(alus[a].alu, size, reg_op(d)), alus[a].name, imm_text(imm, size),
                 reg_name(d, size));
        }
        Operand m = mems[(i * 7 + s) % nmems];
        begin(), enc_alu_ri(&cb, alus[a].alu, size, m, imm);
        expect("%s%s%c %s,%s", spare_rex(alus[a].alu, size, m), alus[a].name, suffix(size), imm_text(imm, size),
               mem_text(m));
      }
    }
  for (unsigned a = 0; a < sizeof alus / sizeof alus[0]; a++) {
    begin(), enc_alu_ri32(&cb, alus[a].alu, RSP);
    expect("%s $0x0,%%rsp", alus[a].name);
  }
}

static void sweep_moves(void) {
  for (int d = 0; d < 16; d++)
    for (int r = 0; r < 16; r++) {
      begin(), enc_mov_rr(&cb, 32, d, r);
      expect("mov %s,%s", reg_name(r, 32), reg_name(d, 32));
      if (d == r) continue; /* a 64-bit move to itself is no instruction */
      begin(), enc_mov_rr(&cb, 64, d, r);
      expect("mov %s,%s", reg_name(r, 64), reg_name(d, 64));
    }
  static const uint64_t movimms[] = {0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull, 0xffffffff80000000ull,
                                     ~0ull, 0x123456789abcdef0ull, 0x8000000000000000ull};
  for (int d = 0; d < 16; d++)
    for (unsigned i = 0; i < sizeof movimms / sizeof movimms[0]; i++) {
      uint64_t v = movimms[i];
      begin(), enc_mov_ri(&cb, d, v);
      if (v <= 0xffffffffull) expect("mov $0x%llx,%s", (unsigned long long)v, reg_name(d, 32));
      else if (fits32((int64_t)v)) expect("mov $0x%llx,%s", (unsigned long long)v, reg_name(d, 64));
      else expect("movabs $0x%llx,%s", (unsigned long long)v, reg_name(d, 64));
    }
  for (int s = 0; s < 4; s++)
    for (int k = 0; k < nmems; k += 2) {
      int size = sizes[s];
      int64_t imm = imms[k % NIMMS];
      if (size == 8) imm = (int8_t)imm;
      if (size == 16) imm = (int16_t)imm;
      begin(), enc_mov_mi(&cb, size, mems[k], imm);
      expect("mov%c %s,%s", suffix(size), imm_text(imm, size), mem_text(mems[k]));
    }
}

static void sweep_loads_stores(void) {
  for (int k = 0; k < nmems; k++)
    for (int s = 0; s < 4; s++) {
      int size = sizes[s], r = (k + s) % 16;
      Operand m = mems[k];
      begin(), enc_load(&cb, size, r, m);
      if (size <= 16) expect("movz%cl %s,%s", suffix(size), mem_text(m), reg_name(r, 32));
      else expect("mov %s,%s", mem_text(m), reg_name(r, size));
      begin(), enc_store(&cb, size, m, r);
      expect("mov %s,%s", reg_name(r, size), mem_text(m));
      begin(), enc_lea(&cb, size == 64 ? 64 : 32, r, m);
      expect("lea %s,%s", mem_text(m), reg_name(r, size == 64 ? 64 : 32));
    }
  for (int d = 0; d < 16; d++)
    for (int r = 0; r < 16; r++) {
      for (int from = 8; from <= 16; from += 8) {
        begin(), enc_movzx(&cb, d, from, reg_op(r));
        expect("movz%cl %s,%s", suffix(from), reg_name(r, from), reg_name(d, 32));
        for (int to = 32; to <= 64; to += 32) {
          begin(), enc_movsx(&cb, to, d, from, reg_op(r));
          expect("movs%c%c %s,%s", suffix(from), suffix(to), reg_name(r, from), reg_name(d, to));
        }
      }
      begin(), enc_movsx(&cb, 64, d, 32, reg_op(r));
      expect("movslq %s,%s", reg_name(r, 32), reg_name(d, 64));
    }
  for (int k = 0; k < nmems; k += 3) {
    int d = k % 16;
    begin(), enc_movsx(&cb, 64, d, 32, mems[k]);
    expect("movslq %s,%s", mem_text(mems[k]), reg_name(d, 64));
    begin(), enc_movsx(&cb, 32, d, 8, mems[k]);
    expect("movsbl %s,%s", mem_text(mems[k]), reg_name(d, 32));
    begin(), enc_movsx(&cb, 64, d, 16, mems[k]);
    expect("movswq %s,%s", mem_text(mems[k]), reg_name(d, 64));
  }
}

static void sweep_arith(void) {
  for (int d = 0; d < 16; d++)
    for (int r = 0; r < 16; r += 3)
      for (int size = 32; size <= 64; size += 32) {
        begin(), enc_imul_rr(&cb, size, d, r);
        expect("imul %s,%s", reg_name(r, size), reg_name(d, size));
        int32_t imm = (int32_t)imms[(d + r) % NIMMS];
        begin(), enc_imul_rri(&cb, size, d, r, imm);
        expect("imul %s,%s,%s", imm_text(imm, size), reg_name(r, size), reg_name(d, size));
        begin(), enc_test_rr(&cb, size, d, r);
        expect("test %s,%s", reg_name(r, size), reg_name(d, size));
      }
  static const struct {
    int digit;
    const char *name;
  } unaries[] = {{UNARY_NOT, "not"}, {UNARY_NEG, "neg"}, {UNARY_DIV, "div"}, {UNARY_IDIV, "idiv"}},
    shifts[] = {{SHIFT_SHL, "shl"}, {SHIFT_SHR, "shr"}, {SHIFT_SAR, "sar"}};
  for (int r = 0; r < 16; r++)
    for (int size = 32; size <= 64; size += 32) {
      for (int u = 0; u < 4; u++) {
        begin(), enc_unary(&cb, size, unaries[u].digit, r);
        expect("%s %s", unaries[u].name, reg_name(r, size));
      }
      for (int s = 0; s < 3; s++) {
        begin(), enc_shift_cl(&cb, size, shifts[s].digit, r);
        expect("%s %%cl,%s", shifts[s].name, reg_name(r, size));
        unsigned amt = (unsigned)(r * 5 + s) % (unsigned)size;
        if (!amt) amt = 1;
        begin(), enc_shift_ri(&cb, size, shifts[s].digit, r, amt);
        expect("%s $0x%x,%s", shifts[s].name, amt, reg_name(r, size));
      }
      begin(), enc_xchg_rr(&cb, r, (r + 3) % 16);
      expect("xchg %s,%s", reg_name((r + 3) % 16, 64), reg_name(r, 64));
    }
  begin(), enc_sign_extend_rax(&cb, 32);
  expect("cltd");
  begin(), enc_sign_extend_rax(&cb, 64);
  expect("cqto");
}

static void sweep_conditions(void) {
  for (int cc = 0; cc < 16; cc++)
    for (int r = 0; r < 16; r++) {
      begin(), enc_setcc(&cb, cc, r);
      expect("set%s %s", cc_name[cc], reg_name(r, 8));
      for (int size = 32; size <= 64; size += 32) {
        begin(), enc_cmov(&cb, size, cc, r, (r + 7) % 16);
        expect("cmov%s %s,%s", cc_name[cc], reg_name((r + 7) % 16, size), reg_name(r, size));
      }
    }
  for (int cc = 0; cc < 16; cc++) {
    begin(), enc_jcc(&cb, cc);
    expect("j%s 0x%x", cc_name[cc], start + 6);
  }
  begin(), enc_jmp(&cb);
  expect("jmp 0x%x", start + 5);
}

static void sweep_control(void) {
  for (int r = 0; r < 16; r++) {
    begin(), enc_push(&cb, r);
    expect("push %s", reg_name(r, 64));
    begin(), enc_pop(&cb, r);
    expect("pop %s", reg_name(r, 64));
    begin(), enc_call_reg(&cb, r);
    expect("call *%s", reg_name(r, 64));
    begin(), enc_jmp_reg(&cb, r);
    expect("jmp *%s", reg_name(r, 64));
  }
  for (int k = 0; k < nmems; k += 4) {
    begin(), enc_jmp_mem(&cb, mems[k]);
    expect("jmp *%s", mem_text(mems[k]));
  }
  begin(), enc_ret(&cb);
  expect("ret");
  begin(), enc_mfence(&cb);
  expect("mfence");
  begin(), enc_ud2(&cb);
  expect("ud2");
}

/* ---- objdump ---------------------------------------------------------------------- */

/* whitespace runs to one space, none at the ends */
static void squeeze(char *s) {
  char *o = s;
  for (char *p = s; *p; p++) {
    if (isspace((unsigned char)*p)) {
      if (o != s && o[-1] != ' ') *o++ = ' ';
    } else {
      *o++ = *p;
    }
  }
  while (o != s && o[-1] == ' ') o--;
  *o = 0;
}

static int compare(FILE *dis) {
  char line[512];
  size_t k = 0;
  int bad = 0;
  while (fgets(line, sizeof line, dis)) {
    /* "   1a:\t48 01 c8             \tadd    %rcx,%rax"; a long instruction's
     * further bytes come on lines without the third field */
    char *colon = strchr(line, ':');
    if (!colon || line[0] != ' ' || colon[1] != '\t') continue;
    char *text = strchr(colon + 2, '\t');
    if (!text) continue;
    unsigned long off = strtoul(line, NULL, 16);
    squeeze(++text);
    if (k >= nwant) {
      if (bad++ < 20) printf("objdump has more at 0x%lx: %s\n", off, text);
      continue;
    }
    const Expect *e = &want[k++];
    if (off != e->off || strcmp(text, e->text)) {
      if (bad++ < 20) {
        printf("at 0x%x (%u bytes:", e->off, e->len);
        for (uint32_t i = 0; i < e->len; i++) printf(" %02x", cb.bytes[e->off + i]);
        printf("): expected '%s', objdump at 0x%lx says '%s'\n", e->text, off, text);
      }
      if (off != e->off) return bad; /* out of step: the rest would differ too */
    }
  }
  if (k < nwant) {
    printf("objdump stopped after %zu of %zu instructions\n", k, nwant);
    bad++;
  }
  return bad;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_encode FILE\n");
    return 2;
  }
  nmems = mem_operands(mems);
  sweep_alu();
  sweep_moves();
  sweep_loads_stores();
  sweep_arith();
  sweep_conditions();
  sweep_control();
  if (cb.oom) return 2;
  FILE *fp = fopen(argv[1], "wb");
  if (!fp || fwrite(cb.bytes, 1, cb.n, fp) != cb.n || fclose(fp)) {
    fprintf(stderr, "test_encode: cannot write %s\n", argv[1]);
    return 2;
  }
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "objdump -D -b binary -mi386:x86-64 '%s'", argv[1]);
  FILE *dis = popen(cmd, "r");
  if (!dis) {
    fprintf(stderr, "test_encode: cannot run objdump\n");
    return 2;
  }
  int bad = compare(dis);
  if (pclose(dis) != 0) {
    printf("objdump failed\n");
    bad++;
  }
  printf("encoder vs objdump: %zu instructions, %zu bytes, %d mismatches\n", nwant, cb.n, bad);
  return bad ? 1 : 0;
}
