/* emu/tools/gdb/dbg.c — kit-emu --dbg: a small debugger for people without
 * gdb-multiarch, on the same engine as -g. It is a client of the gdb stub
 * (tool.c) over a socket pair: a thread of kit-emu reads commands (-ex, then
 * stdin unless -batch), speaks the remote protocol to the stub, and prints
 * what gdb would print for the subset it has: break FUNC|FILE:LINE|*ADDR,
 * run/continue, step/next/stepi, finish, bt, print $REG or a global, x/,
 * watch, info registers/breakpoints, delete, list, kill. Frames come from a
 * RISC-V prologue analysis (where the function saved ra and s0, how far it
 * moved sp), lines from the guest's DWARF (kit_emu_symbolize and
 * emu/tools/debuginfo). docs/gdb.md, "kit-emu --dbg". */
#define _GNU_SOURCE
#include <ctype.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../tools.h"
#include "dbg_locals.h"
#include "debuginfo.h"
#include "gdb_tool.h"

enum { MAX_POINTS = 64, REG_PC = 32, REG_SP = 2, REG_RA = 1, REG_FP = 8, REG_A0 = 10 };

typedef struct Point {
  int num;
  bool watch, temp;
  uint64_t addr, len, old;
  unsigned hits;
  char what[160];
} Point;

typedef struct Dbg {
  KitEmu *emu;
  int fd;
  FILE *out;
  char *const *cmds;
  int ncmds;
  bool batch;
  bool alive;    /* the guest process exists */
  bool done;     /* the command loop is over */
  pthread_mutex_t mu;
  pthread_cond_t cv;
  Point pts[MAX_POINTS];
  int npts, next_num, nvalues;
  uint64_t threads[256]; /* every thread seen, by Linux tid: gdb's thread N is threads[N-1] */
  int nthreads;
  uint64_t cur_tid;      /* the selected thread (registers, steps) */
  char reply[0x4100];
} Dbg;

static Dbg dbg_state;

static const char *const reg_names[] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0",
                                        "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                        "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6", "pc"};

/* ---- the remote protocol, client side --------------------------------------------------------- */

static int rd(Dbg *d) {
  unsigned char c;
  ssize_t n = read(d->fd, &c, 1);
  return n == 1 ? c : -1;
}

/* the next packet into d->reply (acknowledged); console output (O) is printed */
static const char *recv_packet(Dbg *d) {
  for (;;) {
    int c;
    while ((c = rd(d)) != '$')
      if (c < 0) return NULL;
    size_t n = 0;
    while ((c = rd(d)) >= 0 && c != '#')
      if (n + 1 < sizeof d->reply) d->reply[n++] = (char)c;
    d->reply[n] = 0;
    if (c < 0 || rd(d) < 0 || rd(d) < 0) return NULL;
    if (send(d->fd, "+", 1, MSG_NOSIGNAL) != 1) return NULL;
    if (d->reply[0] == 'O' && d->reply[1] && strcmp(d->reply, "OK")) {
      for (size_t i = 1; i + 1 < n; i += 2) {
        unsigned v;
        if (sscanf(d->reply + i, "%2x", &v) == 1) fputc((int)v, d->out);
      }
      continue;
    }
    return d->reply;
  }
}

static const char *ask(Dbg *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *ask(Dbg *d, const char *fmt, ...) {
  char body[512], frame[600];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(body, sizeof body, fmt, ap);
  va_end(ap);
  unsigned sum = 0;
  for (const char *p = body; *p; p++) sum += (unsigned char)*p;
  int n = snprintf(frame, sizeof frame, "$%s#%02x", body, sum & 0xff);
  if (send(d->fd, frame, (size_t)n, MSG_NOSIGNAL) != n) return NULL;
  int c = rd(d); /* the stub's '+' */
  if (c != '+') return NULL;
  return recv_packet(d);
}

static uint64_t le_hex(const char *hex, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes && hex[2 * i] && hex[2 * i + 1]; i++) {
    unsigned b;
    if (sscanf(hex + 2 * i, "%2x", &b) != 1) break;
    v |= (uint64_t)b << (8 * i);
  }
  return v;
}

static uint64_t reg(Dbg *d, unsigned n) {
  const char *r = ask(d, "p%x", n);
  return r && r[0] != 'E' ? le_hex(r, n >= 65 ? 4 : 8) : 0;
}

static bool mem(Dbg *d, uint64_t addr, void *buf, size_t n) {
  const char *r = ask(d, "m%" PRIx64 ",%zx", addr, n);
  if (!r || r[0] == 'E' || strlen(r) < 2 * n) return false;
  for (size_t i = 0; i < n; i++) {
    unsigned b;
    sscanf(r + 2 * i, "%2x", &b);
    ((uint8_t *)buf)[i] = (uint8_t)b;
  }
  return true;
}

/* ---- symbols, lines, frames ---------------------------------------------------------------------- */

static void print_source_line(Dbg *d, const char *file, unsigned line) {
  FILE *f = file ? fopen(file, "r") : NULL;
  char buf[1024];
  unsigned n = 0;
  while (f && fgets(buf, sizeof buf, f))
    if (++n == line) {
      fprintf(d->out, "%u\t%s", line, buf);
      fclose(f);
      return;
    }
  if (f) fclose(f);
  fprintf(d->out, "%u\tin %s\n", line, file ? file : "??");
}

/* Is the file:line the symbolizer gives for pc (in s) the function's own?
 * For code outside every compilation unit (libc's, in a static program) it
 * answers the last line before, of another function: the line must have
 * code inside the function. Remembered per function. */
static bool lines_real(Dbg *d, KitEmuSymbol *s, uint64_t pc) {
  static struct {
    uint64_t start;
    bool real;
  } memo[64];
  const char *exe = kit_emu_exe_path(d->emu);
  if (!s->file || !s->function || !exe || !s->module || strcmp(s->module, exe)) return s->file != NULL;
  uint64_t start = pc - s->offset;
  unsigned slot = (unsigned)(start >> 1) % 64;
  if (memo[slot].start != start) {
    uint64_t addr = 0, size = 0, at[16];
    uint32_t found = 0;
    bool real = kit_debuginfo_symbol(exe, s->function, &addr, &size) < 0 || !size;
    long n = real ? 0 : kit_debuginfo_line_addrs(exe, s->file, s->line, at, 16, &found);
    for (long i = 0; i < n; i++) real |= at[i] >= addr && at[i] < addr + size;
    memo[slot].start = start, memo[slot].real = real;
  }
  if (!memo[slot].real) s->file = NULL, s->line = 0;
  return memo[slot].real;
}

