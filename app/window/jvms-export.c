/* jvms-export.c: exports through cairo (image and SVG surfaces) and json-glib. */
#include "config.h"

#include "jvms-export.h"

#include <cairo-svg.h>
#include <glib/gi18n.h>
#include <string.h>

static gboolean
has_suffix_nocase (GFile *file, const char *suffix)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *lower = g_ascii_strdown (name, -1);
  return g_str_has_suffix (lower, suffix);
}

static cairo_status_t
write_to_stream (void *closure, const unsigned char *data, unsigned int length)
{
  GOutputStream *out = closure;
  return g_output_stream_write_all (out, data, length, NULL, NULL, NULL)
    ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

typedef void (*DrawFunc) (gpointer data, cairo_t *cr, int width, int height, gboolean dark);

static void
draw_node (gpointer data, cairo_t *cr, int width, int height, gboolean dark)
{
  if (data != NULL)
    gsk_render_node_draw (data, cr);
}

/* The pixel rows from @y0 down of the stacked views: a whole image or one tile. */
typedef struct
{
  JvmsWindowViews *views;
  int              y0;
} ViewsPart;

static void
draw_views (gpointer data, cairo_t *cr, int width, int height, gboolean dark)
{
  ViewsPart *part = data;
  jvms_window_views_render (part->views, cr, width, part->y0, part->y0 + height, dark);
}

static gboolean
export_image (DrawFunc draw, gpointer data, int width, int height, GFile *file, GError **error)
{
  g_autoptr(GFileOutputStream) out = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE,
                                                     NULL, error);
  if (out == NULL)
    return FALSE;

  gboolean svg = has_suffix_nocase (file, ".svg");
  cairo_surface_t *surface = svg
    ? cairo_svg_surface_create_for_stream (write_to_stream, out, width, height)
    : cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cairo_t *cr = cairo_create (surface);
  gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  /* A transparent image is unreadable in most viewers: paint the theme's background first. */
  GdkRGBA bg = dark ? (GdkRGBA) { 0.14, 0.14, 0.14, 1 } : (GdkRGBA) { 1, 1, 1, 1 };
  gdk_cairo_set_source_rgba (cr, &bg);
  cairo_paint (cr);
  draw (data, cr, width, height, dark);
  cairo_destroy (cr);

  cairo_status_t status;
  if (svg)
    {
      cairo_surface_finish (surface);
      status = cairo_surface_status (surface);
    }
  else
    status = cairo_surface_write_to_png_stream (surface, write_to_stream, out);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_autofree char *path = g_file_get_parse_name (file);
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: %s", path,
                   cairo_status_to_string (status));
      return FALSE;
    }
  return g_output_stream_close (G_OUTPUT_STREAM (out), NULL, error);
}

gboolean
jvms_export_widget_image (GtkWidget *widget, GFile *file, GError **error)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  if (width <= 0 || height <= 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, "the views are not shown");
      return FALSE;
    }

  /* The widget's own render nodes, drawn with cairo: what is on screen, as vectors for SVG. */
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  g_autoptr(GskRenderNode) node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  return export_image (draw_node, node, width, height, file, error);
}

GFile *
jvms_export_tile_file (GFile *file, guint index)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  gsize stem = strlen (name);
  if (has_suffix_nocase (file, ".png"))
    stem -= 4;
  g_autofree char *tile = g_strdup_printf ("%.*s-%u.png", (int) stem, name, index);
  return parent != NULL ? g_file_get_child (parent, tile) : g_file_new_for_path (tile);
}

gboolean
jvms_export_views_image (JvmsWindowViews *views, GtkWidget *widget, GFile *file, guint *n_files,
                         GError **error)
{
  g_return_val_if_fail (views != NULL, FALSE);
  g_return_val_if_fail (GTK_IS_WIDGET (widget), FALSE);

  if (n_files != NULL)
    *n_files = 0;
  /* Offscreen, every view at its full height: rows scrolled out of the window are in the
   * image too. */
  int width = MAX (gtk_widget_get_width (widget), 800);
  int height = jvms_window_views_render (views, NULL, width, 0, 0, FALSE);
  if (height <= 0)
    {
      if (!jvms_export_widget_image (widget, file, error))
        return FALSE;
      if (n_files != NULL)
        *n_files = 1;
      return TRUE;
    }
  ViewsPart part = { views, 0 };
  if (has_suffix_nocase (file, ".svg") || height <= JVMS_EXPORT_TILE_HEIGHT)
    {
      if (!export_image (draw_views, &part, width, height, file, error))
        return FALSE;
      if (n_files != NULL)
        *n_files = 1;
      return TRUE;
    }
  /* Tiles: each its own image, rendered from the views alone. */
  for (guint i = 1; part.y0 < height; i++, part.y0 += JVMS_EXPORT_TILE_HEIGHT)
    {
      g_autoptr(GFile) tile = jvms_export_tile_file (file, i);
      if (!export_image (draw_views, &part, width, MIN (JVMS_EXPORT_TILE_HEIGHT, height - part.y0),
                         tile, error))
        return FALSE;
      if (n_files != NULL)
        *n_files = i;
    }
  return TRUE;
}

