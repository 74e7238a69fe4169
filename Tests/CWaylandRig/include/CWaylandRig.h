#ifndef CWAYLANDRIG_H
#define CWAYLANDRIG_H
/* The test rig's own Wayland clients (a full-screen toplevel with a keyboard) over the
 * project's generated glue: the interfaces Swift binds by that CWayland does not hand out. */

#include <CWayland.h>

const struct wl_interface *cw_rig_xdg_wm_base_interface(void);
const struct wl_interface *cw_rig_seat_interface(void);

#endif
