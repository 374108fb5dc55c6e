/* jvms-diff-flame.c: the differential flame graph (see the header). */
#include "config.h"

#include "jvms-diff-flame.h"

#include <glib/gi18n.h>
#include <math.h>

#include "jvms-flame-colors.h"
#include "jvms-flame-layout.h"

#define ROW_H 18
#define MIN_WIDTH 0.5
#define LABEL_MIN_WIDTH 28

struct _JvmsDiffFlame
{
  GtkWidget        parent_instance;

  JvmsProfileDiff *diff;
  guint32          zoom;
  JvmsFlameLayout *layout;
};

G_DEFINE_FINAL_TYPE (JvmsDiffFlame, jvms_diff_flame, GTK_TYPE_WIDGET)

GtkWidget *
jvms_diff_flame_new (void)
{
  return g_object_new (JVMS_TYPE_DIFF_FLAME, NULL);
}

JvmsColor
jvms_diff_flame_color (const JvmsPalette *palette, double change, double scale)
{
  /* Okabe & Ito's vermillion (grew) and blue (shrank), from the neutral grey. */
  static const JvmsColor grew = { 0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0, 1 };
  static const JvmsColor shrank = { 0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0, 1 };
  JvmsColor grey = jvms_flame_color_neutral (palette);
  double t = scale > 0 ? CLAMP (fabs (change) / scale, 0, 1) : 0;
  /* At most 80 % of the hue: the labels' dark ink stays readable on the strongest fill. */
  t *= palette->dark ? 0.7 : 0.8;
  const JvmsColor *hue = change > 0 ? &grew : &shrank;
  JvmsColor out = { grey.r + (hue->r - grey.r) * t, grey.g + (hue->g - grey.g) * t,
                    grey.b + (hue->b - grey.b) * t, 1 };
  return out;
}

static JvmsFlameLayout *
ensure_layout (JvmsDiffFlame *self, double width)
{
  if (self->diff == NULL || width <= 0)
    return NULL;
  if (self->layout != NULL && jvms_flame_layout_get_width (self->layout) == width)
    return self->layout;
  g_clear_pointer (&self->layout, jvms_flame_layout_free);
  self->layout = jvms_flame_layout_new (jvms_profile_diff_get_other (self->diff), self->zoom, width, MIN_WIDTH);
  return self->layout;
}

static void
jvms_diff_flame_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  JvmsDiffFlame *self = JVMS_DIFF_FLAME (widget);
  int width = gtk_widget_get_width (widget);
  JvmsFlameLayout *layout = ensure_layout (self, width);
  if (layout == NULL)
    return;
  const JvmsPalette *palette = jvms_palette_get (jvms_palette_system_is_dark ());
  JvmsCallTree *tree = jvms_profile_diff_get_other (self->diff);
  double scale = jvms_profile_diff_get_max_change (self->diff);
  JvmsColor ink = jvms_flame_color_text (palette);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, gtk_widget_get_height (widget)));
  PangoLayout *text = gtk_widget_create_pango_layout (widget, NULL);
  pango_layout_set_ellipsize (text, PANGO_ELLIPSIZE_END);
  for (guint i = 0; i < jvms_flame_layout_get_n_rects (layout); i++)
    {
      const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, i);
      const JvmsProfileDiffFrame *f = jvms_profile_diff_get_other_frame (self->diff, r->node);
      JvmsColor fill = r->node == 0 ? jvms_flame_color_neutral (palette)
                                    : jvms_diff_flame_color (palette, f->change, scale);
      double y = r->row * ROW_H, w = r->width >= 3 ? r->width - 1 : r->width;
      jvms_color_set (cr, &fill);
      cairo_rectangle (cr, r->x, y, w, ROW_H - 1);
      cairo_fill (cr);
      if (r->width < LABEL_MIN_WIDTH)
        continue;
      g_autofree char *label = NULL;
      if (r->node == 0)
        label = g_strdup (_("All stacks"));
      else
        {
          const char *method = jvms_call_tree_get_method_name (tree, jvms_call_tree_get_node (tree, r->node)->method);
          gsize package = method[0] == '[' ? 0 : jvms_flame_package_length (method);
          /* The change in the label too: not by colour alone. */
          label = g_strdup_printf ("%s %+.1f%%", package > 0 ? method + package + 1 : method, f->change * 100);
        }
      pango_layout_set_text (text, label, -1);
      pango_layout_set_width (text, (int) ((w - 6) * PANGO_SCALE));
      jvms_color_set (cr, &ink);
      cairo_move_to (cr, r->x + 3, y + 1);
      pango_cairo_show_layout (cr, text);
    }
  g_object_unref (text);
  cairo_destroy (cr);
}

