#ifndef CWAYLANDRIG_H
#define CWAYLANDRIG_H
/* The test rig's own Wayland clients (a full-screen toplevel with a keyboard) over the
 * project's generated glue: the interfaces Swift binds by that CWayland does not hand out. */

#include <CWayland.h>

#if !__has_include("../generated/wlr-virtual-pointer-unstable-v1-client-protocol.h")
#error "the rig's Wayland glue is missing: run `make glue` (or scripts/wayland-glue) once before `swift build`"
#endif
/* After CWayland.h: its requests go through the same loaded table. */
#include "../generated/wlr-virtual-pointer-unstable-v1-client-protocol.h"

const struct wl_interface *cw_rig_xdg_wm_base_interface(void);
const struct wl_interface *cw_rig_seat_interface(void);
const struct wl_interface *cw_rig_virtual_pointer_manager_interface(void);

#endif
