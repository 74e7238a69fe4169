#ifndef CLINUX_LOGIND_H
#define CLINUX_LOGIND_H
/* logind's LidClosed and PrepareForSleep through sd-bus, with libsystemd loaded at first use
   (dlopen): the executable does not link it, so the commands and configs that never watch
   logind never load it. sd-bus's header gives the types only. */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <systemd/sd-bus.h>

#define CL_LOGIND_NAME "org.freedesktop.login1"
#define CL_LOGIND_PATH "/org/freedesktop/login1"
#define CL_LOGIND_MANAGER "org.freedesktop.login1.Manager"

/* A connection to the system bus, what the last PropertiesChanged said about the lid, and
   the PrepareForSleep signals since the last take. */
typedef struct cl_logind {
  void *library;
  sd_bus *bus;
  sd_bus_slot *slot;
  sd_bus_slot *sleep_slot;
  int changed;     /* a PropertiesChanged carried LidClosed's value since the last take */
  int closed;      /* that value */
  int invalidated; /* one named LidClosed without a value: read it again */
  int resumed;     /* PrepareForSleep(false) signals since the last take */
  int suspending;  /* PrepareForSleep(true) signals since the last take */
  int (*open_system)(sd_bus **);
  sd_bus *(*flush_close_unref)(sd_bus *);
  int (*add_match)(sd_bus *, sd_bus_slot **, const char *, sd_bus_message_handler_t, void *);
  sd_bus_slot *(*slot_unref)(sd_bus_slot *);
  int (*get_property_trivial)(
    sd_bus *, const char *, const char *, const char *, const char *, sd_bus_error *, char, void *);
  int (*set_method_call_timeout)(sd_bus *, uint64_t); /* may be missing (systemd < 240) */
  int (*get_fd)(sd_bus *);
  int (*get_events)(sd_bus *);
  int (*process)(sd_bus *, sd_bus_message **);
  void (*error_free)(sd_bus_error *);
  int (*read_basic)(sd_bus_message *, char, void *);
  int (*skip)(sd_bus_message *, const char *);
  int (*enter)(sd_bus_message *, char, const char *);
  int (*exit)(sd_bus_message *);
} cl_logind;

/* Loads libsystemd.so.0 and resolves what is used; 0, or -1 with cl_logind_dlerror() saying why. */
static inline int cl_logind_load(cl_logind *l) {
  memset(l, 0, sizeof *l);
  l->library = dlopen("libsystemd.so.0", RTLD_NOW | RTLD_LOCAL);
  if (!l->library) return -1;
#define CL_SYM(field, name) \
  if (!(*(void **)&l->field = dlsym(l->library, name))) return -1;
  CL_SYM(open_system, "sd_bus_open_system")
  CL_SYM(flush_close_unref, "sd_bus_flush_close_unref")
  CL_SYM(add_match, "sd_bus_add_match")
  CL_SYM(slot_unref, "sd_bus_slot_unref")
  CL_SYM(get_property_trivial, "sd_bus_get_property_trivial")
  CL_SYM(get_fd, "sd_bus_get_fd")
  CL_SYM(get_events, "sd_bus_get_events")
  CL_SYM(process, "sd_bus_process")
  CL_SYM(error_free, "sd_bus_error_free")
  CL_SYM(read_basic, "sd_bus_message_read_basic")
  CL_SYM(skip, "sd_bus_message_skip")
  CL_SYM(enter, "sd_bus_message_enter_container")
  CL_SYM(exit, "sd_bus_message_exit_container")
#undef CL_SYM
  *(void **)&l->set_method_call_timeout = dlsym(l->library, "sd_bus_set_method_call_timeout");
  return 0;
}

static inline const char *cl_logind_dlerror(void) {
  const char *e = dlerror();
  return e ? e : "unknown dlopen error";
}

/* One entry of PropertiesChanged's a{sv}, entered: LidClosed's value is taken if it is a
   boolean; any other entry (or type) is skipped. Negative on a malformed message. */
static inline int cl_logind_entry(cl_logind *l, sd_bus_message *m) {
  const char *name = NULL;
  if (l->read_basic(m, 's', &name) <= 0) return -EBADMSG;
  if (strcmp(name, "LidClosed") == 0 && l->enter(m, 'v', "b") > 0) {
    int value = 0;
    if (l->read_basic(m, 'b', &value) <= 0) return -EBADMSG;
    l->closed = value != 0;
    l->changed = 1;
    return l->exit(m);
  }
  return l->skip(m, "v");
}

