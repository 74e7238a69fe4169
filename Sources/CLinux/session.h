#ifndef CLINUX_SESSION_H
#define CLINUX_SESSION_H
/* The session bus through sd-bus, loaded as logind.h loads it: which of a few well-known
   names have an owner, told by NameOwnerChanged signals matched per name (arg0), so the bus
   wakes the daemon only when one of those names changes hands. */
#include <stdio.h>
#include "logind.h"

#define CL_SESSION_MAX_NAMES 16

typedef struct cl_session {
  cl_logind sd; /* the library and the sd-bus calls logind.h resolves */
  int (*open_user)(sd_bus **);
  int (*call_method)(
    sd_bus *, const char *, const char *, const char *, const char *, sd_bus_error *, sd_bus_message **,
    const char *, ...);
  sd_bus_message *(*message_unref)(sd_bus_message *);
  sd_bus_slot *slots[CL_SESSION_MAX_NAMES];
  int nslots;
  int changed; /* a watched name changed hands since the last take */
} cl_session;

/* Loads libsystemd and what is used here; 0, or -1 with cl_logind_dlerror() saying why. */
static inline int cl_session_load(cl_session *s) {
  memset(s, 0, sizeof *s);
  if (cl_logind_load(&s->sd) != 0) return -1;
  if (!(*(void **)&s->open_user = dlsym(s->sd.library, "sd_bus_open_user"))) return -1;
  if (!(*(void **)&s->call_method = dlsym(s->sd.library, "sd_bus_call_method"))) return -1;
  if (!(*(void **)&s->message_unref = dlsym(s->sd.library, "sd_bus_message_unref"))) return -1;
  return 0;
}

static int cl_session_owner_changed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
  (void)m;
  (void)error;
  ((cl_session *)userdata)->changed = 1;
  return 0;
}

/* Connects to the session bus ($DBUS_SESSION_BUS_ADDRESS, else $XDG_RUNTIME_DIR/bus).
   Negative errno on failure. */
static inline int cl_session_connect(cl_session *s) {
  int r = s->open_user(&s->sd.bus);
  if (r < 0) return r;
  /* The bus daemon and the desktop programs answer at once; a hung one must not hang the
     display manager for sd-bus's default 25 s. */
  if (s->sd.set_method_call_timeout) (void)s->sd.set_method_call_timeout(s->sd.bus, 2 * 1000 * 1000);
  return 0;
}

/* Follows the owner of `name`. Negative errno on failure (a name too long, a full table). */
static inline int cl_session_watch(cl_session *s, const char *name) {
  char rule[512];
  if (s->nslots >= CL_SESSION_MAX_NAMES) return -ENOBUFS;
  int n = snprintf(
    rule, sizeof rule,
    "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
    "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='%s'",
    name);
  if (n < 0 || (size_t)n >= sizeof rule) return -ENAMETOOLONG;
  int r = s->sd.add_match(s->sd.bus, &s->slots[s->nslots], rule, cl_session_owner_changed, s);
  if (r >= 0) s->nslots++;
  return r;
}

/* 1 when `name` has an owner, 0 when not, negative errno when the bus did not answer. */
static inline int cl_session_has_owner(cl_session *s, const char *name) {
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message *reply = NULL;
  int r = s->call_method(
    s->sd.bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", &error,
    &reply, "s", name);
  s->sd.error_free(&error);
  if (r < 0) return r;
  int owned = 0;
  r = s->sd.read_basic(reply, 'b', &owned);
  s->message_unref(reply);
  return r < 0 ? r : owned != 0;
}

/* Calls a method without arguments that answers `as` (kded's loadedModules) or `s`
   (Introspect) and says whether `needle` is one of the strings (as) or in the string (s):
   1 or 0, negative errno when the call failed or the answer has another type. */
static inline int cl_session_answer_has(
  cl_session *s, const char *name, const char *path, const char *interface, const char *member, const char *needle) {
  sd_bus_error error = SD_BUS_ERROR_NULL;
  sd_bus_message *reply = NULL;
  int r = s->call_method(s->sd.bus, name, path, interface, member, &error, &reply, "");
  s->sd.error_free(&error);
  if (r < 0) return r;
  int found = 0;
  const char *text = NULL;
  if (s->sd.enter(reply, 'a', "s") > 0) {
    while ((r = s->sd.read_basic(reply, 's', &text)) > 0) found = found || strcmp(text, needle) == 0;
    if (r >= 0) r = s->sd.exit(reply);
  } else if ((r = s->sd.read_basic(reply, 's', &text)) > 0) {
    found = strstr(text, needle) != NULL;
  } else if (r == 0) {
    r = -EBADMSG;
  }
  s->message_unref(reply);
  return r < 0 ? r : found;
}

/* Processes everything sd-bus has; negative errno when the connection is lost. */
static inline int cl_session_process(cl_session *s) { return cl_logind_process(&s->sd); }
static inline int cl_session_fd(cl_session *s) { return s->sd.get_fd(s->sd.bus); }
static inline int cl_session_events(cl_session *s) { return s->sd.get_events(s->sd.bus); }

static inline void cl_session_close(cl_session *s) {
  for (int i = 0; i < s->nslots; i++) s->slots[i] = s->sd.slot_unref(s->slots[i]);
  s->nslots = 0;
  if (s->sd.bus) s->sd.bus = s->sd.flush_close_unref(s->sd.bus);
}
#endif
