/* randr-listen idle | randr-listen hook PROGRAM ARGS...
 *
 * The plug benchmark's references: an X client that selects RandR output-change events and,
 * for every output that becomes connected (not one already connected that changes mode), either only notes the time the event arrived
 * (`idle`: the bare cost of delivering the event to a client that does nothing) or starts
 * PROGRAM at once with posix_spawn, as a minimal srandrd-like tool does (`hook`). `idle`
 * writes one line per event to stdout: CLOCK_MONOTONIC nanoseconds. Both write "ready" first. */
#include <X11/Xlib.h>
#include <X11/extensions/Xrandr.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long long monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Outputs seen connected: an output-change event for one of them is a mode change. */
static RROutput connected[256];
static int nconnected;

/* Records the output's state; returns whether it has just become connected. */
static int became_connected(RROutput output, int is_connected) {
  for (int i = 0; i < nconnected; i++) {
    if (connected[i] != output) continue;
    if (!is_connected) connected[i] = connected[--nconnected];
    return 0;
  }
  if (is_connected && nconnected < 256) connected[nconnected++] = output;
  return is_connected;
}

int main(int argc, char **argv) {
  if (argc < 2 || (strcmp(argv[1], "idle") != 0 && (strcmp(argv[1], "hook") != 0 || argc < 3))) {
    fprintf(stderr, "usage: randr-listen idle | randr-listen hook PROGRAM ARGS...\n");
    return 64;
  }
  int idle = strcmp(argv[1], "idle") == 0;
  signal(SIGCHLD, SIG_IGN); /* hooks are reaped by the kernel */
  Display *display = XOpenDisplay(NULL);
  if (!display) return 1;
  int eventBase, errorBase;
  if (!XRRQueryExtension(display, &eventBase, &errorBase)) return 1;
  Window root = DefaultRootWindow(display);
  XRRSelectInput(display, root, RROutputChangeNotifyMask);
  XRRScreenResources *resources = XRRGetScreenResourcesCurrent(display, root);
  for (int i = 0; resources && i < resources->noutput; i++) {
    XRROutputInfo *info = XRRGetOutputInfo(display, resources, resources->outputs[i]);
    if (info) became_connected(resources->outputs[i], info->connection == RR_Connected);
    if (info) XRRFreeOutputInfo(info);
  }
  if (resources) XRRFreeScreenResources(resources);
  XSync(display, False);
  printf("ready\n");
  fflush(stdout);
  for (;;) {
    XEvent event;
    XNextEvent(display, &event);
    if (event.type != eventBase + RRNotify) continue;
    XRRNotifyEvent *notify = (XRRNotifyEvent *)&event;
    if (notify->subtype != RRNotify_OutputChange) continue;
    XRROutputChangeNotifyEvent *change = (XRROutputChangeNotifyEvent *)&event;
    if (!became_connected(change->output, change->connection == RR_Connected)) continue;
    if (idle) {
      printf("%lld\n", monotonic_ns());
      fflush(stdout);
    } else {
      pid_t pid;
      posix_spawn(&pid, argv[2], NULL, NULL, argv + 2, environ);
    }
  }
}
