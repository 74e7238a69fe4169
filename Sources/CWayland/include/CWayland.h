#ifndef CWAYLAND_H
#define CWAYLAND_H
/* The Wayland client side of the wlroots backend, with libwayland-client loaded by dlopen at
 * first use rather than linked: a process on X never maps it. The protocols' glue is made in
 * the build by the WaylandGlue plugin (wayland-scanner, from Debian's XMLs; its headers are on
 * the include path), wayland.xml's interfaces included, so no symbol of libwayland-client is
 * referenced at link time. Every libwayland function the generated inline requests call is a
 * macro over the table that cw_load() fills (the macros are defined after libwayland's own
 * declarations, before the generated headers); Swift calls the cw_ functions below. Call
 * cw_load() first. */

#include <stddef.h>
#include <stdint.h>
#include <wayland-client-core.h>

/* F(return type, name, parameters) of every libwayland-client function used. */
#define CW_FUNCTIONS(F)                                                                        \
  F(struct wl_display *, wl_display_connect, (const char *name))                                \
  F(void, wl_display_disconnect, (struct wl_display * display))                                 \
  F(int, wl_display_get_fd, (struct wl_display * display))                                      \
  F(int, wl_display_dispatch_pending, (struct wl_display * display))                            \
  F(int, wl_display_flush, (struct wl_display * display))                                       \
  F(int, wl_display_prepare_read, (struct wl_display * display))                                \
  F(int, wl_display_read_events, (struct wl_display * display))                                 \
  F(void, wl_display_cancel_read, (struct wl_display * display))                                \
  F(int, wl_display_get_error, (struct wl_display * display))                                   \
  F(void, wl_proxy_destroy, (struct wl_proxy * proxy))                                          \
  F(int, wl_proxy_add_listener, (struct wl_proxy * proxy, void (**implementation)(void), void *data)) \
  F(void, wl_proxy_set_user_data, (struct wl_proxy * proxy, void *user_data))                   \
  F(void *, wl_proxy_get_user_data, (struct wl_proxy * proxy))                                  \
  F(uint32_t, wl_proxy_get_version, (struct wl_proxy * proxy))                                  \
  F(struct wl_proxy *, wl_proxy_marshal_flags,                                                  \
    (struct wl_proxy * proxy, uint32_t opcode, const struct wl_interface *interface, uint32_t version, \
     uint32_t flags, ...))

#define CW_FIELD(ret, name, params) ret(*name) params;
struct cw_api {
  CW_FUNCTIONS(CW_FIELD)
};
#undef CW_FIELD
extern struct cw_api cw_table;

/* Loads libwayland-client once (thread-safe); 1 when every function was found. */
int cw_load(void);
/* Why cw_load() failed; NULL when it did not. */
const char *cw_load_error(void);

/* The generated requests call libwayland through the table. */
#define wl_proxy_marshal_flags(proxy, opcode, interface, version, flags, ...)                  \
  (cw_counted(cw_table.wl_proxy_marshal_flags(proxy, opcode, interface, version, flags, ##__VA_ARGS__), (flags)))
#define wl_proxy_add_listener(...) (cw_table.wl_proxy_add_listener(__VA_ARGS__))
#define wl_proxy_set_user_data(...) (cw_table.wl_proxy_set_user_data(__VA_ARGS__))
#define wl_proxy_get_user_data(...) (cw_table.wl_proxy_get_user_data(__VA_ARGS__))
#define wl_proxy_get_version(...) (cw_table.wl_proxy_get_version(__VA_ARGS__))
#define wl_proxy_destroy(proxy) (cw_proxy_destroy_counted(proxy))

/* Every proxy the glue makes (a request with a new_id) and destroys (a destructor request,
 * wl_proxy_destroy) is counted per thread, so that a leak check sees its own objects even
 * while other threads talk to compositors. */
struct wl_proxy *cw_counted(struct wl_proxy *made, uint32_t flags);
void cw_proxy_destroy_counted(struct wl_proxy *proxy);
/* Proxies made minus proxies destroyed through the glue on the calling thread. */
long cw_proxies_alive(void);
/* Counts a proxy the compositor made (a new_id in an event: a head, a mode). */
void cw_proxy_adopted(void);

#include <wayland-client-protocol.h>
/* The generated headers. Not in the C files of CWayland or CWaylandRig, which define
 * CW_NO_GENERATED_HEADERS: SwiftPM's native build compiles a C target's own files with no
 * wait for its plugin's commands (only the generated .c files and the Swift modules that
 * import the target wait for them), so such a file could be compiled before they exist. */
#ifndef CW_NO_GENERATED_HEADERS
#if !__has_include("wlr-output-management-unstable-v1-client-protocol.h")
#error "no Wayland protocol headers yet: `swift build` generates them (the WaylandGlue plugin); CWayland's and CWaylandRig's own C files must define CW_NO_GENERATED_HEADERS"
#endif
#include "viewporter-client-protocol.h"
#include "xdg-shell-client-protocol.h"
#include "xdg-output-unstable-v1-client-protocol.h"
#include "wlr-output-management-unstable-v1-client-protocol.h"
#include "wlr-layer-shell-unstable-v1-client-protocol.h"
#include "wlr-screencopy-unstable-v1-client-protocol.h"
#endif

/* For Swift, which sees no macros: the connection's calls. */
struct wl_display *cw_display_connect(const char *name);
void cw_display_disconnect(struct wl_display *display);
int cw_display_get_fd(struct wl_display *display);
int cw_display_flush(struct wl_display *display);
int cw_display_get_error(struct wl_display *display);
/* Reads what the socket holds without blocking and dispatches it (prepare_read, a poll of
 * 0 ms, read_events, dispatch_pending); -1 with errno when the connection failed. */
int cw_display_dispatch_ready(struct wl_display *display);
/* An anonymous shared-memory file of `size` bytes for wl_shm (memfd); -1 with errno. */
int cw_shm_file(size_t size);
/* The process at the other end of a Unix socket; -1 when unknown. */
int cw_peer_pid(int fd);
uint32_t cw_proxy_get_version(void *proxy);
/* wl_registry.bind of `name` as `interface` at `version`. */
void *cw_registry_bind(struct wl_registry *registry, uint32_t name, const struct wl_interface *interface,
                       uint32_t version);
/* The interfaces Swift binds by (their `version` field is the XML's). */
const struct wl_interface *cw_output_manager_interface(void);
const struct wl_interface *cw_layer_shell_interface(void);
const struct wl_interface *cw_output_interface(void);
const struct wl_interface *cw_compositor_interface(void);
const struct wl_interface *cw_shm_interface(void);
const struct wl_interface *cw_viewporter_interface(void);
const struct wl_interface *cw_screencopy_manager_interface(void);
const struct wl_interface *cw_xdg_output_manager_interface(void);
const struct wl_interface *cw_subcompositor_interface(void);

#endif
