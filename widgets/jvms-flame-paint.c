/* jvms-flame-paint.c: the flame graph's frames drawn with cairo or written as SVG (see the
 * header). */
#include "config.h"

#include "jvms-flame-paint.h"

#include <glib/gi18n.h>
#include <string.h>

#include "jvms-flame-colors.h"
#include "jvms-profile-format.h"
#include "jvms-timeline.h"

#define ROW_H JVMS_FLAME_ROW_HEIGHT
/* Labels only in frames at least this wide. */
#define LABEL_MIN_WIDTH 28
/* Cairo's limit on an image surface's side. */
#define MAX_IMAGE_SIDE 32767

GType
jvms_flame_color_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    { JVMS_FLAME_COLOR_PACKAGE, "JVMS_FLAME_COLOR_PACKAGE", "package" },
    { JVMS_FLAME_COLOR_FRAME_KIND, "JVMS_FLAME_COLOR_FRAME_KIND", "frame-kind" },
    { JVMS_FLAME_COLOR_KERNEL_STATE, "JVMS_FLAME_COLOR_KERNEL_STATE", "kernel-state" },
    { 0, NULL, NULL },
  };
  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("JvmsFlameColorMode", values));
  return type;
}

JvmsColor
jvms_flame_paint_color (const JvmsFlamePaint *paint, const JvmsPalette *palette, guint32 index)
{
  const JvmsCallTreeNode *node = jvms_call_tree_get_node (paint->tree, index);
  if (index == 0 || (paint->matches != NULL && !paint->matches[index]))
    return jvms_flame_color_neutral (palette);
  switch (paint->color_mode)
    {
    case JVMS_FLAME_COLOR_FRAME_KIND:
      return jvms_flame_color_for_kind (palette, jvms_flame_dominant_kind (node->frame_kinds));
    case JVMS_FLAME_COLOR_KERNEL_STATE:
      return jvms_flame_color_for_states (palette, node->total_states);
    case JVMS_FLAME_COLOR_PACKAGE:
    default:
      return jvms_flame_color_for_method (palette,
                                          jvms_call_tree_get_method_name (paint->tree, node->method));
    }
}

char *
jvms_flame_paint_label (const JvmsFlamePaint *paint, guint32 index)
{
  if (index == 0)
    {
      g_autofree char *weight = jvms_profile_format_weight (jvms_call_tree_get_unit (paint->tree),
                                                           jvms_call_tree_get_total (paint->tree));
      /* Translators: the root frame of the flame graph; %s is its weight. */
      return g_strdup_printf (_("All: %s"), weight);
    }
  /* The method without its package; the tooltip has it whole. */
  const char *method = jvms_call_tree_get_method_name (paint->tree,
                                                       jvms_call_tree_get_node (paint->tree, index)->method);
  if (method[0] == '[')
    return g_strdup (method);
  gsize package = jvms_flame_package_length (method);
  return g_strdup (package > 0 ? method + package + 1 : method);
}

char *
jvms_flame_paint_describe (const JvmsFlamePaint *paint, guint32 index)
{
  JvmsCallTree *tree = paint->tree;
  const JvmsCallTreeNode *node = jvms_call_tree_get_node (tree, index);
  const char *unit = jvms_call_tree_get_unit (tree);
  guint64 all = jvms_call_tree_get_total (tree);
  g_autofree char *total = jvms_profile_format_weight (unit, node->total);
  g_autofree char *total_share = jvms_profile_format_share (node->total, all);
  g_autofree char *self_weight = jvms_profile_format_weight (unit, node->self);
  g_autofree char *self_share = jvms_profile_format_share (node->self, all);
  GString *text = g_string_new (index == 0 ? _("All stacks")
                                           : jvms_call_tree_get_method_name (tree, node->method));
  /* Translators: a line of the flame graph's tooltip: a weight and its share of the total. */
  g_string_append_printf (text, _("\nTotal: %s (%s)"), total, total_share);
  /* Translators: a line of the flame graph's tooltip: the weight with the frame on top. */
  g_string_append_printf (text, _("\nSelf: %s (%s)"), self_weight, self_share);
  if (paint->zoom != 0 && index != paint->zoom)
    {
      guint64 zoomed = jvms_call_tree_get_node (tree, paint->zoom)->total;
      g_autofree char *share = jvms_profile_format_share (node->total, zoomed);
      /* Translators: a line of the flame graph's tooltip: the frame's share of the frame the
       * graph is zoomed into. */
      g_string_append_printf (text, _("\n%s of the zoomed frame"), share);
    }
  if (jvms_call_tree_has_kernel_states (tree) && node->total_samples > 0)
    {
      g_autofree char *waiting = jvms_profile_format_share (node->total_states[JVMS_CPU_STATE_WAITING],
                                                           node->total_samples);
      g_autofree char *on = jvms_profile_format_share (node->total_states[JVMS_CPU_STATE_ON_CPU],
                                                      node->total_samples);
      /* Translators: a line of the flame graph's tooltip: kernel states of the samples. */
      g_string_append_printf (text, _("\nOn a CPU: %s, waiting for a CPU: %s"), on, waiting);
    }
  static const struct { JvmsFrameKind kind; const char *name; } kinds[] = {
    { JVMS_FRAME_KIND_INTERPRETED, N_("interpreted") },
    { JVMS_FRAME_KIND_JIT, N_("JIT-compiled") },
    { JVMS_FRAME_KIND_INLINED, N_("inlined") },
    { JVMS_FRAME_KIND_NATIVE, N_("native") },
    { JVMS_FRAME_KIND_CPP, N_("C++") },
    { JVMS_FRAME_KIND_KERNEL, N_("kernel") },
  };
  gboolean first = TRUE;
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    if (node->frame_kinds & (1u << kinds[k].kind))
      {
        /* Translators: the start of the flame graph tooltip's list of frame kinds. */
        g_string_append (text, first ? _("\nFrames: ") : ", ");
        g_string_append (text, _(kinds[k].name));
        first = FALSE;
      }
  return g_string_free (text, FALSE);
}