gboolean
jvms_export_flame_graph (JvmsProfilerPane *pane, GFile *file, GError **error)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (pane), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  /* The flame graph's own writer: an SVG with its labels as text and a tooltip per frame. */
  return jvms_profiler_pane_write_flame (pane, file,
                                         adw_style_manager_get_dark (adw_style_manager_get_default ()),
                                         error);
}

gboolean
jvms_export_statistics (const JvmsRangeStats *stats, GFile *file, GError **error)
{
  g_return_val_if_fail (stats != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  g_autofree char *text = has_suffix_nocase (file, ".json")
    ? jvms_range_stats_to_json (stats)
    : jvms_range_stats_to_csv (stats);
  return g_file_replace_contents (file, text, strlen (text), NULL, FALSE, G_FILE_CREATE_NONE,
                                  NULL, NULL, error);
}

typedef struct
{
  JvmsRangeStats *stats;  /* the rows at the time of asking */
  GWeakRef            toasts; /* the window may close while the dialog is up */
} ExportRequest;

static void
report (AdwToastOverlay *toasts, GFile *file, guint n_files, const GError *error)
{
  g_autofree char *name = g_file_get_basename (file);
  g_autofree char *text = NULL;
  if (error != NULL)
    /* Translators: %s is a file name, then the reason. */
    text = g_strdup_printf (_("Could not export to “%s”: %s"), name, error->message);
  else if (n_files > 1)
    {
      g_autoptr(GFile) first = jvms_export_tile_file (file, 1);
      g_autoptr(GFile) last = jvms_export_tile_file (file, n_files);
      g_autofree char *first_name = g_file_get_basename (first);
      g_autofree char *last_name = g_file_get_basename (last);
      /* Translators: an export too tall for one image, in tiles; file names of the first
       * and the last. */
      text = g_strdup_printf (_("Exported as %u images, “%s” to “%s”"), n_files, first_name,
                              last_name);
    }
  else
    /* Translators: %s is a file name. */
    text = g_strdup_printf (_("Exported to “%s”"), name);
  adw_toast_overlay_add_toast (toasts, adw_toast_new (text));
}

/* The dialog is modal to the window, whose views live as long as its widget: the weak
 * reference on the widget tells whether they are still there. */
typedef struct
{
  GWeakRef         widget;
  JvmsWindowViews *views;
} ImageRequest;

static void
image_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  ImageRequest *req = user_data;
  g_autoptr(GtkWidget) widget = g_weak_ref_get (&req->widget);
  if (response == GTK_RESPONSE_ACCEPT && widget != NULL)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      guint n_files = 0;
      jvms_export_views_image (req->views, widget, file, &n_files, &error);
      GtkWidget *overlay = gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);
      if (overlay != NULL)
        report (ADW_TOAST_OVERLAY (overlay), file, n_files, error);
    }
  g_weak_ref_clear (&req->widget);
  g_free (req);
  /* Unreferencing alone would leave the fallback GtkFileChooserDialog, a toplevel, alive. */
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static GtkFileChooserNative *
save_dialog (GtkWindow *parent, const char *title, const char *name,
             const char *filter1, const char *pattern1,
             const char *filter2, const char *pattern2)
{
  GtkFileChooserNative *chooser =
    gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                 _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (chooser), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  g_autoptr(GtkFileFilter) f1 = gtk_file_filter_new ();
  gtk_file_filter_set_name (f1, filter1);
  gtk_file_filter_add_pattern (f1, pattern1);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), f1);
  g_autoptr(GtkFileFilter) f2 = gtk_file_filter_new ();
  gtk_file_filter_set_name (f2, filter2);
  gtk_file_filter_add_pattern (f2, pattern2);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), f2);
  return chooser;
}

