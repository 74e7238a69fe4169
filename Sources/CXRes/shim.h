#ifndef CXRES_SHIM_H
#define CXRES_SHIM_H
/* X-Resource, for the test rig's counts of a client's server resources, and SHAPE, for
   reading a window's input shape: the product never links them. */
#include <X11/Xlib.h>
#include <X11/extensions/XRes.h>
#include <X11/extensions/shape.h>
#endif
