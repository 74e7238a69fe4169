#ifndef CLINUX_SHIM_H
#define CLINUX_SHIM_H
/* Linux interfaces that Swift's Glibc module does not export. */
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#endif