typedef struct Frame {
  uint64_t pc, sp, fp;
} Frame;
static bool unwind(Dbg *d, const Frame *f, bool innermost, Frame *caller);
static Frame current(Dbg *d);

/* a variable's value as gdb prints it, from its bytes */
static void format_var(const KitDbgVar *v, const uint8_t *b, char *out, size_t cap) {
  uint64_t u = 0;
  memcpy(&u, b, v->size <= 8 ? v->size : 8);
  int64_t i = v->size == 1 ? (int8_t)u : v->size == 2 ? (int16_t)u : v->size == 4 ? (int32_t)u : (int64_t)u;
  if (v->kind == 'i') snprintf(out, cap, "%" PRId64, i);
  else if (v->kind == 'u') snprintf(out, cap, "%" PRIu64, u);
  else if (v->kind == 'c') snprintf(out, cap, isprint((int)(u & 0xff)) ? "%" PRId64 " '%c'" : "%" PRId64 " '\\%03o'", i, (int)(u & 0xff));
  else if (v->kind == 'p') snprintf(out, cap, "0x%" PRIx64, u);
  else if (v->kind == 'f' && v->size == 4) {
    float f;
    memcpy(&f, b, 4);
    snprintf(out, cap, "%.9g", f);
  } else if (v->kind == 'f' && v->size == 8) {
    double f;
    memcpy(&f, b, 8);
    snprintf(out, cap, "%.17g", f);
  } else snprintf(out, cap, "{...}");
}

/* the variables in scope at frame f (pc and the CFA, its sp at entry) */
static long frame_vars(Dbg *d, const Frame *f, bool innermost, KitDbgVar *vars, size_t cap, uint64_t *cfa) {
  Frame caller;
  if (!unwind(d, f, innermost, &caller)) return 0;
  *cfa = caller.sp; /* the caller's sp: the frame's CFA, gcc's frame base */
  return kit_dbg_vars(kit_emu_exe_path(d->emu), f->pc - kit_emu_exe_bias(d->emu), vars, cap);
}

static bool var_value(Dbg *d, const KitDbgVar *v, uint64_t cfa, char *out, size_t cap) {
  uint8_t b[8];
  if (!v->has_loc) return snprintf(out, cap, "<optimized out>"), true;
  if (v->kind == 'a' || v->kind == '?') return snprintf(out, cap, "{...}"), true;
  if (!v->size || v->size > 8 || !mem(d, cfa + (uint64_t)v->fb_off, b, v->size)) return false;
  format_var(v, b, out, cap);
  return true;
}

/* "p=0x3ffffef3f8, n=3" for frame f */
static void frame_args(Dbg *d, const Frame *f, bool innermost, char *out, size_t cap) {
  KitDbgVar vars[32];
  uint64_t cfa = 0;
  long n = frame_vars(d, f, innermost, vars, 32, &cfa);
  size_t at = 0;
  out[0] = 0;
  for (long i = 0; i < n && at < cap; i++) {
    if (!vars[i].param) continue;
    char val[96];
    if (!var_value(d, &vars[i], cfa, val, sizeof val)) snprintf(val, sizeof val, "<error>");
    at += (size_t)snprintf(out + at, cap - at, "%s%s=%s", at ? ", " : "", vars[i].name, val);
  }
}

static void print_frame_of(Dbg *d, const Frame *f, bool innermost, bool with_pc, bool source);

/* "main () at guest.c:44" or "0x... in printf ()", for the frame at pc (its
 * arguments when it is the innermost frame) */
static void print_frame(Dbg *d, uint64_t pc, bool with_pc, bool source) {
  Frame f = current(d);
  if (f.pc == pc) {
    print_frame_of(d, &f, true, with_pc, source);
    return;
  }
  Frame none = {pc, 0, 0};
  print_frame_of(d, &none, false, with_pc, source);
}

static void print_frame_of(Dbg *d, const Frame *fr, bool innermost, bool with_pc, bool source) {
  uint64_t pc = fr->pc;
  KitEmuSymbol s = {0};
  kit_emu_symbolize(d->emu, pc, &s);
  lines_real(d, &s, pc);
  char args[512] = "";
  if (s.file && fr->sp) frame_args(d, fr, innermost, args, sizeof args);
  kit_emu_symbolize(d->emu, pc, &s); /* its strings live until the next call */
  lines_real(d, &s, pc);
  if (with_pc || !s.file) fprintf(d->out, "0x%016" PRIx64 " in ", pc);
  fprintf(d->out, "%s (%s)", s.function ? s.function : "??", args);
  if (s.file) fprintf(d->out, " at %s:%u", s.file, s.line);
  else if (s.module) fprintf(d->out, " from %s", s.module);
  fputc('\n', d->out);
  if (source && s.file) print_source_line(d, s.file, s.line);
}

/* A RISC-V frame by prologue analysis: from the function's start to pc,
 * `addi sp,sp,-N` (or c.addi16sp) and the stores of ra and s0 relative to
 * sp; the caller's pc, sp and s0 from them. false at the outermost frame. */

static bool unwind(Dbg *d, const Frame *f, bool innermost, Frame *caller) {
  KitEmuSymbol s = {0};
  if (kit_emu_symbolize(d->emu, f->pc, &s) < 0 || !s.function) return false;
  uint64_t start = f->pc - s.offset;
  int64_t frame = 0, ra_off = -1, fp_off = -1;
  for (uint64_t at = start; at < f->pc && at < start + 256;) {
    uint16_t h;
    if (!mem(d, at, &h, 2)) return false;
    if ((h & 3) != 3) { /* compressed */
      unsigned f3 = h >> 13, op = h & 3, rd = (h >> 7) & 31;
      if (op == 1 && f3 == 3 && rd == 2) { /* c.addi16sp */
        int64_t imm = ((h >> 12) & 1) << 9 | ((h >> 6) & 1) << 4 | ((h >> 5) & 1) << 6 | ((h >> 3) & 3) << 7 |
                      ((h >> 2) & 1) << 5;
        if (imm & 0x200) imm -= 0x400;
        if (imm < 0) frame = -imm;
      } else if (op == 1 && f3 == 0 && rd == 2) { /* c.addi sp */
        int64_t imm = ((h >> 12) & 1) << 5 | ((h >> 2) & 31);
        if (imm & 0x20) imm -= 0x40;
        if (imm < 0) frame = -imm;
      } else if (op == 2 && f3 == 7) { /* c.sdsp */
        unsigned rs2 = (h >> 2) & 31;
        int64_t off = ((h >> 10) & 7) << 3 | ((h >> 7) & 7) << 6;
        if (rs2 == 1) ra_off = off;
        if (rs2 == 8) fp_off = off;
      }
      at += 2;
      continue;
    }
    uint32_t w;
    if (!mem(d, at, &w, 4)) return false;
    unsigned opc = w & 0x7f, rd = (w >> 7) & 31, f3 = (w >> 12) & 7, rs1 = (w >> 15) & 31, rs2 = (w >> 20) & 31;
    if (opc == 0x13 && f3 == 0 && rd == 2 && rs1 == 2 && (int32_t)w >> 20 < 0) frame = -((int32_t)w >> 20);
    if (opc == 0x23 && f3 == 3 && rs1 == 2) {
      int32_t off = (int32_t)(((w >> 25) << 5) | ((w >> 7) & 31)) << 20 >> 20;
      if (rs2 == 1) ra_off = off;
      if (rs2 == 8) fp_off = off;
    }
    at += 4;
  }
  uint64_t ra = 0, fp = f->fp;
  if (ra_off >= 0) {
    if (!mem(d, f->sp + (uint64_t)ra_off, &ra, 8)) return false;
  } else if (innermost) {
    ra = reg(d, REG_RA); /* a leaf that keeps its return address in ra */
  } else {
    return false;
  }
  if (fp_off >= 0 && !mem(d, f->sp + (uint64_t)fp_off, &fp, 8)) return false;
  if (!ra || !strcmp(s.function, "_start")) return false;
  *caller = (Frame){ra, f->sp + (uint64_t)frame, fp};
  return true;
}