/* A pixel of background between neighbours, when there is room for it. */
static double
fill_width (const JvmsFlameRect *r)
{
  return r->width >= 3 ? r->width - 1 : r->width;
}

void
jvms_flame_paint_draw (const JvmsFlamePaint *paint, JvmsFlameLayout *layout, cairo_t *cr,
                       gboolean dark)
{
  const JvmsPalette *palette = jvms_palette_get (dark);
  JvmsColor text = jvms_flame_color_text (palette);

  for (guint i = 0; i < jvms_flame_layout_get_n_rects (layout); i++)
    {
      const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, i);
      JvmsColor color = jvms_flame_paint_color (paint, palette, r->node);
      double y = r->row * ROW_H, w = fill_width (r);
      jvms_color_set (cr, &color);
      cairo_rectangle (cr, r->x, y, w, ROW_H - 1);
      cairo_fill (cr);
      if (paint->matches != NULL && paint->matches[r->node] && r->width >= 3)
        {
          /* Matches outlined too: not by colour alone. */
          jvms_color_set (cr, &text);
          cairo_set_line_width (cr, 1);
          cairo_rectangle (cr, r->x + 0.5, y + 0.5, w - 1, ROW_H - 2);
          cairo_stroke (cr);
        }
      if (r->width < LABEL_MIN_WIDTH)
        continue;
      g_autofree char *label = jvms_flame_paint_label (paint, r->node);
      jvms_timeline_draw_label (cr, &text, r->x + 3, y + 3, (int) (r->width - 6), label, FALSE);
    }
}

static void
append_svg_color (GString *svg, const char *attribute, const JvmsColor *c)
{
  g_string_append_printf (svg, " %s=\"#%02x%02x%02x\"", attribute,
                          (int) CLAMP (c->r * 255 + 0.5, 0, 255), (int) CLAMP (c->g * 255 + 0.5, 0, 255),
                          (int) CLAMP (c->b * 255 + 0.5, 0, 255));
  if (c->a < 1)
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];
      g_string_append_printf (svg, " %s-opacity=\"%s\"", attribute,
                              g_ascii_formatd (number, sizeof number, "%.3f", c->a));
    }
}

/* Coordinates in the C locale whatever the user's: "12.5", never "12,5". */
static const char *
coord (char *buffer, double value)
{
  return g_ascii_formatd (buffer, G_ASCII_DTOSTR_BUF_SIZE, "%.3f", value);
}

