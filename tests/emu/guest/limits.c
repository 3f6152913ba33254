/* tests/emu/guest/limits.c — what the guest sees of RLIMIT_STACK and
 * RLIMIT_AS: getrlimit's answers, anonymous mappings of 1, 10 and 100 GB
 * (the host's overcommit and address-space limit decide, as under qemu),
 * and, with an argument, a recursion that needs ~40 MB of stack (fine with
 * `ulimit -s 65536`, SIGSEGV with 8 MB). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

static int depth(int n) {
  volatile char buf[1024];
  buf[0] = (char)n;
  return n ? depth(n - 1) + buf[0] : 0;
}

static void limit(const char *name, int res) {
  struct rlimit rl;
  getrlimit(res, &rl);
  printf("%s cur %lld max %lld\n", name, (long long)rl.rlim_cur, (long long)rl.rlim_max);
}

int main(int argc, char **argv) {
  limit("stack", RLIMIT_STACK);
  limit("as", RLIMIT_AS);
  for (long gb = 1; gb <= 100; gb *= 10)
    for (int nores = 0; nores < 2; nores++) {
      size_t n = (size_t)gb << 30;
      void *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | (nores ? MAP_NORESERVE : 0), -1, 0);
      printf("mmap %ld GB%s: %s\n", gb, nores ? " noreserve" : "", p == MAP_FAILED ? strerror(errno) : "ok");
      if (p != MAP_FAILED) {
        ((volatile char *)p)[n - 1] = 1;
        munmap(p, n);
      }
    }
  /* setting the memory limits succeeds and changes nothing (qemu-user's way:
   * they would bind the emulator's own allocations) */
  struct rlimit rl = {4 << 20, 16 << 20};
  printf("setrlimit stack: %d\n", setrlimit(RLIMIT_STACK, &rl));
  limit("stack", RLIMIT_STACK);
  rl.rlim_max = 32 << 20;
  printf("raise max: %d\n", setrlimit(RLIMIT_STACK, &rl));
  fflush(stdout);
  if (argc > 1) printf("depth %d\n", depth(atoi(argv[1])));
  return 0;
}