static Frame current(Dbg *d) { return (Frame){reg(d, REG_PC), reg(d, REG_SP), reg(d, REG_FP)}; }

/* ---- points --------------------------------------------------------------------------------------- */

static Point *add_point(Dbg *d, bool watch, uint64_t addr, uint64_t len, const char *what, bool temp) {
  if (d->npts == MAX_POINTS) {
    fprintf(d->out, "kit-emu --dbg: at most %d breakpoints and watchpoints\n", MAX_POINTS);
    return NULL;
  }
  const char *r = ask(d, "Z%d,%" PRIx64 ",%" PRIx64, watch ? 2 : 0, addr, watch ? len : 4);
  if (!r || strcmp(r, "OK")) {
    fprintf(d->out, "Cannot insert %s at 0x%" PRIx64 ".\n", watch ? "watchpoint" : "breakpoint", addr);
    return NULL;
  }
  Point *p = &d->pts[d->npts++];
  *p = (Point){.num = temp ? 0 : ++d->next_num, .watch = watch, .temp = temp, .addr = addr, .len = len};
  snprintf(p->what, sizeof p->what, "%s", what);
  if (watch) mem(d, addr, &p->old, len > 8 ? 8 : len);
  return p;
}

static void remove_point(Dbg *d, int i) {
  Point *p = &d->pts[i];
  if (d->alive) /* the stub serves no more requests once the guest has ended */
    ask(d, "z%d,%" PRIx64 ",%" PRIx64, p->watch ? 2 : 0, p->addr, p->watch ? p->len : 4);
  d->pts[i] = d->pts[--d->npts];
}

/* an address for a location: *ADDR, FILE:LINE, FUNC; 0 with a message */
static int resolve(Dbg *d, const char *loc, uint64_t *out, size_t cap) {
  const char *exe = kit_emu_exe_path(d->emu);
  uint64_t bias = kit_emu_exe_bias(d->emu);
  if (loc[0] == '*') {
    char *end;
    out[0] = strtoull(loc + 1, &end, 0);
    if (*end || end == loc + 1) {
      fprintf(d->out, "No symbol table is loaded for '%s'.\n", loc);
      return 0;
    }
    return 1;
  }
  const char *colon = strrchr(loc, ':');
  long n;
  if (colon && isdigit((unsigned char)colon[1])) {
    char file[256];
    snprintf(file, sizeof file, "%.*s", (int)(colon - loc), loc);
    uint32_t found = 0;
    n = kit_debuginfo_line_addrs(exe, file, (uint32_t)atoi(colon + 1), out, cap, &found);
    if (n <= 0) {
      fprintf(d->out, "No line %s in file \"%s\".\n", colon + 1, file);
      return 0;
    }
  } else {
    n = kit_debuginfo_function_addrs(exe, loc, out, cap);
    if (n <= 0) { /* a function of a loaded library */
      uint64_t a = kit_emu_symbol_lookup(d->emu, NULL, loc);
      if (!a) {
        fprintf(d->out, "Function \"%s\" not defined.\n", loc);
        return 0;
      }
      out[0] = a;
      return 1;
    }
  }
  for (long i = 0; i < n; i++) out[i] += bias;
  return (int)n;
}

static void cmd_break(Dbg *d, const char *loc, bool temp) {
  uint64_t addrs[16];
  if (!*loc) {
    fprintf(d->out, "kit-emu --dbg: break takes FUNC, FILE:LINE or *ADDR\n");
    return;
  }
  int n = resolve(d, loc, addrs, 16);
  for (int i = 0; i < n; i++) {
    KitEmuSymbol s = {0};
    kit_emu_symbolize(d->emu, addrs[i], &s);
    char what[160];
    if (s.file) snprintf(what, sizeof what, "in %s at %s:%u", s.function ? s.function : "??", s.file, s.line);
    else snprintf(what, sizeof what, "<%s+%" PRIu64 ">", s.function ? s.function : "??", s.offset);
    Point *p = add_point(d, false, addrs[i], 0, what, temp);
    if (!p) return;
    if (s.file)
      fprintf(d->out, "%s %d at 0x%" PRIx64 ": file %s, line %u.\n", temp ? "Temporary breakpoint" : "Breakpoint",
              p->num, addrs[i], s.file, s.line);
    else
      fprintf(d->out, "Breakpoint %d at 0x%" PRIx64 "\n", p->num, addrs[i]);
  }
}

/* ---- values ----------------------------------------------------------------------------------------- */

static int reg_number(const char *name) {
  for (int i = 0; i < 33; i++)
    if (!strcmp(name, reg_names[i])) return i;
  if (!strcmp(name, "s0")) return REG_FP;
  if (name[0] == 'x' && isdigit((unsigned char)name[1]) && atoi(name + 1) < 32) return atoi(name + 1);
  return -1;
}

