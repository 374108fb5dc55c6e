/* jvms-timeline-labels.c: the text of every view (gutter names, legends, ruler ticks), shaped
 * once and kept from frame to frame. */
#include "config.h"

#include <string.h>

#include "jvms-timeline-private.h"

/* One layout for every label of every view: creating a layout and parsing a font per label
 * cost more than drawing the lanes. Labels are drawn from the main thread only. */
/* pango_cairo_update_context marks the context changed on every call (it sets the matrix
 * again), and every layout of it then shapes its text anew: it is called only when what it
 * takes from @cr (the linear part of the matrix, the font options) differs from last time. */
static void
update_label_context (cairo_t      *cr,
                      PangoContext *context)
{
  static gboolean known;
  static double last[4];
  static cairo_font_options_t *last_options;
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_font_options_t *own = cairo_font_options_create ();
  cairo_matrix_t m;
  double now[4];

  cairo_get_matrix (cr, &m);
  now[0] = m.xx;
  now[1] = m.yx;
  now[2] = m.xy;
  now[3] = m.yy;
  cairo_surface_get_font_options (cairo_get_target (cr), options);
  cairo_get_font_options (cr, own);
  cairo_font_options_merge (options, own);
  cairo_font_options_destroy (own);
  if (known && memcmp (now, last, sizeof now) == 0 && cairo_font_options_equal (options, last_options))
    {
      cairo_font_options_destroy (options);
      return;
    }
  pango_cairo_update_context (cr, context);
  memcpy (last, now, sizeof now);
  if (last_options != NULL)
    cairo_font_options_destroy (last_options);
  last_options = options;
  known = TRUE;
}

static PangoLayout *
label_layout (cairo_t  *cr,
              gboolean  bold)
{
  static PangoLayout *layout;
  static PangoFontDescription *regular, *heavy;

  if (layout == NULL)
    {
      PangoContext *context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      layout = pango_layout_new (context);
      g_object_unref (context);
      regular = pango_font_description_from_string ("Sans 8");
      heavy = pango_font_description_from_string ("Sans Bold 8");
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_set_single_paragraph_mode (layout, TRUE);
    }
  update_label_context (cr, pango_layout_get_context (layout));
  pango_layout_set_font_description (layout, bold ? heavy : regular);
  return layout;
}

/* Shaped labels kept from frame to frame, by weight, width (negative: unbounded) and text: shaping every row's name
 * again on each frame was nine tenths of the threads view's drawing. They share the labels'
 * context, so a change of font options reaches them all; the cache is emptied when it passes
 * LABEL_CACHE_MAX (names come and go as one scrolls through thousands of threads). */
#define LABEL_CACHE_MAX 2048

PangoLayout *
_jvms_timeline_label_layout (cairo_t    *cr,
              gboolean    bold,
              int         max_width,
              const char *text,
              gsize       length)
{
  static GHashTable *cache;
  g_autofree char *key = g_strdup_printf ("%d %d %.*s", bold ? 1 : 0, max_width, (int) length, text);
  PangoLayout *shared = label_layout (cr, bold);
  PangoLayout *layout;

  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  layout = g_hash_table_lookup (cache, key);
  if (layout != NULL)
    return layout;
  if (g_hash_table_size (cache) >= LABEL_CACHE_MAX)
    g_hash_table_remove_all (cache);
  layout = pango_layout_new (pango_layout_get_context (shared));
  pango_layout_set_font_description (layout, pango_layout_get_font_description (shared));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_set_single_paragraph_mode (layout, TRUE);
  pango_layout_set_width (layout, max_width < 0 ? -1 : max_width * PANGO_SCALE);
  pango_layout_set_text (layout, text, (int) length);
  g_hash_table_insert (cache, g_steal_pointer (&key), layout);
  return layout;
}

void
jvms_timeline_draw_label (cairo_t         *cr,
                          const JvmsColor *color,
                          double           x,
                          double           y,
                          int              max_width,
                          const char      *text,
                          gboolean         bold)
{
  const char *end;

  if (text == NULL || max_width <= 0)
    return;
  /* Views format labels into fixed buffers, which may cut a long name inside a character:
   * draw the valid part. */
  g_utf8_validate (text, -1, &end);
  jvms_color_set (cr, color);
  cairo_move_to (cr, x, y);
  pango_cairo_show_layout (cr, _jvms_timeline_label_layout (cr, bold, max_width, text,
                                                            (gsize) (end - text)));
}

