#ifndef CLINUX_DBUS_H
#define CLINUX_DBUS_H
/* A session-bus client through sd-bus, loaded as logind.h loads it (dlopen at first use):
   method calls built and read one value at a time, and one signal match whose hits are
   counted, so the bus wakes its owner only when that signal comes. */
#include <stdio.h>
#include "logind.h"

typedef struct cl_dbus {
  cl_logind sd; /* the library and the sd-bus calls logind.h resolves */
  int (*open_user)(sd_bus **);
  int (*new_method_call)(sd_bus *, sd_bus_message **, const char *, const char *, const char *, const char *);
  int (*append_basic)(sd_bus_message *, char, const void *);
  int (*open_container)(sd_bus_message *, char, const char *);
  int (*close_container)(sd_bus_message *);
  int (*call)(sd_bus *, sd_bus_message *, uint64_t, sd_bus_error *, sd_bus_message **);
  sd_bus_message *(*message_unref)(sd_bus_message *);
  int (*peek_type)(sd_bus_message *, char *, const char **);
  int (*bus_new)(sd_bus **);
  int (*set_address)(sd_bus *, const char *);
  int (*set_bus_client)(sd_bus *, int);
  int (*start)(sd_bus *);
  sd_bus_slot *match;
  int signals; /* matched signals since the last take */
} cl_dbus;

/* Loads libsystemd and what is used here; 0, or -1 with cl_logind_dlerror() saying why. */
static inline int cl_dbus_load(cl_dbus *b) {
  memset(b, 0, sizeof *b);
  if (cl_logind_load(&b->sd) != 0) return -1;
  void *l = b->sd.library;
  if (!(*(void **)&b->open_user = dlsym(l, "sd_bus_open_user"))) return -1;
  if (!(*(void **)&b->new_method_call = dlsym(l, "sd_bus_message_new_method_call"))) return -1;
  if (!(*(void **)&b->append_basic = dlsym(l, "sd_bus_message_append_basic"))) return -1;
  if (!(*(void **)&b->open_container = dlsym(l, "sd_bus_message_open_container"))) return -1;
  if (!(*(void **)&b->close_container = dlsym(l, "sd_bus_message_close_container"))) return -1;
  if (!(*(void **)&b->call = dlsym(l, "sd_bus_call"))) return -1;
  if (!(*(void **)&b->message_unref = dlsym(l, "sd_bus_message_unref"))) return -1;
  if (!(*(void **)&b->peek_type = dlsym(l, "sd_bus_message_peek_type"))) return -1;
  if (!(*(void **)&b->bus_new = dlsym(l, "sd_bus_new"))) return -1;
  if (!(*(void **)&b->set_address = dlsym(l, "sd_bus_set_address"))) return -1;
  if (!(*(void **)&b->set_bus_client = dlsym(l, "sd_bus_set_bus_client"))) return -1;
  if (!(*(void **)&b->start = dlsym(l, "sd_bus_start"))) return -1;
  return 0;
}

/* Connects to the bus at `address` (NULL: the session bus, $DBUS_SESSION_BUS_ADDRESS, else
   $XDG_RUNTIME_DIR/bus), with calls that give up after `timeout_usec`. Negative errno. */
static inline int cl_dbus_open(cl_dbus *b, const char *address, uint64_t timeout_usec) {
  int r;
  if (address) {
    if ((r = b->bus_new(&b->sd.bus)) < 0) return r;
    if ((r = b->set_address(b->sd.bus, address)) < 0) return r;
    if ((r = b->set_bus_client(b->sd.bus, 1)) < 0) return r;
    if ((r = b->start(b->sd.bus)) < 0) return r;
  } else if ((r = b->open_user(&b->sd.bus)) < 0) {
    return r;
  }
  if (b->sd.set_method_call_timeout) (void)b->sd.set_method_call_timeout(b->sd.bus, timeout_usec);
  return 0;
}

static int cl_dbus_signal(sd_bus_message *m, void *userdata, sd_bus_error *error) {
  (void)m;
  (void)error;
  cl_dbus *b = userdata;
  if (b->signals < INT_MAX) b->signals++;
  return 0;
}

/* Counts the signals `rule` matches from now on (one rule a bus). Negative errno. */
static inline int cl_dbus_match(cl_dbus *b, const char *rule) {
  return b->sd.add_match(b->sd.bus, &b->match, rule, cl_dbus_signal, b);
}

/* Sends `m` and waits for the reply. Negative errno with the bus error's name and message
   copied into `why` (when there is one). */
static inline int cl_dbus_call(cl_dbus *b, sd_bus_message *m, sd_bus_message **reply, char *why, size_t size) {
  sd_bus_error error = SD_BUS_ERROR_NULL;
  int r = b->call(b->sd.bus, m, 0, &error, reply);
  if (size > 0) why[0] = 0;
  if (r < 0 && size > 0 && error.name) {
    snprintf(why, size, "%s%s%s", error.name, error.message ? ": " : "", error.message ? error.message : "");
  }
  b->sd.error_free(&error);
  return r;
}

/* Processes everything sd-bus has read or can read now. Negative errno when the connection
   is lost. */
static inline int cl_dbus_process(cl_dbus *b) {
  int r;
  while ((r = b->sd.process(b->sd.bus, NULL)) > 0) {}
  return r;
}

static inline int cl_dbus_fd(cl_dbus *b) { return b->sd.get_fd(b->sd.bus); }

/* Closes the connection; the library stays loaded (sd-bus may keep state in it). */
static inline void cl_dbus_close(cl_dbus *b) {
  if (b->match) b->match = b->sd.slot_unref(b->match);
  if (b->sd.bus) b->sd.bus = b->sd.flush_close_unref(b->sd.bus);
}
#endif