/* a data symbol of the executable (.symtab, else .dynsym): link-time address and size */
static bool elf_object(const char *path, const char *name, uint64_t *addr, uint64_t *size) {
  int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
  if (fd < 0) return false;
  elf_version(EV_CURRENT);
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  bool found = false;
  for (int pass = 0; e && !found && pass < 2; pass++) {
    for (Elf_Scn *scn = NULL; !found && (scn = elf_nextscn(e, scn));) {
      GElf_Shdr sh;
      if (!gelf_getshdr(scn, &sh) || sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB) || !sh.sh_entsize) continue;
      Elf_Data *data = elf_getdata(scn, NULL);
      for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_OBJECT || !sym.st_shndx) continue;
        const char *n = elf_strptr(e, sh.sh_link, sym.st_name);
        if (n && !strcmp(n, name)) {
          *addr = sym.st_value, *size = sym.st_size;
          found = true;
          break;
        }
      }
    }
  }
  if (e) elf_end(e);
  close(fd);
  return found;
}

/* a global's address and size */
static bool global(Dbg *d, const char *name, uint64_t *addr, uint64_t *size) {
  if (!elf_object(kit_emu_exe_path(d->emu), name, addr, size)) return false;
  *addr += kit_emu_exe_bias(d->emu);
  return true;
}

/* an address expression: 0x..., $reg, &global, global (its address, for x) */
static bool address(Dbg *d, const char *e, uint64_t *out) {
  while (*e == ' ') e++;
  if (*e == '$') {
    int r = reg_number(e + 1);
    if (r < 0) return false;
    *out = reg(d, (unsigned)r);
    return true;
  }
  if (*e == '&') e++;
  char *end;
  uint64_t v = strtoull(e, &end, 0);
  if (end != e && !*end) {
    *out = v;
    return true;
  }
  uint64_t size;
  return global(d, e, out, &size);
}

static void cmd_print(Dbg *d, const char *e) {
  bool hex = false;
  if (!strncmp(e, "/x", 2)) hex = true, e += 2;
  while (*e == ' ') e++;
  if (!*e) {
    fprintf(d->out, "kit-emu --dbg: print takes $REG or a global\n");
    return;
  }
  if (*e == '$') {
    int r = reg_number(e + 1);
    if (r < 0) {
      fprintf(d->out, "No register \"%s\".\n", e + 1);
      return;
    }
    uint64_t v = reg(d, (unsigned)r);
    if (hex || r == REG_PC || r == REG_SP || r == REG_RA)
      fprintf(d->out, "$%d = 0x%" PRIx64 "\n", ++d->nvalues, v);
    else
      fprintf(d->out, "$%d = %" PRId64 "\n", ++d->nvalues, (int64_t)v);
    return;
  }
  KitDbgVar vars[64];
  uint64_t cfa = 0;
  Frame f0 = current(d);
  long nv = frame_vars(d, &f0, true, vars, 64, &cfa);
  const KitDbgVar *best = NULL;
  for (long i = 0; i < nv; i++) /* the innermost scope's */
    if (!strcmp(vars[i].name, e) && (!best || vars[i].depth >= best->depth)) best = &vars[i];
  if (best) {
    char val[128];
    if (!var_value(d, best, cfa, val, sizeof val)) fprintf(d->out, "Cannot access memory for \"%s\"\n", e);
    else fprintf(d->out, "$%d = %s\n", ++d->nvalues, val);
    return;
  }
  uint64_t addr, size;
  if (!global(d, e, &addr, &size)) {
    fprintf(d->out, "No symbol \"%s\" in current context.\n", e);
    return;
  }
  uint8_t buf[64];
  size_t n = size > sizeof buf ? sizeof buf : size ? size : 8;
  if (!mem(d, addr, buf, n)) {
    fprintf(d->out, "Cannot access memory at address 0x%" PRIx64 "\n", addr);
    return;
  }
  fprintf(d->out, "$%d = ", ++d->nvalues);
  if (n == 1 || n == 2 || n == 4 || n == 8) {
    uint64_t v = 0;
    memcpy(&v, buf, n);
    int64_t sv = n == 8 ? (int64_t)v : n == 4 ? (int32_t)v : n == 2 ? (int16_t)v : (int8_t)v;
    if (hex) fprintf(d->out, "0x%" PRIx64 "\n", v);
    else fprintf(d->out, "%" PRId64 "\n", sv);
  } else { /* an array or a struct, without its type: longs, else ints, else bytes */
    size_t unit = n % 8 == 0 ? 8 : n % 4 == 0 ? 4 : 1;
    fputc('{', d->out);
    for (size_t i = 0; i < n; i += unit) {
      uint64_t v = 0;
      memcpy(&v, buf + i, unit);
      if (unit == 1) fprintf(d->out, "%s0x%02x", i ? ", " : "", (unsigned)v);
      else fprintf(d->out, "%s%" PRId64, i ? ", " : "", unit == 8 ? (int64_t)v : (int32_t)v);
    }
    fprintf(d->out, "%s}\n", n < size ? "..." : "");
  }
}

/* x/NFU ADDR: F x or d, U b h w g */
static void cmd_examine(Dbg *d, const char *arg) {
  unsigned count = 1, unit = 4;
  char fmt = 'x';
  if (*arg == '/') {
    arg++;
    if (isdigit((unsigned char)*arg)) count = (unsigned)strtoul(arg, (char **)&arg, 10);
    for (; *arg && *arg != ' '; arg++) {
      if (*arg == 'x' || *arg == 'd' || *arg == 'u') fmt = *arg;
      else if (*arg == 'b') unit = 1;
      else if (*arg == 'h') unit = 2;
      else if (*arg == 'w') unit = 4;
      else if (*arg == 'g') unit = 8;
    }
  }
  uint64_t addr;
  while (*arg == ' ') arg++;
  if (!address(d, arg, &addr)) {
    fprintf(d->out, "No symbol \"%s\" in current context.\n", arg);
    return;
  }
  if (count > 256) count = 256;
  unsigned per_line = unit == 8 ? 2 : unit == 4 ? 4 : 8;
  for (unsigned i = 0; i < count; i++) {
    uint64_t a = addr + (uint64_t)i * unit, v = 0;
    if (i % per_line == 0) fprintf(d->out, "%s0x%" PRIx64 ":", i ? "\n" : "", a);
    if (!mem(d, a, &v, unit)) {
      fprintf(d->out, "\nCannot access memory at address 0x%" PRIx64 "\n", a);
      return;
    }
    if (fmt == 'x') fprintf(d->out, "\t0x%0*" PRIx64, (int)unit * 2, v);
    else if (fmt == 'u') fprintf(d->out, "\t%" PRIu64, v);
    else fprintf(d->out, "\t%" PRId64, unit == 8 ? (int64_t)v : unit == 4 ? (int32_t)v : unit == 2 ? (int16_t)v : (int8_t)v);
  }
  fputc('\n', d->out);
}

