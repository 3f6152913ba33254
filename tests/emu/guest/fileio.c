/* tests/emu/guest/fileio.c — file system calls: open/write/lseek/read,
 * fstat/stat sizes, rename, directories, unlink, dup and pipes. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc < 2) return 2;
  char dir[512], a[600], b[600];
  snprintf(dir, sizeof dir, "%s/d", argv[1]);
  if (mkdir(dir, 0755) != 0) { perror("mkdir"); return 1; }
  snprintf(a, sizeof a, "%s/a.txt", dir);
  snprintf(b, sizeof b, "%s/b.txt", dir);
  int fd = open(a, O_CREAT | O_RDWR | O_TRUNC, 0644);
  const char *msg = "line one\nline two\n";
  printf("write=%zd\n", write(fd, msg, strlen(msg)));
  printf("lseek=%ld\n", (long)lseek(fd, 5, SEEK_SET));
  char buf[64] = {0};
  printf("read=%zd [%s]\n", read(fd, buf, sizeof buf - 1), buf);
  struct stat st;
  fstat(fd, &st);
  printf("fstat size=%ld reg=%d\n", (long)st.st_size, S_ISREG(st.st_mode));
  close(fd);
  printf("rename=%d\n", rename(a, b));
  printf("stat old=%d new=%d\n", stat(a, &st), stat(b, &st));
  printf("size=%ld mode=%o\n", (long)st.st_size, st.st_mode & 0777);
  FILE *f = fopen(b, "r");
  char line[64];
  while (fgets(line, sizeof line, f)) printf("got: %s", line);
  fclose(f);
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) n += strcmp(e->d_name, "b.txt") == 0;
  closedir(d);
  printf("found b.txt %d\n", n);
  int p[2];
  pipe(p);
  int p2 = dup(p[1]);
  write(p2, "pipe!", 5);
  close(p2);
  close(p[1]);
  memset(buf, 0, sizeof buf);
  printf("pipe read=%zd [%s]\n", read(p[0], buf, sizeof buf), buf);
  printf("open missing=%d\n", open("/nonexistent/kit", O_RDONLY));
  printf("unlink=%d rmdir=%d\n", unlink(b), rmdir(dir));
  char cwd[512];
  printf("getcwd=%s\n", getcwd(cwd, sizeof cwd) ? "ok" : "fail");
  return 0;
}
