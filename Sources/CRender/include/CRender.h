#ifndef CRENDER_H
#define CRENDER_H
/* The parts of cairo and pango the placeholder draws with, loaded at first use with dlopen
 * rather than linked: a query command (`displayd outputs`) never maps them, only a process
 * that draws does. Call cr_load() and check it before anything else here; every function
 * below then calls through the table it filled. The types are declared here, not taken from
 * cairo's and pango's headers, so that building needs no pkg-config for them. */

typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef struct _PangoContext PangoContext;
typedef struct _PangoLayout PangoLayout;
typedef struct _PangoFontMap PangoFontMap;
typedef struct _PangoFontDescription PangoFontDescription;
typedef struct _PangoRectangle { int x, y, width, height; } PangoRectangle;

/* The values of cairo's enums used here (cairo.h), stable across its 1.x ABI. */
typedef enum _cairo_status { CAIRO_STATUS_SUCCESS = 0, CAIRO_STATUS_READ_ERROR = 10 } cairo_status_t;
typedef enum _cairo_format { CAIRO_FORMAT_INVALID = -1, CAIRO_FORMAT_RGB24 = 1 } cairo_format_t;
enum { PANGO_SCALE = 1024 };
typedef cairo_status_t (*cairo_read_func_t)(void *closure, unsigned char *data, unsigned int length);

/* Every function used: F(return type, name, parameters, arguments), V(name, parameters,
 * arguments) for those returning nothing. */
#define CR_FUNCTIONS(F, V)                                                                          \
  F(cairo_t *, cairo_create, (cairo_surface_t * target), (target))                                   \
  V(cairo_destroy, (cairo_t * cr), (cr))                                                            \
  F(cairo_surface_t *, cairo_image_surface_create, (cairo_format_t format, int width, int height),   \
    (format, width, height))                                                                        \
  F(cairo_surface_t *, cairo_image_surface_create_for_data,                                          \
    (unsigned char *data, cairo_format_t format, int width, int height, int stride),                \
    (data, format, width, height, stride))                                                          \
  F(int, cairo_format_stride_for_width, (cairo_format_t format, int width), (format, width))          \
  F(cairo_surface_t *, cairo_image_surface_create_from_png_stream,                                   \
    (cairo_read_func_t read_func, void *closure), (read_func, closure))                             \
  F(unsigned char *, cairo_image_surface_get_data, (cairo_surface_t * surface), (surface))           \
  F(int, cairo_image_surface_get_width, (cairo_surface_t * surface), (surface))                      \
  F(int, cairo_image_surface_get_height, (cairo_surface_t * surface), (surface))                     \
  F(int, cairo_image_surface_get_stride, (cairo_surface_t * surface), (surface))                     \
  V(cairo_move_to, (cairo_t * cr, double x, double y), (cr, x, y))                                   \
  V(cairo_paint, (cairo_t * cr), (cr))                                                              \
  V(cairo_rectangle, (cairo_t * cr, double x, double y, double width, double height), (cr, x, y, width, height)) \
  V(cairo_set_line_width, (cairo_t * cr, double width), (cr, width))                                 \
  V(cairo_stroke, (cairo_t * cr), (cr))                                                             \
  V(cairo_save, (cairo_t * cr), (cr))                                                               \
  V(cairo_restore, (cairo_t * cr), (cr))                                                            \
  V(cairo_scale, (cairo_t * cr, double sx, double sy), (cr, sx, sy))                                 \
  V(cairo_translate, (cairo_t * cr, double tx, double ty), (cr, tx, ty))                             \
  V(cairo_set_source_rgb, (cairo_t * cr, double red, double green, double blue), (cr, red, green, blue)) \
  V(cairo_set_source_surface, (cairo_t * cr, cairo_surface_t * surface, double x, double y),         \
    (cr, surface, x, y))                                                                            \
  V(cairo_surface_destroy, (cairo_surface_t * surface), (surface))                                  \
  V(cairo_surface_flush, (cairo_surface_t * surface), (surface))                                    \
  V(cairo_surface_mark_dirty, (cairo_surface_t * surface), (surface))                               \
  F(cairo_status_t, cairo_surface_status, (cairo_surface_t * surface), (surface))                    \
  F(cairo_status_t, cairo_surface_write_to_png, (cairo_surface_t * surface, const char *filename),   \
    (surface, filename))                                                                            \
  F(PangoLayout *, pango_cairo_create_layout, (cairo_t * cr), (cr))                                  \
  F(PangoFontMap *, pango_cairo_font_map_get_default, (void), ())                                    \
  V(pango_cairo_show_layout, (cairo_t * cr, PangoLayout * layout), (cr, layout))                    \
  V(pango_cairo_update_context, (cairo_t * cr, PangoContext * context), (cr, context))              \
  V(pango_font_description_free, (PangoFontDescription * desc), (desc))                             \
  F(PangoFontDescription *, pango_font_description_from_string, (const char *str), (str))            \
  V(pango_font_description_set_absolute_size, (PangoFontDescription * desc, double size), (desc, size)) \
  F(PangoContext *, pango_font_map_create_context, (PangoFontMap * fontmap), (fontmap))              \
  V(pango_layout_get_pixel_extents, (PangoLayout * layout, PangoRectangle * ink, PangoRectangle * logical), \
    (layout, ink, logical))                                                                         \
  V(pango_layout_get_pixel_size, (PangoLayout * layout, int *width, int *height), (layout, width, height)) \
  F(int, pango_layout_get_unknown_glyphs_count, (PangoLayout * layout), (layout))                    \
  F(PangoLayout *, pango_layout_new, (PangoContext * context), (context))                            \
  V(pango_layout_set_font_description, (PangoLayout * layout, const PangoFontDescription *desc),     \
    (layout, desc))                                                                                 \
  V(pango_layout_set_text, (PangoLayout * layout, const char *text, int length), (layout, text, length)) \
  V(g_object_unref, (void *object), (object))

#define CR_FIELD(ret, name, params, args) ret(*name) params;
#define CR_VFIELD(name, params, args) void(*name) params;
/* The functions, resolved by cr_load(). */
struct cr_api {
  CR_FUNCTIONS(CR_FIELD, CR_VFIELD)
};
#undef CR_FIELD
#undef CR_VFIELD
extern struct cr_api cr_table;

/* Loads the libraries and resolves every function, once per process (thread-safe); returns
 * 1 when all are there, else 0, and the reason stays in cr_load_error(). */
int cr_load(void);
/* Why cr_load() failed, or NULL. */
const char *cr_load_error(void);

#define CR_WRAP(ret, name, params, args) \
  static inline ret name params { return cr_table.name args; }
#define CR_VWRAP(name, params, args) \
  static inline void name params { cr_table.name args; }
CR_FUNCTIONS(CR_WRAP, CR_VWRAP)
#undef CR_WRAP
#undef CR_VWRAP
#endif