static void cmd_info_registers(Dbg *d, const char *which) {
  char word[64];
  for (const char *p = which; sscanf(p, "%63s", word) == 1; p = strstr(p, word) + strlen(word))
    if (reg_number(word) < 0 && strcmp(word, "fp")) {
      fprintf(d->out, "Invalid register `%s'\n", word);
      return;
    }
  for (int i = 0; i < 33; i++) {
    if (*which && !strstr(which, reg_names[i])) continue;
    if (*which) { /* a whole word of the list */
      size_t n = strlen(reg_names[i]);
      const char *p = strstr(which, reg_names[i]);
      bool word = false;
      for (; p; p = strstr(p + 1, reg_names[i]))
        if ((p == which || p[-1] == ' ') && (p[n] == 0 || p[n] == ' ')) word = true;
      if (!word) continue;
    }
    uint64_t v = reg(d, (unsigned)i);
    fprintf(d->out, "%-15s0x%-18" PRIx64 "%" PRId64 "\n", reg_names[i], v, (int64_t)v);
  }
}

/* ---- running ------------------------------------------------------------------------------------------ */

static const char *signal_text(int sig, const char **name) {
  switch (sig) {
  case 2: *name = "SIGINT"; return "Interrupt";
  case 4: *name = "SIGILL"; return "Illegal instruction";
  case 5: *name = "SIGTRAP"; return "Trace/breakpoint trap";
  case 6: *name = "SIGABRT"; return "Aborted";
  case 8: *name = "SIGFPE"; return "Arithmetic exception";
  case 10: *name = "SIGBUS"; return "Bus error";
  case 11: *name = "SIGSEGV"; return "Segmentation fault";
  default: *name = "SIG?"; return "Unknown signal";
  }
}

typedef enum { ST_STEP, ST_BREAK, ST_WATCH, ST_SIGNAL, ST_EXITED, ST_GONE } StopWhy;

/* ---- threads ------------------------------------------------------------------------------------------ */

/* gdb's number for thread tid, numbered as first seen (0: no room) */
static int thread_num(Dbg *d, uint64_t tid, bool announce) {
  for (int i = 0; i < d->nthreads; i++)
    if (d->threads[i] == tid) return i + 1;
  if (d->nthreads == (int)(sizeof d->threads / sizeof d->threads[0])) return 0;
  d->threads[d->nthreads++] = tid;
  if (announce && d->nthreads > 1) fprintf(d->out, "[New Thread %d.%" PRIu64 "]\n", (int)getpid(), tid);
  return d->nthreads;
}

/* the live threads (qfThreadInfo), numbering new ones; how many are live */
static int live_threads(Dbg *d, uint64_t *live, int cap, bool announce) {
  const char *r = ask(d, "qfThreadInfo");
  int n = 0;
  uint64_t got[256];
  for (const char *p = r && r[0] == 'm' ? r + 1 : ""; *p && n < 256;) {
    char *e;
    got[n++] = strtoull(p, &e, 16);
    p = *e == ',' ? e + 1 : e + strlen(e);
  }
  for (int i = 0; i < n; i++) {
    thread_num(d, got[i], announce);
    if (i < cap) live[i] = got[i];
  }
  return n < cap ? n : cap;
}

/* a stop reply's thread:TID becomes the selected thread, as in gdb */
static void stop_thread(Dbg *d, const char *reply) {
  const char *t = strstr(reply, "thread:");
  if (!t) return;
  char copy[64];
  snprintf(copy, sizeof copy, "%s", reply); /* live_threads overwrites the reply */
  uint64_t tid = strtoull(t + 7, NULL, 16), live[256];
  live_threads(d, live, 256, true);
  if (d->cur_tid && tid != d->cur_tid) fprintf(d->out, "[Switching to Thread %d.%" PRIu64 "]\n", (int)getpid(), tid);
  d->cur_tid = tid;
  ask(d, "Hg%" PRIx64, tid);
  snprintf(d->reply, sizeof d->reply, "%s", copy);
}

/* resume ("c" or "s") and wait; the reply stays in d->reply */
static StopWhy resume(Dbg *d, bool step, int *sig, uint64_t *waddr) {
  /* a step is the selected thread's; the others run meanwhile */
  const char *r = step && d->cur_tid ? ask(d, "vCont;s:%" PRIx64 ";c", d->cur_tid) : ask(d, step ? "vCont;s" : "vCont;c");
  if (!r) return ST_GONE;
  if (r[0] == 'W' || r[0] == 'X') {
    d->alive = false;
    return ST_EXITED;
  }
  stop_thread(d, r);
  r = d->reply;
  unsigned s = 0;
  sscanf(r + 1, "%2x", &s);
  *sig = (int)s;
  const char *w = strstr(r, "watch:");
  if (w) {
    *waddr = strtoull(w + 6, NULL, 16);
    return ST_WATCH;
  }
  if (strstr(r, "swbreak:")) return ST_BREAK;
  return s == 5 && step ? ST_STEP : s == 5 ? ST_BREAK : ST_SIGNAL;
}

static void report_exit(Dbg *d) {
  unsigned v = 0;
  sscanf(d->reply + 1, "%x", &v);
  if (d->reply[0] == 'W') {
    if (v) fprintf(d->out, "[Inferior 1 (process %d) exited with code 0%o]\n", (int)getpid(), v);
    else fprintf(d->out, "[Inferior 1 (process %d) exited normally]\n", (int)getpid());
  } else {
    const char *name, *text = signal_text((int)v, &name);
    fprintf(d->out, "\nProgram terminated with signal %s, %s.\nThe program no longer exists.\n", name, text);
  }
}

/* the point a stop at pc or for watch address w is for (-1: none) */
static int point_at(Dbg *d, uint64_t pc, bool watch, uint64_t w) {
  for (int i = 0; i < d->npts; i++)
    if (d->pts[i].watch == watch && (watch ? w >= d->pts[i].addr && w < d->pts[i].addr + d->pts[i].len
                                           : d->pts[i].addr == pc))
      return i;
  return -1;
}

