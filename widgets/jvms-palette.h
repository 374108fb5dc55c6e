/* jvms-palette.h: the colours of the views, for light and dark themes.
 *
 * State colours come from the Okabe-Ito set, which stays distinguishable under the common
 * colour-vision deficiencies; the mapping is documented in docs/views.md. Colours that must
 * contrast with the background (text, safepoint, the mixed-column mark) follow the theme.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double r, g, b, a;
} JvmsColor;

typedef struct
{
  gboolean  dark;
  JvmsColor background;
  JvmsColor gutter;        /* label column */
  JvmsColor foreground;    /* text */
  JvmsColor dim_text;
  JvmsColor grid;
  JvmsColor lane_empty;    /* nothing known */
  JvmsColor not_recorded;  /* a thread that exists, but what it did was not recorded */
  JvmsColor mixed_mark;    /* a column where more than one value held */
  JvmsColor selection;     /* translucent band */
  JvmsColor selection_edge;
  JvmsColor hover;
  JvmsColor highlight;
  JvmsColor line_a;        /* first line of a chart */
  JvmsColor line_b;        /* second line */
} JvmsPalette;

const JvmsPalette *jvms_palette_get              (gboolean dark);
/* The theme of the default display's AdwStyleManager; light without a display. */
gboolean           jvms_palette_system_is_dark   (void);

JvmsColor          jvms_palette_user_state       (const JvmsPalette *palette,
                                                  gint64             state);
JvmsColor          jvms_palette_kernel_state     (const JvmsPalette *palette,
                                                  gint64             state);
/* A stable colour per thread; threads of other processes are grey-ish. */
JvmsColor          jvms_palette_thread           (const JvmsPalette *palette,
                                                  gint64             tid,
                                                  gboolean           other_process);
/* A colour per CPU: hues a golden angle apart, so that neighbouring CPUs differ most. */
JvmsColor          jvms_palette_cpu              (const JvmsPalette *palette,
                                                  gint64             cpu);
/* A stable colour for a string value (GC phase names, classes). */
JvmsColor          jvms_palette_for_string       (const JvmsPalette *palette,
                                                  const char        *value);

static inline void
jvms_color_set (cairo_t         *cr,
                const JvmsColor *c)
{
  cairo_set_source_rgba (cr, c->r, c->g, c->b, c->a);
}

/* @c as a premultiplied ARGB32 pixel of a cairo image. */
static inline guint32
jvms_color_to_argb (const JvmsColor *c)
{
  double a = CLAMP (c->a, 0.0, 1.0);
  guint32 A = (guint32) (a * 255.0 + 0.5);
  guint32 R = (guint32) (CLAMP (c->r, 0.0, 1.0) * a * 255.0 + 0.5);
  guint32 G = (guint32) (CLAMP (c->g, 0.0, 1.0) * a * 255.0 + 0.5);
  guint32 B = (guint32) (CLAMP (c->b, 0.0, 1.0) * a * 255.0 + 0.5);
  return A << 24 | R << 16 | G << 8 | B;
}

G_END_DECLS
