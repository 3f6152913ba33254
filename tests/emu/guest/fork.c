/* tests/emu/guest/fork.c — fork, exit status through wait, and a signal
 * handler for SIGCHLD and SIGUSR1 sent to ourselves. */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
static volatile int usr1;
static void on_usr1(int s) { usr1 = s; }
int main(void) {
  signal(SIGUSR1, on_usr1);
  kill(getpid(), SIGUSR1);
  printf("usr1=%d\n", usr1);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    printf("child\n");
    return 7;
  }
  int st = 0;
  pid_t w = waitpid(pid, &st, 0);
  printf("parent: waited=%d exited=%d status=%d\n", w == pid, WIFEXITED(st), WEXITSTATUS(st));
  pid = fork();
  if (pid == 0) {
    raise(SIGTERM);
    return 0;
  }
  waitpid(pid, &st, 0);
  printf("second child signaled=%d sig=%d\n", WIFSIGNALED(st), WTERMSIG(st));
  return 0;
}