/* say why the guest stopped, as gdb does; false when it is gone */
static bool report_stop(Dbg *d, StopWhy why, int sig, uint64_t waddr) {
  if (why == ST_GONE) {
    fprintf(d->out, "kit-emu --dbg: the stub went away\n");
    d->alive = false;
    return false;
  }
  if (why == ST_EXITED) {
    report_exit(d);
    return false;
  }
  uint64_t pc = reg(d, REG_PC);
  if (why == ST_WATCH) { /* the stop is before the access: step over it, as gdb does */
    int s2 = 0;
    uint64_t w2 = 0;
    StopWhy after = resume(d, true, &s2, &w2);
    if (after != ST_STEP) return report_stop(d, after, s2, w2);
    pc = reg(d, REG_PC);
    int i = point_at(d, pc, true, waddr);
    if (i >= 0) {
      Point *p = &d->pts[i];
      uint64_t now = 0;
      size_t n = p->len > 8 ? 8 : p->len;
      mem(d, p->addr, &now, n);
      p->hits++;
      int64_t o = n == 4 ? (int32_t)p->old : (int64_t)p->old, v = n == 4 ? (int32_t)now : (int64_t)now;
      fprintf(d->out, "\nHardware watchpoint %d: %s\n\nOld value = %" PRId64 "\nNew value = %" PRId64 "\n", p->num,
              p->what, o, v);
      p->old = now;
    }
    KitEmuSymbol s = {0};
    kit_emu_symbolize(d->emu, pc, &s);
    print_frame(d, pc, s.file && !s.line, true);
    return true;
  }
  if (why == ST_BREAK) {
    int i = point_at(d, pc, false, 0);
    if (i >= 0 && d->pts[i].temp) {
      remove_point(d, i);
      return true;
    }
    if (i >= 0) {
      d->pts[i].hits++;
      if (d->nthreads > 1) fprintf(d->out, "\nThread %d hit Breakpoint %d, ", thread_num(d, d->cur_tid, false), d->pts[i].num);
      else fprintf(d->out, "\nBreakpoint %d, ", d->pts[i].num);
      print_frame(d, pc, false, true);
      return true;
    }
  }
  if (why == ST_SIGNAL || why == ST_BREAK) {
    const char *name, *text = signal_text(sig, &name);
    fprintf(d->out, "\nProgram received signal %s, %s.\n", name, text);
    print_frame(d, pc, true, true);
  }
  return true;
}

static void cmd_continue(Dbg *d) {
  int sig = 0;
  uint64_t w = 0;
  StopWhy why = resume(d, false, &sig, &w);
  report_stop(d, why, sig, w);
}

/* run to the return address of frame f (a temporary breakpoint), for finish and for next over a call */
static StopWhy run_to_return(Dbg *d, const Frame *f, int *sig, uint64_t *w) {
  Frame caller;
  if (!unwind(d, f, true, &caller)) return ST_STEP;
  for (;;) {
    if (!add_point(d, false, caller.pc, 0, "", true)) return ST_STEP;
    StopWhy why = resume(d, false, sig, w);
    int i = why == ST_BREAK ? point_at(d, reg(d, REG_PC), false, 0) : -1;
    if (i >= 0 && d->pts[i].temp) remove_point(d, i);
    else {
      for (int k = 0; k < d->npts; k++)
        if (d->pts[k].temp) remove_point(d, k--);
      if (why == ST_BREAK && i < 0) continue;
      return why == ST_BREAK && i >= 0 && !d->pts[i].temp ? ST_BREAK : why;
    }
    if (reg(d, REG_SP) >= f->sp) return ST_STEP; /* back in the caller (not in a deeper recursion) */
  }
}

/* on to addr (a temporary breakpoint): ST_STEP when there, else the other stop */
static StopWhy run_to(Dbg *d, uint64_t addr, int *sig, uint64_t *w) {
  if (!add_point(d, false, addr, 0, "", true)) return ST_GONE;
  StopWhy why = resume(d, false, sig, w);
  bool there = why == ST_BREAK && reg(d, REG_PC) == addr;
  for (int k = 0; k < d->npts; k++)
    if (d->pts[k].temp) remove_point(d, k--);
  return there ? ST_STEP : why;
}

/* step/next: instructions until the source line changes; a call is run
 * over (next, or a function without lines) or entered to past its prologue
 * (step), a return goes on to the next line of the caller */
static void cmd_step(Dbg *d, bool over) {
  enum { LIMIT = 200000 };
  Frame f0 = current(d), probe;
  KitEmuSymbol s0 = {0};
  kit_emu_symbolize(d->emu, f0.pc, &s0);
  int sig = 0;
  uint64_t w = 0;
  if (!s0.file) { /* as gdb: out of a function without lines */
    if (!unwind(d, &f0, true, &probe)) {
      fprintf(d->out, "Cannot find bounds of current function\n");
      return;
    }
    fprintf(d->out, "Single stepping until exit from function %s,\nwhich has no line number information.\n",
            s0.function ? s0.function : "??");
    StopWhy why = run_to_return(d, &f0, &sig, &w);
    if (why != ST_STEP) report_stop(d, why, sig, w);
    else print_frame(d, reg(d, REG_PC), true, true);
    return;
  }
  unsigned line0 = s0.line;
  char file0[512];
  snprintf(file0, sizeof file0, "%s", s0.file);
  uint64_t func0 = f0.pc - s0.offset;
  bool other_function = false;
  for (int k = 0; k < LIMIT; k++) {
    StopWhy why = resume(d, true, &sig, &w);
    if (why != ST_STEP) {
      report_stop(d, why, sig, w);
      return;
    }
    Frame f = current(d);
    KitEmuSymbol s = {0};
    kit_emu_symbolize(d->emu, f.pc, &s);
    if (s.function && s.offset == 0 && f.pc != func0) lines_real(d, &s, f.pc);
    if (s.function && s.offset == 0 && f.pc != func0) { /* a call */
      uint64_t past[4];
      long n = over || !s.file ? 0 : kit_debuginfo_function_addrs(kit_emu_exe_path(d->emu), s.function, past, 4);
      if (n <= 0) {
        why = run_to_return(d, &f, &sig, &w);
        if (why != ST_STEP) {
          report_stop(d, why, sig, w);
          return;
        }
        continue;
      }
      uint64_t to = past[0] + kit_emu_exe_bias(d->emu);
      why = to == f.pc ? ST_STEP : run_to(d, to, &sig, &w);
      if (why != ST_STEP) report_stop(d, why, sig, w);
      else print_frame(d, to, false, true);
      return;
    }
    if (!s.file) continue; /* no lines here (a PLT stub): on */
    if (f.pc - s.offset != func0) { /* returned into the caller, mid-line: on to its next line */
      other_function = true;
      func0 = f.pc - s.offset;
      line0 = s.line;
      snprintf(file0, sizeof file0, "%s", s.file);
      continue;
    }
    if (s.line != line0 || strcmp(s.file, file0)) {
      if (other_function) print_frame(d, f.pc, false, true);
      else print_source_line(d, s.file, s.line);
      return;
    }
  }
  fprintf(d->out, "kit-emu --dbg: still on line %u after %d instructions; stopped here\n", line0, LIMIT);
}

