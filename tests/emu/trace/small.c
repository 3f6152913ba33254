/* tests/emu/trace/small.c — a guest without libc (-nostdlib -static): calls,
 * loops, branches, stores of known values and loads, floating-point
 * arithmetic, then exit through its
 * own ecall, so its single-step pc sequence is the same under any emulator
 * (no auxv or environment walk) and gdb can stop at that last ecall. */
#define N 16
volatile unsigned long sink[N];

__attribute__((noinline)) static long fib(long n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

void _start(void) {
  long s = 0;
  for (long i = 0; i < 40; i++) {
    sink[i % N] = 0x1000 * i + 0xabc; /* the values the mem events must carry */
    s += fib(i & 7) + (long)sink[(i * 5) % N];
  }
  volatile double scale = 1.5;
  double f = (double)s * scale, g = f / 3.0 + scale; /* floating-point register writes */
  s += (long)g;
  register long a0 __asm__("a0") = s & 0x7f;
  register long a7 __asm__("a7") = 93; /* exit */
  __asm__ volatile("kit_small_exit: ecall" : : "r"(a0), "r"(a7));
  for (;;) {
  }
}
