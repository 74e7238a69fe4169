/* wl-animate OUTPUT: the Wayland mirror benchmark's live source. A layer surface covering
 * the output named OUTPUT, filled with a new colour every frame (a full-surface wl_shm
 * fill, the worst case for a mirror), paced by the compositor's frame callbacks. Prints
 * "ready WxH" once the first frame is committed, then "frames N SECONDS" every 30 frames
 * (the count and the monotonic clock), so a reader can tell the frame rate of any span. */
#define _GNU_SOURCE
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

#include "wlr-layer-shell-unstable-v1-client-protocol.h"

struct buffer {
  struct wl_buffer *wl;
  uint32_t *pixels;
  int busy;
};

static struct wl_compositor *compositor;
static struct wl_shm *shm;
static struct zwlr_layer_shell_v1 *layers;
static struct wl_output *chosen;
static const char *wanted;
static struct wl_surface *surface;
static struct buffer buffers[2];
static uint32_t width, height;
static int configured;
static unsigned long frames;

static void output_geometry(void *d, struct wl_output *o, int32_t x, int32_t y, int32_t pw, int32_t ph, int32_t s,
                            const char *make, const char *model, int32_t t) {}
static void output_mode(void *d, struct wl_output *o, uint32_t f, int32_t w, int32_t h, int32_t r) {}
static void output_done(void *d, struct wl_output *o) {}
static void output_scale(void *d, struct wl_output *o, int32_t f) {}
static void output_name(void *d, struct wl_output *o, const char *name) {
  if (strcmp(name, wanted) == 0) chosen = o;
}
static void output_description(void *d, struct wl_output *o, const char *text) {}
static const struct wl_output_listener output_listener = {
    output_geometry, output_mode, output_done, output_scale, output_name, output_description};

static void global(void *d, struct wl_registry *r, uint32_t name, const char *iface, uint32_t version) {
  if (strcmp(iface, wl_compositor_interface.name) == 0) {
    compositor = wl_registry_bind(r, name, &wl_compositor_interface, 4);
  } else if (strcmp(iface, wl_shm_interface.name) == 0) {
    shm = wl_registry_bind(r, name, &wl_shm_interface, 1);
  } else if (strcmp(iface, zwlr_layer_shell_v1_interface.name) == 0) {
    layers = wl_registry_bind(r, name, &zwlr_layer_shell_v1_interface, 1);
  } else if (strcmp(iface, wl_output_interface.name) == 0 && version >= 4) {
    struct wl_output *o = wl_registry_bind(r, name, &wl_output_interface, 4);
    wl_output_add_listener(o, &output_listener, NULL);
  }
}
static void global_remove(void *d, struct wl_registry *r, uint32_t name) {}
static const struct wl_registry_listener registry_listener = {global, global_remove};

static void release(void *d, struct wl_buffer *b) { ((struct buffer *)d)->busy = 0; }
static const struct wl_buffer_listener buffer_listener = {release};

static int make_buffers(void) {
  size_t size = (size_t)width * height * 4;
  int fd = memfd_create("wl-animate", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, (off_t)(size * 2)) != 0) return -1;
  uint32_t *map = mmap(NULL, size * 2, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return -1;
  struct wl_shm_pool *pool = wl_shm_create_pool(shm, fd, (int32_t)(size * 2));
  for (int i = 0; i < 2; i++) {
    buffers[i].wl = wl_shm_pool_create_buffer(pool, (int32_t)(size * i), (int32_t)width, (int32_t)height,
                                              (int32_t)width * 4, WL_SHM_FORMAT_XRGB8888);
    buffers[i].pixels = map + (size / 4) * i;
    wl_buffer_add_listener(buffers[i].wl, &buffer_listener, &buffers[i]);
  }
  wl_shm_pool_destroy(pool);
  close(fd);
  return 0;
}

static void draw(void);

static void frame_done(void *d, struct wl_callback *cb, uint32_t time) {
  wl_callback_destroy(cb);
  draw();
}
static const struct wl_callback_listener frame_listener = {frame_done};

static void draw(void) {
  struct buffer *b = buffers[0].busy ? &buffers[1] : &buffers[0];
  frames++;
  uint32_t hue = (uint32_t)(frames % 256);
  uint32_t colour = hue << 16 | (255 - hue) << 8 | 0x40;
  size_t n = (size_t)width * height;
  for (size_t i = 0; i < n; i++) b->pixels[i] = colour;
  b->busy = 1;
  wl_surface_attach(surface, b->wl, 0, 0);
  wl_surface_damage_buffer(surface, 0, 0, INT32_MAX, INT32_MAX);
  wl_callback_add_listener(wl_surface_frame(surface), &frame_listener, NULL);
  wl_surface_commit(surface);
}

static void layer_configure(void *d, struct zwlr_layer_surface_v1 *s, uint32_t serial, uint32_t w, uint32_t h) {
  zwlr_layer_surface_v1_ack_configure(s, serial);
  if (configured) return;
  width = w;
  height = h;
  configured = 1;
}
static void layer_closed(void *d, struct zwlr_layer_surface_v1 *s) { exit(0); }
static const struct zwlr_layer_surface_v1_listener layer_listener = {layer_configure, layer_closed};

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: wl-animate OUTPUT\n");
    return 64;
  }
  wanted = argv[1];
  struct wl_display *display = wl_display_connect(NULL);
  if (!display) return 1;
  struct wl_registry *registry = wl_display_get_registry(display);
  wl_registry_add_listener(registry, &registry_listener, NULL);
  wl_display_roundtrip(display);
  wl_display_roundtrip(display);
  if (!compositor || !shm || !layers || !chosen) {
    fprintf(stderr, "wl-animate: no compositor, shm, layer shell or output %s\n", wanted);
    return 1;
  }
  surface = wl_compositor_create_surface(compositor);
  struct zwlr_layer_surface_v1 *layer =
      zwlr_layer_shell_v1_get_layer_surface(layers, surface, chosen, ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM, "wl-animate");
  zwlr_layer_surface_v1_add_listener(layer, &layer_listener, NULL);
  zwlr_layer_surface_v1_set_anchor(layer, 15);
  zwlr_layer_surface_v1_set_exclusive_zone(layer, -1);
  wl_surface_commit(surface);
  while (!configured)
    if (wl_display_dispatch(display) < 0) return 1;
  if (width == 0 || height == 0 || make_buffers() != 0) return 1;
  draw();
  wl_display_flush(display);
  printf("ready %ux%u\n", width, height);
  fflush(stdout);
  unsigned long reported = frames;
  for (;;) {
    if (wl_display_dispatch(display) < 0) return 0;
    if (frames - reported >= 30) {
      printf("frames %lu %.6f\n", frames, seconds());
      fflush(stdout);
      reported = frames;
    }
  }
}