static void cmd_finish(Dbg *d) {
  Frame f = current(d), caller;
  if (!unwind(d, &f, true, &caller)) {
    fprintf(d->out, "\"finish\" not meaningful in the outermost frame.\n");
    return;
  }
  fprintf(d->out, "Run till exit from #0  ");
  print_frame(d, f.pc, true, false);
  int sig = 0;
  uint64_t w = 0;
  StopWhy why = run_to_return(d, &f, &sig, &w);
  if (why != ST_STEP) {
    report_stop(d, why, sig, w);
    return;
  }
  print_frame(d, reg(d, REG_PC), true, true);
  fprintf(d->out, "Value returned is $%d = %" PRId64 "\n", ++d->nvalues, (int64_t)(int32_t)reg(d, REG_A0));
}

static void cmd_bt(Dbg *d) {
  Frame f = current(d);
  for (int n = 0; n < 64; n++) {
    fprintf(d->out, "#%-2d ", n);
    print_frame_of(d, &f, n == 0, n > 0, false);
    KitEmuSymbol s = {0};
    kit_emu_symbolize(d->emu, f.pc, &s);
    if (s.function && !strcmp(s.function, "main")) break; /* as gdb: no frames past main */
    Frame caller;
    if (!unwind(d, &f, n == 0, &caller)) break;
    f = caller;
  }
}

static void cmd_watch(Dbg *d, const char *e) {
  uint64_t addr, size = 8;
  if (*e == '*') {
    char *end;
    addr = strtoull(e + 1, &end, 0);
    if (end == e + 1) {
      fprintf(d->out, "kit-emu --dbg: watch takes a global or *ADDR\n");
      return;
    }
  } else if (!global(d, e, &addr, &size)) {
    fprintf(d->out, "No symbol \"%s\" in current context.\n", e);
    return;
  }
  Point *p = add_point(d, true, addr, size ? size : 8, e, false);
  if (p) fprintf(d->out, "Hardware watchpoint %d: %s\n", p->num, e);
}

static void cmd_list(Dbg *d, const char *arg) {
  KitEmuSymbol s = {0};
  uint64_t a[4];
  if (*arg && resolve(d, arg, a, 4) > 0) kit_emu_symbolize(d->emu, a[0], &s);
  else kit_emu_symbolize(d->emu, reg(d, REG_PC), &s);
  if (!s.file) {
    fprintf(d->out, "No line information here.\n");
    return;
  }
  FILE *f = fopen(s.file, "r");
  if (!f) {
    fprintf(d->out, "%u\tin %s\n", s.line, s.file);
    return;
  }
  char buf[1024];
  unsigned n = 0, from = s.line > 5 ? s.line - 5 : 1;
  while (fgets(buf, sizeof buf, f) && ++n < from + 10)
    if (n >= from) fprintf(d->out, "%u\t%s", n, buf);
  fclose(f);
}

/* info threads: every live thread with its innermost frame */
static void cmd_info_threads(Dbg *d) {
  uint64_t live[256];
  int n = live_threads(d, live, 256, true);
  fprintf(d->out, "  Id   Target Id          Frame \n");
  for (int i = 0; i < n; i++) {
    char id[64];
    snprintf(id, sizeof id, "Thread %d.%" PRIu64, (int)getpid(), live[i]);
    fprintf(d->out, "%c %-4d %-18s ", live[i] == d->cur_tid ? '*' : ' ', thread_num(d, live[i], false), id);
    ask(d, "Hg%" PRIx64, live[i]);
    print_frame(d, reg(d, REG_PC), false, false);
  }
  if (d->cur_tid) ask(d, "Hg%" PRIx64, d->cur_tid);
}

/* thread [N]: select thread N for registers, frames and steps */
static void cmd_thread(Dbg *d, const char *arg) {
  uint64_t live[256];
  int n = live_threads(d, live, 256, false);
  if (!*arg) {
    fprintf(d->out, "[Current thread is %d (Thread %d.%" PRIu64 ")]\n", thread_num(d, d->cur_tid, false), (int)getpid(),
            d->cur_tid);
    return;
  }
  char *e;
  long num = strtol(arg, &e, 10);
  bool ok = *e == 0 && num >= 1 && num <= d->nthreads;
  for (int i = 0; ok && i < n; i++)
    if (live[i] == d->threads[num - 1]) {
      d->cur_tid = live[i];
      ask(d, "Hg%" PRIx64, d->cur_tid);
      fprintf(d->out, "[Switching to thread %ld (Thread %d.%" PRIu64 ")]\n#0  ", num, (int)getpid(), d->cur_tid);
      print_frame(d, reg(d, REG_PC), false, true);
      return;
    }
  if (ok) fprintf(d->out, "Thread ID %ld has terminated.\n", num);
  else fprintf(d->out, "Invalid thread ID: %s\n", arg);
}

static void cmd_info(Dbg *d, const char *what) {
  if (!strcmp(what, "threads")) {
    cmd_info_threads(d);
  } else if (!strncmp(what, "registers", 9) || !strcmp(what, "reg")) {
    cmd_info_registers(d, what + strcspn(what, " ") + (what[strcspn(what, " ")] == ' '));
  } else if (!strncmp(what, "breakpoints", 11) || !strcmp(what, "b")) {
    if (!d->next_num || !d->npts) {
      fprintf(d->out, "No breakpoints or watchpoints.\n");
      return;
    }
    fprintf(d->out, "Num     Type           Address            What\n");
    for (int i = 0; i < d->npts; i++) {
      const Point *p = &d->pts[i];
      if (p->temp) continue;
      fprintf(d->out, "%-7d %-14s 0x%016" PRIx64 " %s\n", p->num, p->watch ? "hw watchpoint" : "breakpoint", p->addr,
              p->what);
      if (p->hits) fprintf(d->out, "\tbreakpoint already hit %u time%s\n", p->hits, p->hits == 1 ? "" : "s");
    }
  } else if (!strcmp(what, "locals") || !strcmp(what, "args")) {
    bool args = !strcmp(what, "args");
    KitDbgVar vars[64];
    uint64_t cfa = 0;
    Frame f0 = current(d);
    long n = frame_vars(d, &f0, true, vars, 64, &cfa);
    int shown = 0;
    /* as gdb: the innermost block's locals first, each block in declaration order */
    for (unsigned depth = 64; depth > 0; depth--)
      for (long i = 0; i < n; i++) {
        if (vars[i].param != args || vars[i].depth != depth) continue;
        char val[128];
        if (!var_value(d, &vars[i], cfa, val, sizeof val)) snprintf(val, sizeof val, "<error>");
        fprintf(d->out, "%s = %s\n", vars[i].name, val);
        shown++;
      }
    if (!shown) fprintf(d->out, args ? "No arguments.\n" : "No locals.\n");
  } else {
    fprintf(d->out, "kit-emu --dbg: info registers [REG...], info breakpoints, info locals, info args\n");
  }
}

