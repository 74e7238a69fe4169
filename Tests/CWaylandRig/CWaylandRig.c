#include "CWaylandRig.h"

const struct wl_interface *cw_rig_xdg_wm_base_interface(void) { return &xdg_wm_base_interface; }
const struct wl_interface *cw_rig_seat_interface(void) { return &wl_seat_interface; }
const struct wl_interface *cw_rig_virtual_pointer_manager_interface(void) {
  return &zwlr_virtual_pointer_manager_v1_interface;
}
