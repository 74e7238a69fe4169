/* wl-heads FILE: the Wayland plug benchmark's reference. A wlr-output-management client that
 * does nothing but hear the compositor: at every `done` after the first (a head plugged,
 * unplugged or changed) it appends the CLOCK_MONOTONIC time in nanoseconds as one line to
 * FILE (the harness's FIFO). Prints "ready" once it has the first state. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "wlr-output-management-unstable-v1-client-protocol.h"

static const char *path;
static int dones;

static void stamp(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  char line[32];
  int n = snprintf(line, sizeof line, "%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
  int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;
  if (write(fd, line, (size_t)n) != n) perror("wl-heads: write");
  close(fd);
}

/* Heads and modes are only counted as objects: their events carry nothing needed here. */
static void h_name(void *d, struct zwlr_output_head_v1 *h, const char *s) {}
static void h_description(void *d, struct zwlr_output_head_v1 *h, const char *s) {}
static void h_physical_size(void *d, struct zwlr_output_head_v1 *h, int32_t w, int32_t hh) {}
static void m_size(void *d, struct zwlr_output_mode_v1 *m, int32_t w, int32_t h) {}
static void m_refresh(void *d, struct zwlr_output_mode_v1 *m, int32_t r) {}
static void m_preferred(void *d, struct zwlr_output_mode_v1 *m) {}
static void m_finished(void *d, struct zwlr_output_mode_v1 *m) { zwlr_output_mode_v1_destroy(m); }
static const struct zwlr_output_mode_v1_listener mode_listener = {m_size, m_refresh, m_preferred, m_finished};
static void h_mode(void *d, struct zwlr_output_head_v1 *h, struct zwlr_output_mode_v1 *m) {
  zwlr_output_mode_v1_add_listener(m, &mode_listener, NULL);
}
static void h_enabled(void *d, struct zwlr_output_head_v1 *h, int32_t e) {}
static void h_current_mode(void *d, struct zwlr_output_head_v1 *h, struct zwlr_output_mode_v1 *m) {}
static void h_position(void *d, struct zwlr_output_head_v1 *h, int32_t x, int32_t y) {}
static void h_transform(void *d, struct zwlr_output_head_v1 *h, int32_t t) {}
static void h_scale(void *d, struct zwlr_output_head_v1 *h, wl_fixed_t s) {}
static void h_finished(void *d, struct zwlr_output_head_v1 *h) { zwlr_output_head_v1_destroy(h); }
static void h_make(void *d, struct zwlr_output_head_v1 *h, const char *s) {}
static void h_model(void *d, struct zwlr_output_head_v1 *h, const char *s) {}
static void h_serial(void *d, struct zwlr_output_head_v1 *h, const char *s) {}
static const struct zwlr_output_head_v1_listener head_listener = {
    h_name,     h_description, h_physical_size, h_mode,   h_enabled, h_current_mode, h_position,
    h_transform, h_scale,      h_finished,      h_make,   h_model,   h_serial};

static void manager_head(void *d, struct zwlr_output_manager_v1 *m, struct zwlr_output_head_v1 *h) {
  zwlr_output_head_v1_add_listener(h, &head_listener, NULL);
}
static void manager_done(void *d, struct zwlr_output_manager_v1 *m, uint32_t serial) {
  if (dones++ > 0) stamp();
}
static void manager_finished(void *d, struct zwlr_output_manager_v1 *m) {}
static const struct zwlr_output_manager_v1_listener manager_listener = {manager_head, manager_done,
                                                                        manager_finished};

static struct zwlr_output_manager_v1 *manager;

static void global(void *d, struct wl_registry *r, uint32_t name, const char *iface, uint32_t version) {
  if (strcmp(iface, zwlr_output_manager_v1_interface.name) == 0)
    manager = wl_registry_bind(r, name, &zwlr_output_manager_v1_interface, version < 2 ? version : 2);
}
static void global_remove(void *d, struct wl_registry *r, uint32_t name) {}
static const struct wl_registry_listener registry_listener = {global, global_remove};

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: wl-heads FILE\n");
    return 64;
  }
  path = argv[1];
  struct wl_display *display = wl_display_connect(NULL);
  if (!display) return 1;
  wl_registry_add_listener(wl_display_get_registry(display), &registry_listener, NULL);
  wl_display_roundtrip(display);
  if (!manager) {
    fprintf(stderr, "wl-heads: no zwlr_output_manager_v1\n");
    return 1;
  }
  zwlr_output_manager_v1_add_listener(manager, &manager_listener, NULL);
  while (dones == 0)
    if (wl_display_dispatch(display) < 0) return 1;
  printf("ready\n");
  fflush(stdout);
  while (wl_display_dispatch(display) >= 0) {
  }
  return 0;
}