/* PropertiesChanged (sa{sv}as) of logind's manager: notes LidClosed's new value, or that it
   was invalidated. Anything malformed is ignored; a handler's error would only be logged by
   sd-bus, so it always returns 0. */
static int cl_logind_changed(sd_bus_message *m, void *userdata, sd_bus_error *error) {
  (void)error;
  cl_logind *l = userdata;
  const char *interface = NULL;
  if (l->read_basic(m, 's', &interface) <= 0 || strcmp(interface, CL_LOGIND_MANAGER) != 0) return 0;
  if (l->enter(m, 'a', "{sv}") <= 0) return 0;
  int r;
  while ((r = l->enter(m, 'e', "sv")) > 0) {
    if (cl_logind_entry(l, m) < 0 || l->exit(m) < 0) return 0;
  }
  if (r < 0 || l->exit(m) < 0 || l->enter(m, 'a', "s") <= 0) return 0;
  const char *name = NULL;
  while (l->read_basic(m, 's', &name) > 0) {
    if (strcmp(name, "LidClosed") == 0) l->invalidated = 1;
  }
  return 0;
}

/* PrepareForSleep(b) of logind's manager: true before a suspend, false after the resume.
   Anything malformed is ignored. */
static int cl_logind_sleep(sd_bus_message *m, void *userdata, sd_bus_error *error) {
  (void)error;
  cl_logind *l = userdata;
  int start = 0;
  if (l->read_basic(m, 'b', &start) <= 0) return 0;
  if (start) {
    if (l->suspending < INT_MAX) l->suspending++;
  } else if (l->resumed < INT_MAX) {
    l->resumed++;
  }
  return 0;
}

/* Connects to the system bus ($DBUS_SYSTEM_BUS_ADDRESS, else the standard socket) and
   subscribes to logind manager's PrepareForSleep and, with `lid`, its PropertiesChanged.
   Negative errno on failure. */
static inline int cl_logind_connect(cl_logind *l, int lid) {
  int r = l->open_system(&l->bus);
  if (r < 0) return r;
  /* Every call here is answered by logind or the bus daemon at once; a hung one must not
     hang the display manager for sd-bus's default 25 s. */
  if (l->set_method_call_timeout) (void)l->set_method_call_timeout(l->bus, 2 * 1000 * 1000);
  r = l->add_match(
    l->bus, &l->sleep_slot,
    "type='signal',sender='" CL_LOGIND_NAME "',path='" CL_LOGIND_PATH "',"
    "interface='" CL_LOGIND_MANAGER "',member='PrepareForSleep'",
    cl_logind_sleep, l);
  if (r < 0 || !lid) return r;
  return l->add_match(
    l->bus, &l->slot,
    "type='signal',sender='" CL_LOGIND_NAME "',path='" CL_LOGIND_PATH "',"
    "interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='" CL_LOGIND_MANAGER "'",
    cl_logind_changed, l);
}

/* Reads LidClosed: 0 or 1, or negative errno with the bus error's name and message (when
   there is one) copied into `why`. */
static inline int cl_logind_read(cl_logind *l, char *why, size_t size) {
  sd_bus_error error = SD_BUS_ERROR_NULL;
  int closed = 0;
  int r = l->get_property_trivial(
    l->bus, CL_LOGIND_NAME, CL_LOGIND_PATH, CL_LOGIND_MANAGER, "LidClosed", &error, 'b', &closed);
  if (size > 0) why[0] = 0;
  if (r < 0 && size > 0 && error.name) {
    strncpy(why, error.name, size - 1);
    why[size - 1] = 0;
    if (error.message) {
      size_t used = strlen(why);
      strncat(why, ": ", size - 1 - used);
      strncat(why, error.message, size - 1 - strlen(why));
    }
  }
  l->error_free(&error);
  return r < 0 ? r : closed != 0;
}

/* Processes everything sd-bus has read or can read now. Negative errno when the connection
   is lost or broken. */
static inline int cl_logind_process(cl_logind *l) {
  int r;
  while ((r = l->process(l->bus, NULL)) > 0) {}
  return r;
}

static inline int cl_logind_fd(cl_logind *l) { return l->get_fd(l->bus); }
static inline int cl_logind_events(cl_logind *l) { return l->get_events(l->bus); }

/* Closes the connection; the library stays loaded (sd-bus may keep state in it). */
static inline void cl_logind_close(cl_logind *l) {
  if (l->slot) l->slot = l->slot_unref(l->slot);
  if (l->sleep_slot) l->sleep_slot = l->slot_unref(l->sleep_slot);
  if (l->bus) l->bus = l->flush_close_unref(l->bus);
}
#endif
