#ifndef CXRES_SHIM_H
#define CXRES_SHIM_H
/* X-Resource, for the test rig's counts of a client's server resources: the product never
   links it. */
#include <X11/Xlib.h>
#include <X11/extensions/XRes.h>
#endif
