/* tests/e2e/asm/snippets.c — GNU inline asm on x86-64: every constraint
 * kind, memory operands, clobbers, asm goto, flag outputs, named operands,
 * operand modifiers, register variables, file-scope asm and asm labels. The
 * output must be the same built by gcc, clang-16 and kitcc (run.sh). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* file-scope asm: a function written in assembly */
asm(".text\n"
    ".globl asm_triple\n"
    ".type asm_triple, @function\n"
    "asm_triple:\n"
    "\tleal (%rdi,%rdi,2), %eax\n"
    "\tret\n"
    ".size asm_triple, .-asm_triple");
int asm_triple(int);

/* an asm label renames the symbol: these are the same function */
int renamed(int) __asm__("asm_triple");
static int counter __asm__("asm_test_counter") = 5;

static int add_r(int a, int b) {
  int r;
  asm("movl %1, %0\n\taddl %2, %0" : "=&r"(r) : "r"(a), "r"(b));
  return r;
}

static long tied_plus(long x) {
  asm("addq $10, %0" : "+r"(x));
  asm("shlq $1, %0" : "=r"(x) : "0"(x));
  return x;
}

static int named(int a, int b) {
  int out;
  asm("leal (%[x],%[y],4), %[res]" : [res] "=r"(out) : [x] "r"(a), [y] "r"(b));
  return out;
}

static unsigned fixed_regs(unsigned a, unsigned b) {
  unsigned lo, hi;
  /* mul: edx:eax = eax * operand */
  asm("mull %3" : "=a"(lo), "=d"(hi) : "a"(a), "r"(b) : "cc");
  return lo ^ hi;
}

static long string_regs(const char *src, char *dst, long n) {
  long left;
  asm volatile("rep movsb" : "=c"(left), "+S"(src), "+D"(dst) : "0"(n) : "memory");
  return left;
}

static int memory_ops(int *p) {
  asm("addl $7, %0" : "+m"(*p));
  int v;
  asm("movl %1, %0" : "=r"(v) : "m"(p[1]));
  asm("incl %0" : "+rm"(v));
  asm("incl %0" : "+g"(v));
  return v;
}

static int imm_ops(int a) {
  int r = a;
  asm("addl %1, %0" : "+r"(r) : "i"(100));
  asm("addl %1, %0" : "+r"(r) : "n"(sizeof(long)));
  asm("addl $%c1, %0" : "+r"(r) : "i"(3));
  asm("imull %2, %1, %0" : "=r"(r) : "rm"(r), "K"(5));
  return r;
}

static unsigned char byte_ops(unsigned x) {
  unsigned char lo;
  asm("movb %b1, %0" : "=q"(lo) : "q"(x));
  unsigned char hi;
  asm("movb %h1, %0" : "=Q"(hi) : "Q"(x));
  return (unsigned char)(lo + hi);
}

static long mod_ops(long x) {
  long r;
  int k;
  short w;
  asm("movl %k1, %k0" : "=r"(r) : "r"(x)); /* 32-bit move zero-extends */
  asm("movl %k1, %0" : "=r"(k) : "r"(x));
  asm("movw %w1, %0" : "=r"(w) : "r"(x));
  long q;
  asm("movq %q1, %0" : "=r"(q) : "r"((long)k));
  return r + k + w + q;
}

static int flag_out(int a, int b) {
  int zf, cf;
  asm("cmpl %3, %2" : "=@ccz"(zf), "=@ccb"(cf) : "r"(a), "r"(b));
  return zf * 10 + cf;
}

static int sse_x87(double d, float f) {
  double r;
  asm("addsd %2, %0" : "=x"(r) : "0"(d), "x"((double)f));
  long double e = 2.5L, s;
  asm("fsqrt" : "=t"(s) : "0"(e));
  long double y = 3.0L, z;
  asm("fscale" : "=t"(z) : "0"(y), "u"(e)); /* 3 * 2^trunc(2.5) */
  return (int)(r * 100) + (int)(s * 1000) + (int)z;
}

static int goto_ok(int a) {
  asm goto("testl %0, %0\n\tjz %l[zero]" : : "r"(a) : "cc" : zero);
  return 1;
zero:
  return 0;
}

static int goto_numbered(int a) {
  asm goto("cmpl $5, %0\n\tjg %l1\n\tjl %l2" : : "r"(a) : "cc" : big, small);
  return 5;
big:
  return 6;
small:
  return 4;
}

__attribute__((noinline)) static int goto_out(int a) {
  int r;
  asm goto("movl %1, %0\n\taddl $1, %0\n\tjo %l[over]" : "=r"(r) : "r"(a) : "cc" : over);
  return r;
over:
  return -1;
}

static int uid_labels(int a) {
  int r = 0;
  asm("testl %1, %1\n\tjz .Lskip%=\n\tmovl $1, %0\n.Lskip%=:" : "+r"(r) : "r"(a) : "cc");
  return r;
}

static unsigned long percent_dollar(void) {
  unsigned long x;
  asm("movq $%c1, %%rax\n\tmovq %%rax, %0" : "=r"(x) : "i"(42) : "rax");
  return x;
}

