#define _GNU_SOURCE
/* Without the generated headers, which this file's compilation does not wait for (see
 * CWayland.h): the interfaces it hands out are declared here instead. */
#define CW_NO_GENERATED_HEADERS
#include "CWayland.h"

#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

extern const struct wl_interface zwlr_output_manager_v1_interface;
extern const struct wl_interface zwlr_layer_shell_v1_interface;
extern const struct wl_interface wp_viewporter_interface;
extern const struct wl_interface zwlr_screencopy_manager_v1_interface;
extern const struct wl_interface zxdg_output_manager_v1_interface;

struct cw_api cw_table;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char error[512];

/* Local: the library's symbols are seen by nothing else in the process (the generated
 * interfaces of this binary are its own, hidden). */
static void load(void) {
  void *handle = dlopen("libwayland-client.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(error, sizeof error, "cannot load the Wayland client library: %s", dlerror());
    return;
  }
#define CW_RESOLVE(ret, name, params)                                                     \
  if (!(*(void **)&cw_table.name = dlsym(handle, #name))) {                               \
    snprintf(error, sizeof error, "cannot load the Wayland client library: %s is missing", #name); \
    return;                                                                               \
  }
  CW_FUNCTIONS(CW_RESOLVE)
#undef CW_RESOLVE
  loaded = 1;
}

int cw_load(void) {
  pthread_once(&once, load);
  return loaded;
}

const char *cw_load_error(void) { return loaded ? 0 : error; }

struct wl_display *cw_display_connect(const char *name) { return cw_table.wl_display_connect(name); }
void cw_display_disconnect(struct wl_display *display) { cw_table.wl_display_disconnect(display); }
int cw_display_get_fd(struct wl_display *display) { return cw_table.wl_display_get_fd(display); }
int cw_display_flush(struct wl_display *display) { return cw_table.wl_display_flush(display); }
int cw_display_get_error(struct wl_display *display) { return cw_table.wl_display_get_error(display); }

int cw_display_dispatch_ready(struct wl_display *display) {
  while (cw_table.wl_display_prepare_read(display) != 0) {
    if (cw_table.wl_display_dispatch_pending(display) < 0) return -1;
  }
  cw_table.wl_display_flush(display);
  struct pollfd p = {.fd = cw_table.wl_display_get_fd(display), .events = POLLIN};
  int n;
  do n = poll(&p, 1, 0);
  while (n < 0 && errno == EINTR);
  if (n > 0) {
    if (cw_table.wl_display_read_events(display) < 0) return -1;
  } else {
    cw_table.wl_display_cancel_read(display);
    if (n < 0) return -1;
  }
  return cw_table.wl_display_dispatch_pending(display);
}

uint32_t cw_proxy_get_version(void *proxy) { return (cw_table.wl_proxy_get_version)(proxy); }

void *cw_registry_bind(struct wl_registry *registry, uint32_t name, const struct wl_interface *interface,
                       uint32_t version) {
  return wl_registry_bind(registry, name, interface, version);
}

const struct wl_interface *cw_output_manager_interface(void) { return &zwlr_output_manager_v1_interface; }
const struct wl_interface *cw_layer_shell_interface(void) { return &zwlr_layer_shell_v1_interface; }
const struct wl_interface *cw_output_interface(void) { return &wl_output_interface; }
const struct wl_interface *cw_compositor_interface(void) { return &wl_compositor_interface; }
const struct wl_interface *cw_shm_interface(void) { return &wl_shm_interface; }
const struct wl_interface *cw_viewporter_interface(void) { return &wp_viewporter_interface; }
const struct wl_interface *cw_screencopy_manager_interface(void) { return &zwlr_screencopy_manager_v1_interface; }
const struct wl_interface *cw_xdg_output_manager_interface(void) { return &zxdg_output_manager_v1_interface; }
const struct wl_interface *cw_subcompositor_interface(void) { return &wl_subcompositor_interface; }

static _Thread_local long alive;

struct wl_proxy *cw_counted(struct wl_proxy *made, uint32_t flags) {
  if (made) alive++;
  if (flags & WL_MARSHAL_FLAG_DESTROY) alive--;
  return made;
}

void cw_proxy_destroy_counted(struct wl_proxy *proxy) {
  if (!proxy) return;
  alive--;
  (cw_table.wl_proxy_destroy)(proxy);
}

long cw_proxies_alive(void) { return alive; }

void cw_proxy_adopted(void) { alive++; }

int cw_peer_pid(int fd) {
  struct ucred cred;
  socklen_t size = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) != 0) return -1;
  return cred.pid;
}

int cw_shm_file(size_t size) {
  int fd = memfd_create("displayd-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  int r;
  do r = ftruncate(fd, (off_t)size);
  while (r < 0 && errno == EINTR);
  if (r < 0) {
    close(fd);
    return -1;
  }
  return fd;
}
