#ifndef CXRANDR_SHIM_H
#define CXRANDR_SHIM_H
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>
#include <X11/extensions/Xrandr.h>
#include <X11/extensions/Xrender.h>
#include <X11/extensions/Xdamage.h>
#include <X11/extensions/Xfixes.h>
#include <X11/extensions/XInput2.h>
#include <X11/extensions/dpms.h>
#include <X11/Xlib-xcb.h>
#include <xcb/randr.h>

/* RandR's presence, opcode and first event as XCB caches them, asked for at the first call (the
   extension's id is a C global of an incomplete type, which Swift cannot take the address of). */
static inline const xcb_query_extension_reply_t *cx_randr_extension(xcb_connection_t *c) {
  return xcb_get_extension_data(c, &xcb_randr_id);
}

/* Xlib's event and mode flag macros are not imported by Swift; give them names. */
static inline int cx_connection_number(Display *d) { return ConnectionNumber(d); }
static inline Window cx_default_root(Display *d) { return DefaultRootWindow(d); }
static inline int cx_default_screen(Display *d) { return DefaultScreen(d); }

/* RandR notify events arrive as XEvent; these read the fields of their subtypes. */
static inline int cx_rr_subtype(const XEvent *e) { return ((const XRRNotifyEvent *)e)->subtype; }
static inline Atom cx_rr_output_property_atom(const XEvent *e) {
  return ((const XRROutputPropertyNotifyEvent *)e)->property;
}
/* Xlib's hook on an event's conversion from the wire (declared in Xlibint.h, which defines too
   much to include; the wire event, 32 bytes, as a plain pointer): RandR's output-change events
   carry their time there, which Xlib's converted event leaves out. */
typedef Bool (*cx_wire_to_event)(Display *, XEvent *, void *);
extern cx_wire_to_event XESetWireToEvent(Display *, int, cx_wire_to_event);
/* The serial of the next request, to tie X errors to the requests that caused them. */
static inline unsigned long cx_next_request(Display *d) { return NextRequest(d); }
#endif