char *
jvms_flame_paint_to_svg (const JvmsFlamePaint *paint, JvmsFlameLayout *layout, gboolean dark)
{
  const JvmsPalette *palette = jvms_palette_get (dark);
  JvmsColor text = jvms_flame_color_text (palette);
  double width = jvms_flame_layout_get_width (layout);
  int height = (int) jvms_flame_layout_get_n_rows (layout) * ROW_H;
  char a[G_ASCII_DTOSTR_BUF_SIZE], b[G_ASCII_DTOSTR_BUF_SIZE];
  char c[G_ASCII_DTOSTR_BUF_SIZE], d[G_ASCII_DTOSTR_BUF_SIZE];
  GString *svg = g_string_new ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");

  /* The labels' font: pango's "Sans 8" (jvms-timeline-labels.c). */
  g_string_append_printf (svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%d\" "
                          "viewBox=\"0 0 %s %d\" font-family=\"sans-serif\" font-size=\"8pt\">\n",
                          coord (a, width), height, coord (b, width), height);
  g_string_append (svg, "<rect width=\"100%\" height=\"100%\"");
  append_svg_color (svg, "fill", &palette->background);
  g_string_append (svg, "/>\n");
  for (guint i = 0; i < jvms_flame_layout_get_n_rects (layout); i++)
    {
      const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, i);
      JvmsColor color = jvms_flame_paint_color (paint, palette, r->node);
      double y = r->row * ROW_H, w = fill_width (r);
      g_autofree char *tooltip = jvms_flame_paint_describe (paint, r->node);
      g_autofree char *tooltip_xml = g_markup_escape_text (tooltip, -1);
      g_string_append_printf (svg, "<g><title>%s</title><rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%d\"",
                              tooltip_xml, coord (a, r->x), coord (b, y), coord (c, w), ROW_H - 1);
      append_svg_color (svg, "fill", &color);
      if (paint->matches != NULL && paint->matches[r->node] && r->width >= 3)
        {
          append_svg_color (svg, "stroke", &text);
          g_string_append (svg, " stroke-width=\"1\"");
        }
      g_string_append (svg, "/>");
      if (r->width >= LABEL_MIN_WIDTH)
        {
          /* A nested viewport clips the label to the frame, as the cairo path's ellipsis. */
          g_autofree char *label = jvms_flame_paint_label (paint, r->node);
          g_autofree char *label_xml = g_markup_escape_text (label, -1);
          g_string_append_printf (svg, "<svg x=\"%s\" y=\"%s\" width=\"%s\" height=\"%d\"><text x=\"0\" y=\"%s\"",
                                  coord (a, r->x + 3), coord (b, y), coord (c, r->width - 6), ROW_H - 1,
                                  coord (d, 13));
          append_svg_color (svg, "fill", &text);
          g_string_append_printf (svg, ">%s</text></svg>", label_xml);
        }
      g_string_append (svg, "</g>\n");
    }
  g_string_append (svg, "</svg>\n");
  return g_string_free (svg, FALSE);
}

static cairo_status_t
write_to_stream (void *closure, const unsigned char *data, unsigned int length)
{
  return g_output_stream_write_all (closure, data, length, NULL, NULL, NULL)
    ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static gboolean
write_png (const JvmsFlamePaint *paint, JvmsFlameLayout *layout, gboolean dark, GFile *file,
           GError **error)
{
  int width = (int) jvms_flame_layout_get_width (layout);
  int height = (int) jvms_flame_layout_get_n_rows (layout) * ROW_H;
  g_autofree char *name = g_file_get_parse_name (file);
  if (height > MAX_IMAGE_SIDE)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("%s: the flame graph is %d pixels high (its deepest stack), more than a PNG "
                     "image can hold here (%d): write an SVG"), name, height, MAX_IMAGE_SIDE);
      return FALSE;
    }
  g_autoptr(GFileOutputStream) out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  if (out == NULL)
    return FALSE;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, MAX (height, 1));
  cairo_t *cr = cairo_create (surface);
  /* A transparent image is unreadable in most viewers: the theme's background first. */
  jvms_color_set (cr, &jvms_palette_get (dark)->background);
  cairo_paint (cr);
  jvms_flame_paint_draw (paint, layout, cr, dark);
  cairo_destroy (cr);
  cairo_status_t status = cairo_surface_write_to_png_stream (surface, write_to_stream, out);
  cairo_surface_destroy (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", name, cairo_status_to_string (status));
      return FALSE;
    }
  return g_output_stream_close (G_OUTPUT_STREAM (out), NULL, error);
}

gboolean
jvms_flame_paint_write (const JvmsFlamePaint *paint, int width, gboolean dark, GFile *file,
                        GError **error)
{
  g_return_val_if_fail (paint != NULL && JVMS_IS_CALL_TREE (paint->tree), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (width > 0, FALSE);

  g_autoptr(JvmsFlameLayout) layout = jvms_flame_layout_new (paint->tree, paint->zoom, width,
                                                             JVMS_FLAME_MIN_WIDTH);
  g_autofree char *basename = g_file_get_basename (file);
  g_autofree char *lower = g_ascii_strdown (basename != NULL ? basename : "", -1);
  if (!g_str_has_suffix (lower, ".svg"))
    return write_png (paint, layout, dark, file, error);
  g_autofree char *svg = jvms_flame_paint_to_svg (paint, layout, dark);
  return g_file_replace_contents (file, svg, strlen (svg), NULL, FALSE, G_FILE_CREATE_NONE, NULL,
                                  NULL, error);
}