static void
jvms_diff_flame_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                         int *natural, int *minimum_baseline, int *natural_baseline)
{
  JvmsDiffFlame *self = JVMS_DIFF_FLAME (widget);
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 100;
      *natural = 600;
      return;
    }
  guint rows = 0;
  if (self->diff != NULL)
    {
      /* Every row below the zoom, culled or not: the height does not jump with the width. */
      g_autoptr(JvmsFlameLayout) probe = jvms_flame_layout_new (jvms_profile_diff_get_other (self->diff),
                                                                 self->zoom, 1, 0);
      rows = jvms_flame_layout_get_n_rows (probe);
    }
  *minimum = *natural = (int) rows * ROW_H;
}

static void
jvms_diff_flame_size_allocate (GtkWidget *widget, int width, int height, int baseline)
{
  JvmsDiffFlame *self = JVMS_DIFF_FLAME (widget);
  if (self->layout != NULL && jvms_flame_layout_get_width (self->layout) != width)
    g_clear_pointer (&self->layout, jvms_flame_layout_free);
}

char *
jvms_diff_flame_describe (JvmsDiffFlame *self, guint32 node)
{
  g_return_val_if_fail (JVMS_IS_DIFF_FLAME (self) && self->diff != NULL, NULL);
  JvmsCallTree *tree = jvms_profile_diff_get_other (self->diff);
  g_return_val_if_fail (node < jvms_call_tree_get_n_nodes (tree), NULL);
  const JvmsProfileDiffFrame *f = jvms_profile_diff_get_other_frame (self->diff, node);
  const char *method = node == 0 ? _("All stacks")
                                 : jvms_call_tree_get_method_name (tree, jvms_call_tree_get_node (tree, node)->method);
  /* Translators: the differential flame graph's tooltip: the method, its share of the samples
   * (with it on the stack) in the baseline and the other trace, and the change in points. */
  return g_strdup_printf (_("%s\nBaseline: %.1f %%, other: %.1f %% (%+.1f %%)\nSelf: %.1f %% → %.1f %%"),
                          method, f->baseline_share * 100, f->other_share * 100, f->change * 100,
                          f->baseline_self_share * 100, f->other_self_share * 100);
}

static gboolean
jvms_diff_flame_query_tooltip (GtkWidget *widget, int x, int y, gboolean keyboard, GtkTooltip *tooltip)
{
  JvmsDiffFlame *self = JVMS_DIFF_FLAME (widget);
  int index = self->layout != NULL && y >= 0 ? jvms_flame_layout_find (self->layout, x, (guint) (y / ROW_H)) : -1;
  if (index < 0)
    return FALSE;
  const JvmsFlameRect *r = jvms_flame_layout_get_rect (self->layout, index);
  g_autofree char *text = jvms_diff_flame_describe (self, r->node);
  gtk_tooltip_set_text (tooltip, text);
  return TRUE;
}