/* one command; false to stop reading */
static bool command(Dbg *d, char *line) {
  while (isspace((unsigned char)*line)) line++;
  size_t n = strlen(line);
  while (n && isspace((unsigned char)line[n - 1])) line[--n] = 0;
  if (!*line || *line == '#') return true;
  char *arg = line + strcspn(line, " /");
  char verb[32];
  snprintf(verb, sizeof verb, "%.*s", (int)(arg - line), line);
  while (*arg == ' ') arg++;
  if (!strcmp(verb, "quit") || !strcmp(verb, "q")) return false;
  static const char *const verbs[] = {"run",   "r",     "continue", "c",     "step", "s",    "next", "n",
                                      "stepi", "si",    "finish",   "bt",    "backtrace", "where", "print",
                                      "p",     "x",     "info",     "watch", "list", "l",    "kill", "break",
                                      "b",     "tbreak", "delete",  "d",    "thread"};
  bool known = false;
  for (size_t i = 0; i < sizeof verbs / sizeof verbs[0]; i++) known |= !strcmp(verb, verbs[i]);
  if (!known) {
    fprintf(d->out, "Undefined command: \"%s\".  (kit-emu --dbg has: break tbreak run continue step next stepi "
                    "finish bt print x info watch delete list kill thread quit)\n", verb);
    return true;
  }
  if (!d->alive) {
    fprintf(d->out, "The program is not being run.\n");
    return true;
  }
  if (!strcmp(verb, "run") || !strcmp(verb, "r") || !strcmp(verb, "continue") || !strcmp(verb, "c")) cmd_continue(d);
  else if (!strcmp(verb, "step") || !strcmp(verb, "s")) cmd_step(d, false);
  else if (!strcmp(verb, "next") || !strcmp(verb, "n")) cmd_step(d, true);
  else if (!strcmp(verb, "stepi") || !strcmp(verb, "si")) {
    int sig = 0;
    uint64_t w = 0;
    StopWhy why = resume(d, true, &sig, &w);
    if (why == ST_STEP) {
      uint64_t pc = reg(d, REG_PC);
      KitEmuSymbol s = {0};
      kit_emu_symbolize(d->emu, pc, &s);
      if (s.file && s.line) {
        fprintf(d->out, "0x%016" PRIx64 "\t", pc);
        print_source_line(d, s.file, s.line);
      } else {
        print_frame(d, pc, true, false);
      }
    } else {
      report_stop(d, why, sig, w);
    }
  } else if (!strcmp(verb, "finish")) cmd_finish(d);
  else if (!strcmp(verb, "bt") || !strcmp(verb, "backtrace") || !strcmp(verb, "where")) cmd_bt(d);
  else if (!strcmp(verb, "print") || !strcmp(verb, "p")) cmd_print(d, arg);
  else if (!strcmp(verb, "x")) cmd_examine(d, arg);
  else if (!strcmp(verb, "info")) cmd_info(d, arg);
  else if (!strcmp(verb, "watch")) cmd_watch(d, arg);
  else if (!strcmp(verb, "list") || !strcmp(verb, "l")) cmd_list(d, arg);
  else if (!strcmp(verb, "thread")) cmd_thread(d, arg);
  else if (!strcmp(verb, "break") || !strcmp(verb, "b") || !strcmp(verb, "tbreak")) cmd_break(d, arg, !strcmp(verb, "tbreak"));
  else if (!strcmp(verb, "delete") || !strcmp(verb, "d")) {
    for (int i = 0; i < d->npts; i++)
      if (!*arg || d->pts[i].num == atoi(arg)) remove_point(d, i--);
  } else if (!strcmp(verb, "kill")) {
    ask(d, "vKill;1");
    return false;
  }
  fflush(d->out);
  return true;
}

static void *dbg_main(void *arg) {
  Dbg *d = arg;
  const char *r = ask(d, "qSupported:swbreak+");
  r = r ? ask(d, "?") : NULL;
  d->alive = r != NULL;
  if (r && strstr(r, "thread:")) {
    d->cur_tid = strtoull(strstr(r, "thread:") + 7, NULL, 16);
    thread_num(d, d->cur_tid, false);
  }
  bool go = true;
  for (int i = 0; go && i < d->ncmds; i++) go = command(d, (char *)d->cmds[i]);
  char *line = NULL;
  size_t cap = 0;
  while (go && !d->batch) {
    if (isatty(0)) {
      fputs("(kit-dbg) ", d->out);
      fflush(d->out);
    }
    if (getline(&line, &cap, stdin) < 0) break;
    go = command(d, line);
  }
  free(line);
  fflush(d->out);
  bool alive = d->alive;
  pthread_mutex_lock(&d->mu);
  d->done = true;
  pthread_cond_broadcast(&d->cv);
  pthread_mutex_unlock(&d->mu);
  if (alive) _exit(0); /* as gdb -batch, which kills the program it still debugs */
  return NULL;
}

/* at the guest's end: let the debugger print the exit and finish its commands */
static void dbg_at_exit(KitEmu *emu, int status, void *user) {
  (void)emu, (void)status;
  Dbg *d = user;
  pthread_mutex_lock(&d->mu);
  while (!d->done) pthread_cond_wait(&d->cv, &d->mu);
  pthread_mutex_unlock(&d->mu);
}

int kit_emu_tool_dbg_main(KitEmuTool *tool, char *const *cmds, int ncmds, bool batch, FILE *err) {
  Dbg *d = &dbg_state;
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
    fprintf(err, "kit-emu: --dbg: no socket pair\n");
    return -1;
  }
  *d = (Dbg){.emu = kit_emu_tool_emu(tool), .fd = sv[1], .out = stdout, .cmds = cmds, .ncmds = ncmds, .batch = batch};
  pthread_mutex_init(&d->mu, NULL);
  pthread_cond_init(&d->cv, NULL);
  if (kit_emu_tool_gdb_main_fd(tool, sv[0], err) < 0) return -1;
  /* after the stub's exit callback (which sends gdb the W): tools see exit in registration order */
  KitEmuTool *t = kit_emu_tool_register(d->emu, "dbg", KIT_EMU_TOOL_API_VERSION, err);
  if (!t) return -1;
  kit_emu_on_exit(t, dbg_at_exit, d);
  pthread_t th;
  if (pthread_create(&th, NULL, dbg_main, d) != 0) return -1;
  pthread_detach(th);
  return 0;
}