void
jvms_export_views_with_dialog (GtkWindow *parent, JvmsWindowViews *views, GtkWidget *widget)
{
  GtkFileChooserNative *chooser =
    save_dialog (parent, _("Export Views as Image"), _("views.png"),
                 _("PNG Image"), "*.png", _("SVG Image"), "*.svg");
  ImageRequest *req = g_new0 (ImageRequest, 1);
  g_weak_ref_init (&req->widget, widget);
  req->views = views;
  g_signal_connect (chooser, "response", G_CALLBACK (image_response), req);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
stats_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  ExportRequest *req = user_data;
  g_autoptr(AdwToastOverlay) toasts = g_weak_ref_get (&req->toasts);
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      jvms_export_statistics (req->stats, file, &error);
      if (toasts != NULL)
        report (toasts, file, 1, error);
    }
  g_weak_ref_clear (&req->toasts);
  jvms_range_stats_free (req->stats);
  g_free (req);
  /* Unreferencing alone would leave the fallback GtkFileChooserDialog, a toplevel, alive. */
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static JvmsRangeStats *
stats_copy (const JvmsRangeStats *stats)
{
  JvmsRangeStats *copy = g_new0 (JvmsRangeStats, 1);
  copy->t0 = stats->t0;
  copy->t1 = stats->t1;
  copy->origin = stats->origin;
  copy->rows = g_ptr_array_ref (stats->rows); /* rows are never modified once computed */
  return copy;
}

void
jvms_export_statistics_with_dialog (GtkWindow *parent, const JvmsRangeStats *stats,
                                    AdwToastOverlay *toasts)
{
  GtkFileChooserNative *chooser =
    save_dialog (parent, _("Export Selection Statistics"), _("selection.csv"),
                 _("CSV Table"), "*.csv", _("JSON Document"), "*.json");
  ExportRequest *req = g_new0 (ExportRequest, 1);
  req->stats = stats_copy (stats);
  g_weak_ref_init (&req->toasts, toasts);
  g_signal_connect (chooser, "response", G_CALLBACK (stats_response), req);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

/* ---- the profiler --------------------------------------------------------------------------- */

typedef struct
{
  JvmsExportProfile what;
  GWeakRef          pane;
  GWeakRef          toasts;
  char             *text;    /* folded stacks or CSV, as they were when asked */
} ProfileRequest;

static void
profile_response (GtkNativeDialog *dialog, int response, gpointer user_data)
{
  ProfileRequest *req = user_data;
  g_autoptr(JvmsProfilerPane) pane = g_weak_ref_get (&req->pane);
  g_autoptr(AdwToastOverlay) toasts = g_weak_ref_get (&req->toasts);
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr(GError) error = NULL;
      if (req->what == JVMS_EXPORT_PROFILE_FLAME_GRAPH)
        {
          if (pane != NULL)
            jvms_export_flame_graph (pane, file, &error);
        }
      else
        g_file_replace_contents (file, req->text, strlen (req->text), NULL, FALSE,
                                 G_FILE_CREATE_NONE, NULL, NULL, &error);
      if (toasts != NULL)
        report (toasts, file, 1, error);
    }
  g_weak_ref_clear (&req->pane);
  g_weak_ref_clear (&req->toasts);
  g_free (req->text);
  g_free (req);
  /* Unreferencing alone would leave the fallback GtkFileChooserDialog, a toplevel, alive. */
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

void
jvms_export_profile_with_dialog (GtkWindow *parent, JvmsProfilerPane *pane, JvmsExportProfile what,
                                 AdwToastOverlay *toasts)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (pane));
  GtkFileChooserNative *chooser;
  ProfileRequest *req = g_new0 (ProfileRequest, 1);
  req->what = what;
  switch (what)
    {
    case JVMS_EXPORT_PROFILE_FOLDED:
      req->text = jvms_profiler_pane_dup_folded (pane);
      chooser = save_dialog (parent, _("Export Folded Stacks"), _("profile.folded"),
                             _("Folded Stacks"), "*.folded", _("Text"), "*.txt");
      break;
    case JVMS_EXPORT_PROFILE_METHODS:
      req->text = jvms_profiler_pane_dup_csv (pane);
      chooser = save_dialog (parent, _("Export Method Table"), _("methods.csv"),
                             _("CSV Table"), "*.csv", _("All Files"), "*");
      break;
    case JVMS_EXPORT_PROFILE_FLAME_GRAPH:
    default:
      chooser = save_dialog (parent, _("Export Flame Graph as Image"), _("flame-graph.svg"),
                             _("SVG Image"), "*.svg", _("PNG Image"), "*.png");
      break;
    }
  if (what != JVMS_EXPORT_PROFILE_FLAME_GRAPH && req->text == NULL)
    req->text = g_strdup ("");
  g_weak_ref_init (&req->pane, pane);
  g_weak_ref_init (&req->toasts, toasts);
  g_signal_connect (chooser, "response", G_CALLBACK (profile_response), req);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}
