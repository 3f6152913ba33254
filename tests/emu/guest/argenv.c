/* tests/emu/guest/argenv.c — argv, envp and auxv reach the guest as the psABI says. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>
extern char **environ;
int main(int argc, char **argv) {
  printf("argc=%d\n", argc);
  for (int i = 1; i < argc; i++) printf("argv[%d]=%s\n", i, argv[i]);
  const char *v = getenv("KIT_EMU_TEST_VAR");
  printf("env=%s\n", v ? v : "(unset)");
  int n = 0;
  for (char **e = environ; *e; e++) n += strncmp(*e, "KIT_EMU_TEST_", 13) == 0;
  printf("test vars=%d\n", n);
  printf("pagesz=%ld\n", sysconf(_SC_PAGESIZE));
  printf("at_random=%s\n", getauxval(AT_RANDOM) ? "yes" : "no");
  printf("secure=%lu\n", getauxval(AT_SECURE));
  return argc;
}
