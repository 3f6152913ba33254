/* bench/tools/measure.c — runs one command (optionally REPEAT times in a row)
 * and prints its wall-clock and CPU seconds (user+sys of the command and all
 * its waited-for children), its peak RSS and how it ended, on one line:
 *   wall=1.234567 cpu=1.200000 rss_kb=12345 status=exit:0
 * status is exit:N, signal:N or timeout. The command's stdout and stderr go
 * to the files given (default /dev/null); the whole process group is killed
 * on timeout, so a hung emulator or a shell pipeline cannot outlive it.
 * usage: measure [-t SECONDS] [-r REPEAT] [-o OUT] [-e ERR] [-i IN] -- cmd args... */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double tv(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec * 1e-6; }

static void redirect(const char *path, int fd, int flags) {
  int f = open(path, flags, 0644);
  if (f < 0) {
    fprintf(stderr, "measure: %s: %s\n", path, strerror(errno));
    _exit(126);
  }
  dup2(f, fd);
  close(f);
}

/* one run: 0 on normal exit (status in *st), 1 on timeout */
static int run_once(char **argv, const char *in, const char *out, const char *err, int append, double deadline,
                    int *st, struct rusage *ru) {
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  pid_t pid = fork();
  if (pid < 0) {
    perror("measure: fork");
    exit(2);
  }
  if (pid == 0) {
    setpgid(0, 0);
    sigprocmask(SIG_UNBLOCK, &chld, NULL);
    redirect(in, 0, O_RDONLY);
    redirect(out, 1, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC));
    redirect(err, 2, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC));
    execvp(argv[0], argv);
    fprintf(stderr, "measure: %s: %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid);
  for (;;) {
    pid_t r = wait4(pid, st, WNOHANG, ru);
    if (r == pid) return 0;
    double left = deadline - now();
    if (left <= 0) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      wait4(pid, st, 0, ru);
      return 1;
    }
    if (left > 0.5) left = 0.5;
    struct timespec ts = {(time_t)left, (long)((left - (double)(time_t)left) * 1e9)};
    sigtimedwait(&chld, NULL, &ts);
  }
}

int main(int argc, char **argv) {
  double timeout = 0;
  long repeat = 1;
  const char *in = "/dev/null", *out = "/dev/null", *err = "/dev/null";
  int opt;
  while ((opt = getopt(argc, argv, "+t:r:o:e:i:")) != -1) {
    switch (opt) {
    case 't': timeout = atof(optarg); break;
    case 'r': repeat = atol(optarg); break;
    case 'o': out = optarg; break;
    case 'e': err = optarg; break;
    case 'i': in = optarg; break;
    default:
      fprintf(stderr, "usage: measure [-t SECONDS] [-r REPEAT] [-o OUT] [-e ERR] [-i IN] -- cmd args...\n");
      return 2;
    }
  }
  if (optind >= argc || repeat < 1) {
    fprintf(stderr, "measure: no command\n");
    return 2;
  }
  sigset_t chld;
  sigemptyset(&chld);
  sigaddset(&chld, SIGCHLD);
  sigprocmask(SIG_BLOCK, &chld, NULL);

  double start = now(), deadline = timeout > 0 ? start + timeout : 1e300, cpu = 0;
  long max_rss = 0;
  char status[64] = "exit:0";
  for (long i = 0; i < repeat; i++) {
    int st = 0;
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    int timed_out = run_once(argv + optind, in, out, err, i > 0, deadline, &st, &ru);
    cpu += tv(ru.ru_utime) + tv(ru.ru_stime);
    if (ru.ru_maxrss > max_rss) max_rss = ru.ru_maxrss;
    if (timed_out) {
      snprintf(status, sizeof status, "timeout");
      break;
    }
    if (WIFSIGNALED(st)) {
      snprintf(status, sizeof status, "signal:%d", WTERMSIG(st));
      break;
    }
    if (WEXITSTATUS(st) != 0) {
      snprintf(status, sizeof status, "exit:%d", WEXITSTATUS(st));
      break;
    }
  }
  printf("wall=%.6f cpu=%.6f rss_kb=%ld status=%s\n", now() - start, cpu, max_rss, status);
  return 0;
}
