#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
/* Linux interfaces that Swift's Glibc module does not export. */
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <malloc.h>

/* pipe2 is a GNU extension glibc declares only with _GNU_SOURCE: both ends close-on-exec
   atomically, so no child spawned meanwhile by another thread inherits them. */
extern int pipe2(int pipefd[2], int flags);
static inline int cl_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
#endif
