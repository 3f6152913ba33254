/* tests/rv64/lift/prog_mix.c — a freestanding program built by the
 * riscv64 gcc: compiler-generated code (jump tables, recursion, compressed
 * forms everywhere, 128-bit math, atomics, float) must print exactly what
 * it prints under qemu-riscv64. */
typedef unsigned long u64;
typedef long i64;

static long sys(long nr, long a, long b, long c) {
  register long a0 __asm__("a0") = a, a1 __asm__("a1") = b, a2 __asm__("a2") = c, a7 __asm__("a7") = nr;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
  return a0;
}

static char out[8192];
static unsigned outn;
static void putc_(char c) { out[outn++] = c; }
static void puts_(const char *s) { while (*s) putc_(*s++); }
static void hex(u64 v) {
  for (int i = 60; i >= 0; i -= 4) putc_("0123456789abcdef"[(v >> i) & 15]);
  putc_('\n');
}

static volatile i64 vals[] = {0, 1, -1, 7, -7, 0x7fffffffffffffffL, (i64)0x8000000000000000UL, 123456789, -2, 3};
#define NV (sizeof vals / sizeof vals[0])

__attribute__((noinline)) static u64 fib(u64 n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__attribute__((noinline)) static int classify(int k) {
  switch (k) {
  case 0: return 11;
  case 1: return 23;
  case 2: return 37;
  case 3: return 41;
  case 4: return 59;
  case 5: return 67;
  case 6: return 73;
  default: return -1;
  }
}

static void sort(i64 *a, int n) {
  for (int i = 1; i < n; i++) {
    i64 x = a[i];
    int j = i - 1;
    while (j >= 0 && a[j] > x) { a[j + 1] = a[j]; j--; }
    a[j + 1] = x;
  }
}

static u64 dbits(double d) { union { double d; u64 u; } x = {d}; return x.u; }
static unsigned fbits(float f) { union { float f; unsigned u; } x = {f}; return x.u; }

void _start(void) {
  __asm__ volatile(".option push\n.option norelax\nla gp, __global_pointer$\n.option pop");
  u64 h = 0xcbf29ce484222325UL;
  for (unsigned i = 0; i < NV; i++)
    for (unsigned j = 0; j < NV; j++) {
      i64 a = vals[i], b = vals[j];
      h = (h ^ (u64)(a * b)) * 0x100000001b3UL;
      h ^= (u64)((unsigned __int128)(u64)a * (u64)b >> 64);
      h ^= (u64)((__int128)a * (__int128)b >> 64);
      if (b != 0 && !(a == (i64)0x8000000000000000UL && b == -1)) h += (u64)(a / b) ^ (u64)(a % b);
      if (b != 0) h += ((u64)a / (u64)b) ^ ((u64)a % (u64)b);
      h ^= (u64)((int)a >> (b & 31)) + ((u64)a << (b & 63));
    }
  puts_("hash ");
  hex(h);
  puts_("fib ");
  hex(fib(20));
  int s = 0;
  for (int k = -1; k < 9; k++) s = s * 3 + classify(k);
  puts_("switch ");
  hex((u64)s);
  i64 arr[NV];
  for (unsigned i = 0; i < NV; i++) arr[i] = vals[i];
  sort(arr, NV);
  for (unsigned i = 0; i < NV; i++) hex((u64)arr[i]);
  static long counter;
  for (int i = 0; i < 10; i++) __atomic_fetch_add(&counter, i, __ATOMIC_SEQ_CST);
  long expect = 45;
  __atomic_compare_exchange_n(&counter, &expect, 1000, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  puts_("atomic ");
  hex((u64)counter);
  volatile double d = 1.0;
  double acc = 0;
  for (int i = 1; i < 50; i++) { acc += d / i; acc *= 1.0001; }
  puts_("float ");
  hex(dbits(acc));
  volatile float f = 3.0f;
  float fa = 0;
  for (int i = 1; i < 30; i++) fa = fa * 0.5f + f / (float)i;
  hex(fbits(fa));
  hex((u64)(i64)(acc * 1e6));
  hex((u64)(unsigned)(fa * 1000.0f));
  sys(64, 1, (long)out, outn);
  sys(93, 0, 0, 0);
  for (;;) {}
}
