/* hook-stamp FILE: the hook every plug benchmark starts. Appends the CLOCK_MONOTONIC time
 * at which it began, in nanoseconds, as one line to FILE (the harness's FIFO), and exits. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  if (argc < 2) return 64;
  char line[32];
  int n = snprintf(line, sizeof line, "%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
  int fd = open(argv[1], O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return 1;
  ssize_t written = write(fd, line, (size_t)n);
  close(fd);
  return written == n ? 0 : 1;
}
