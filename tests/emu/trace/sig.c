/* tests/emu/trace/sig.c — a guest without libc that sends itself SIGUSR1
 * three times through its own system calls; the handler runs and returns
 * through the emulator's rt_sigreturn trampoline, which puts every register
 * back: a replay of regs events must follow (the whole register file at the
 * handler's entry and after rt_sigreturn), and gdb stops at the last ecall. */
enum { SYS_kill = 129, SYS_rt_sigaction = 134, SYS_getpid = 172, SYS_exit = 93, SIGUSR1 = 10 };

static long sys4(long n, long a, long b, long c, long d) {
  register long a0 __asm__("a0") = a, a1 __asm__("a1") = b, a2 __asm__("a2") = c, a3 __asm__("a3") = d;
  register long a7 __asm__("a7") = n;
  __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a3), "r"(a7) : "memory");
  return a0;
}

static volatile long got;

static void on_usr1(int sig) { got += sig * 7 + 1; }

/* the kernel's struct sigaction on riscv64: handler, flags, mask (no restorer) */
static struct { void (*handler)(int); unsigned long flags, mask; } act = {on_usr1, 0, 0};

void _start(void) {
  long s = 5;
  sys4(SYS_rt_sigaction, SIGUSR1, (long)&act, 0, 8);
  for (long i = 0; i < 3; i++) {
    s = s * 31 + i;
    sys4(SYS_kill, sys4(SYS_getpid, 0, 0, 0, 0), SIGUSR1, 0, 0);
    s ^= got;
  }
  register long a0 __asm__("a0") = s & 0x7f;
  register long a7 __asm__("a7") = SYS_exit;
  __asm__ volatile("kit_small_exit: ecall" : : "r"(a0), "r"(a7));
  for (;;) {
  }
}