static int regvar(int a) {
  register int v asm("ecx") = a;
  asm("addl %%ecx, %%ecx" : "+r"(v));
  register long w asm("r9") = 4;
  long out;
  asm("movq %%r9, %0" : "=r"(out) : "r"(w));
  return v + (int)out;
}

static int basic_asm(void) {
  asm("nop");
  __asm__ __volatile__("" ::: "memory");
  asm volatile("pause");
  return 1;
}

static int clobbers(int a) {
  int r;
  asm("movl %1, %%r12d\n\tmovl %%r12d, %%ebx\n\tmovl %%ebx, %0"
      : "=r"(r) : "r"(a) : "rbx", "r12", "cc");
  return r;
}

static int cpuid_vendor(char out[13]) {
  unsigned a, b, c, d;
  asm volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
  memcpy(out, &b, 4);
  memcpy(out + 4, &d, 4);
  memcpy(out + 8, &c, 4);
  out[12] = 0;
  return a > 0;
}

static int tsc_moves(void) {
  unsigned lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  unsigned long t1 = ((unsigned long)hi << 32) | lo;
  unsigned long long t2;
  asm volatile("rdtsc\n\tshlq $32, %%rdx\n\torq %%rdx, %%rax" : "=a"(t2) :: "rdx");
  return t2 >= t1;
}

static int pointer_ops(void) {
  static int arr[4] = {1, 2, 3, 4};
  int *p = arr, v;
  asm("movl 8(%1), %0" : "=r"(v) : "r"(p));
  int w;
  asm("movl %1, %0" : "=r"(w) : "m"(arr[3]));
  void *ap;
  asm("leaq %1, %0" : "=r"(ap) : "m"(arr[1]));
  return v * 100 + w * 10 + (ap == &arr[1]);
}

static uint64_t wide_ops(uint32_t a) {
  uint64_t r;
  asm("movl %1, %k0\n\tshlq $33, %0" : "=r"(r) : "r"(a)); /* %k0 of a 64-bit output */
  uint8_t c = 200;
  asm("addb $100, %0" : "+q"(c) :: "cc");
  return r + c;
}

static int alternatives(int a) {
  int r;
  asm("movl %1, %0" : "=r,m"(r) : "r,r"(a));
  return r;
}

struct pair { int a, b; };
static int struct_mem(struct pair *sp) {
  asm("addl $5, %0" : "+m"(*sp)); /* the first member */
  return sp->a * 100 + sp->b;
}

/* a memory operand is the asm's own access: ASan does not check it (as
 * clang), so reading a stack array's redzone through one is not reported */
static int unchecked_memory(void) {
  int a[4] = {1, 2, 3, 4}, *q = a + 3, v;
  asm volatile("movl %1, %0" : "=r"(v) : "m"(q[1]));
  (void)v;
  return a[3];
}

#ifdef BUG_ASAN
/* a direct output is stored after the asm: ASan checks that store */
static __attribute__((noinline)) int output_overflow(int i) {
  int a[4] = {0};
  asm("movl $1, %0" : "=r"(a[i]));
  return a[0];
}
#endif

int main(void) {
  char vendor[13];
  int m[2] = {10, 20};
  char dst[8] = {0};
  struct pair sp = {3, 4};
  printf("triple %d renamed %d counter %d\n", asm_triple(7), renamed(5), counter);
  printf("add_r %d tied_plus %ld named %d\n", add_r(40, 2), tied_plus(5), named(3, 4));
  printf("fixed_regs %u\n", fixed_regs(0x80000001u, 6));
  printf("string_regs %ld %s\n", string_regs("abcdef", dst, 4), dst);
  int mv = memory_ops(m);
  printf("memory_ops %d %d\n", mv, m[0]);
  printf("imm_ops %d byte_ops %u mod_ops %ld\n", imm_ops(1), byte_ops(0x1234), mod_ops(0x100000007L));
  printf("flag_out %d %d %d\n", flag_out(1, 1), flag_out(1, 2), flag_out(3, 2));
  printf("sse_x87 %d\n", sse_x87(1.25, 0.5f));
  printf("goto %d %d | %d %d %d | %d %d\n", goto_ok(0), goto_ok(3), goto_numbered(9), goto_numbered(5),
         goto_numbered(1), goto_out(41), goto_out(0x7fffffff));
  printf("uid %d %d percent %lu\n", uid_labels(0), uid_labels(2), percent_dollar());
  printf("regvar %d basic %d clobbers %d\n", regvar(21), basic_asm(), clobbers(77));
  int have = cpuid_vendor(vendor);
  printf("cpuid %d %zu tsc %d\n", have, strlen(vendor), tsc_moves());
  printf("pointer_ops %d wide_ops %llu alternatives %d\n", pointer_ops(), (unsigned long long)wide_ops(3),
         alternatives(9));
  printf("struct_mem %d unchecked_memory %d\n", struct_mem(&sp), unchecked_memory());
#ifdef BUG_ASAN
  printf("overflow %d\n", output_overflow(4));
#endif
  return 0;
}
