#include "CRender.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct cr_api cr_table;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char error[512];

/* pangocairo brings pango, cairo, gobject and glib as its dependencies; dlsym on its handle
 * searches them too. Local: nothing of theirs is seen by other libraries. */
static void load(void) {
  void *handle = dlopen("libpangocairo-1.0.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    snprintf(error, sizeof error, "cannot load the renderer: %s", dlerror());
    return;
  }
#define CR_RESOLVE(name)                                                               \
  if (!(*(void **)&cr_table.name = dlsym(handle, #name))) {                           \
    snprintf(error, sizeof error, "cannot load the renderer: %s is missing", #name); \
    return;                                                                           \
  }
#define CR_LOAD(ret, name, params, args) CR_RESOLVE(name)
#define CR_VLOAD(name, params, args) CR_RESOLVE(name)
  CR_FUNCTIONS(CR_LOAD, CR_VLOAD)
  loaded = 1;
}

int cr_load(void) {
  pthread_once(&once, load);
  return loaded;
}

const char *cr_load_error(void) { return loaded ? 0 : error; }