static void
set_zoom (JvmsDiffFlame *self, guint32 zoom)
{
  if (zoom == self->zoom)
    return;
  self->zoom = zoom;
  g_clear_pointer (&self->layout, jvms_flame_layout_free);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
pressed (GtkGestureClick *gesture, int n_press, double x, double y, JvmsDiffFlame *self)
{
  int index = self->layout != NULL && y >= 0 ? jvms_flame_layout_find (self->layout, x, (guint) (y / ROW_H)) : -1;
  if (index >= 0)
    set_zoom (self, jvms_flame_layout_get_rect (self->layout, index)->node);
}

void
jvms_diff_flame_set_diff (JvmsDiffFlame *self, JvmsProfileDiff *diff)
{
  g_return_if_fail (JVMS_IS_DIFF_FLAME (self));
  g_clear_pointer (&self->diff, jvms_profile_diff_free);
  g_clear_pointer (&self->layout, jvms_flame_layout_free);
  self->diff = diff;
  self->zoom = 0;
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

JvmsProfileDiff *
jvms_diff_flame_get_diff (JvmsDiffFlame *self)
{
  g_return_val_if_fail (JVMS_IS_DIFF_FLAME (self), NULL);
  return self->diff;
}

guint32
jvms_diff_flame_get_zoom (JvmsDiffFlame *self)
{
  g_return_val_if_fail (JVMS_IS_DIFF_FLAME (self), 0);
  return self->zoom;
}

static int
wider_first (gconstpointer a, gconstpointer b, gpointer layout)
{
  double wa = jvms_flame_layout_get_rect (layout, *(const guint *) a)->width;
  double wb = jvms_flame_layout_get_rect (layout, *(const guint *) b)->width;
  return wa > wb ? -1 : wa < wb ? 1 : (int) *(const guint *) a - (int) *(const guint *) b;
}

char *
jvms_diff_flame_describe_frames (JvmsDiffFlame *self, guint limit)
{
  g_return_val_if_fail (JVMS_IS_DIFF_FLAME (self), NULL);
  GString *out = g_string_new (NULL);
  JvmsFlameLayout *layout = self->layout;
  if (layout == NULL || self->diff == NULL)
    return g_string_free (out, FALSE);
  guint n = jvms_flame_layout_get_n_rects (layout);
  g_autoptr(GArray) order = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);
  for (guint i = 0; i < n; i++)
    g_array_append_val (order, i);
  /* Widest first: what a reader sees first, and what a test can find on screen. */
  g_array_sort_with_data (order, wider_first, layout);
  for (guint k = 0; k < n && (limit == 0 || k < limit); k++)
    {
      const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, g_array_index (order, guint, k));
      if (r->node == 0)
        continue;
      /* The frame's path as the diff matched it (hidden classes folded: the path
       * `compare --profile` prints). */
      const JvmsProfileDiffFrame *frame = jvms_profile_diff_get_other_frame (self->diff, r->node);
      g_autofree char *path = jvms_profile_diff_dup_other_path (self->diff, r->node);
      char change[G_ASCII_DTOSTR_BUF_SIZE];
      g_ascii_formatd (change, sizeof change, "%.17g", frame->change);
      g_string_append_printf (out, "%s\t%s\t%d\t%d\t%u\n", path, change, (int) r->x, (int) r->width, r->row);
    }
  return g_string_free (out, FALSE);
}

static void
jvms_diff_flame_dispose (GObject *object)
{
  JvmsDiffFlame *self = JVMS_DIFF_FLAME (object);
  g_clear_pointer (&self->layout, jvms_flame_layout_free);
  g_clear_pointer (&self->diff, jvms_profile_diff_free);
  G_OBJECT_CLASS (jvms_diff_flame_parent_class)->dispose (object);
}

static void
jvms_diff_flame_class_init (JvmsDiffFlameClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  object_class->dispose = jvms_diff_flame_dispose;
  widget_class->snapshot = jvms_diff_flame_snapshot;
  widget_class->measure = jvms_diff_flame_measure;
  widget_class->size_allocate = jvms_diff_flame_size_allocate;
  widget_class->query_tooltip = jvms_diff_flame_query_tooltip;
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
jvms_diff_flame_init (JvmsDiffFlame *self)
{
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
  GtkGesture *click = gtk_gesture_click_new ();
  g_signal_connect (click, "pressed", G_CALLBACK (pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Differential flame graph"), -1);
}
