/* Without the generated headers (see CWayland.h): the interfaces are declared here. */
#define CW_NO_GENERATED_HEADERS
#include "CWaylandRig.h"

extern const struct wl_interface xdg_wm_base_interface;
extern const struct wl_interface zwlr_virtual_pointer_manager_v1_interface;

const struct wl_interface *cw_rig_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
const struct wl_interface *cw_rig_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *cw_rig_virtual_pointer_manager_interface(void) {
  return &zwlr_virtual_pointer_manager_v1_interface;
}
