/* jvmscope-view-demo: a developer's window showing every view over one history, to look at
 * them. Not installed. Usage: jvmscope-view-demo [--dark] [HISTORY-FILE]; without a file it
 * writes a synthetic history into a temporary folder. */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "jvms-counters-view.h"
#include "jvms-cpus-view.h"
#include "jvms-gc-view.h"
#include "jvms-locks-view.h"
#include "jvms-object-age-samples.h"
#include "jvms-object-age-view.h"
#include "jvms-synthetic-history.h"
#include "jvms-threads-view.h"
#include "jvms-time-ruler.h"
#include "jvms-view-render.h"

static gboolean dark;
static gboolean natural;
static char *select_range;
static char *zoom_range;
static char **files;
static char *export_dir;

/* Offscreen PNGs of every view at 1600 px wide, as an export would write them. */
static void
export_views (GtkWidget **views,
              guint       n_views,
              int        *heights)
{
  for (guint i = 0; i < n_views; i++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1600, heights[i]);
      cairo_t *cr = cairo_create (surface);
      g_autofree char *name = g_strdup_printf ("%s/view-%u-%s.png", export_dir, i,
                                               dark ? "dark" : "light");
      jvms_view_render (views[i], cr, 1600, heights[i]);
      cairo_destroy (cr);
      cairo_surface_write_to_png (surface, name);
      cairo_surface_destroy (surface);
    }
}

static void
add_view (GtkBox    *box,
          GtkWidget *view,
          int        height)
{
  /* --natural: every view at its full height, the window scrolls them (as the app does). */
  if (!natural)
    gtk_widget_set_size_request (view, -1, height);
  gtk_box_append (box, view);
  gtk_box_append (box, gtk_separator_new (GTK_ORIENTATION_HORIZONTAL));
}

static void
on_activate (GtkApplication *app,
             JvmsHistory    *history)
{
  JvmsSession *session = jvms_session_new ();
  GtkWidget *window = adw_application_window_new (app);
  GtkWidget *outer = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *search = gtk_search_entry_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *threads, *age;
  g_autoptr(GArray) samples = NULL;

  adw_style_manager_set_color_scheme (adw_style_manager_get_default (),
                                      dark ? ADW_COLOR_SCHEME_FORCE_DARK
                                           : ADW_COLOR_SCHEME_FORCE_LIGHT);
  jvms_session_set_history (session, history);
  if (zoom_range != NULL)
    {
      double a = g_ascii_strtod (zoom_range, NULL);
      double b = g_ascii_strtod (strchr (zoom_range, ':') ? strchr (zoom_range, ':') + 1 : "1", NULL);
      gint64 s = jvms_session_get_start_time (session), e = jvms_session_get_end_time (session);
      jvms_session_set_visible (session, s + (gint64) (a * (e - s)), s + (gint64) (b * (e - s)), TRUE);
    }
  if (select_range != NULL)
    {
      /* "A:B": fractions of the trace to select, for screenshots of the selection band. */
      double a = g_ascii_strtod (select_range, NULL);
      double b = g_ascii_strtod (strchr (select_range, ':') ? strchr (select_range, ':') + 1 : "1", NULL);
      gint64 s = jvms_session_get_start_time (session), e = jvms_session_get_end_time (session);
      jvms_session_set_selection (session, s + (gint64) (a * (e - s)), s + (gint64) (b * (e - s)));
    }

  gtk_window_set_title (GTK_WINDOW (window), "Jvmscope view demo");
  gtk_window_set_default_size (GTK_WINDOW (window), 1400, 1000);
  adw_header_bar_set_title_widget (ADW_HEADER_BAR (header), search);
  gtk_box_append (GTK_BOX (outer), header);
  gtk_box_append (GTK_BOX (outer), jvms_time_ruler_new (session));

  threads = jvms_threads_view_new (session);
  g_object_bind_property (search, "text", threads, "filter", G_BINDING_DEFAULT);
  add_view (GTK_BOX (box), threads, 340);
  add_view (GTK_BOX (box), jvms_cpus_view_new (session), 150);
  add_view (GTK_BOX (box), jvms_locks_view_new (session), 120);
  add_view (GTK_BOX (box), jvms_gc_view_new (session), 150);
  add_view (GTK_BOX (box), jvms_counters_view_new (session), 180);
  age = jvms_object_age_view_new (session);
  /* A real index has its sample store beside it (X.jvmsidx, X.samples). */
  if (g_str_has_suffix (jvms_history_get_path (history), ".jvmsidx"))
    {
      const char *p = jvms_history_get_path (history);
      g_autofree char *base = g_strndup (p, strlen (p) - strlen (".jvmsidx"));
      g_autofree char *store = g_strconcat (base, ".samples", NULL);
      if (g_file_test (store, G_FILE_TEST_EXISTS) && files != NULL)
        samples = jvms_object_age_samples_read (store, NULL, NULL);
    }
  if (samples == NULL)
    samples = jvms_synthetic_object_samples (jvms_session_get_start_time (session),
                                             jvms_session_get_end_time (session), 400, 7);
  jvms_object_age_view_set_samples (JVMS_OBJECT_AGE_VIEW (age),
                                    (JvmsObjectAgeSample *) samples->data, samples->len);
  add_view (GTK_BOX (box), age, 190);

  if (export_dir != NULL)
    {
      GtkWidget *all[7];
      int heights[7] = { 30, 400, 170, 140, 170, 260, 200 };
      GtkWidget *child = gtk_widget_get_first_child (box);
      guint n = 0;

      all[n++] = gtk_widget_get_first_child (outer) != NULL
                   ? gtk_widget_get_next_sibling (gtk_widget_get_first_child (outer)) : NULL;
      for (; child != NULL && n < 7; child = gtk_widget_get_next_sibling (child))
        if (!GTK_IS_SEPARATOR (child))
          all[n++] = child;
      export_views (all, n, heights);
      g_object_unref (session);
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), box);
  if (natural)
    gtk_scrollable_set_vscroll_policy (GTK_SCROLLABLE (gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scroller))),
                                       GTK_SCROLL_NATURAL);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_box_append (GTK_BOX (outer), scroller);
  adw_application_window_set_content (ADW_APPLICATION_WINDOW (window), outer);
  g_object_set_data_full (G_OBJECT (window), "session", session, g_object_unref);
  gtk_window_present (GTK_WINDOW (window));
  gtk_widget_grab_focus (threads);
}

int
main (int   argc,
      char *argv[])
{
  const GOptionEntry entries[] = {
    { "dark", 0, 0, G_OPTION_ARG_NONE, &dark, "Dark theme", NULL },
    { "natural", 0, 0, G_OPTION_ARG_NONE, &natural, "Views at natural height", NULL },
    { "export", 0, 0, G_OPTION_ARG_FILENAME, &export_dir, "Write PNGs of the views into DIR", "DIR" },
    { "zoom", 0, 0, G_OPTION_ARG_STRING, &zoom_range, "Show A:B (fractions)", "A:B" },
    { "select", 0, 0, G_OPTION_ARG_STRING, &select_range, "Select A:B (fractions)", "A:B" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, "[HISTORY]" },
    G_OPTION_ENTRY_NULL
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsHistory) history = NULL;
  g_autoptr(AdwApplication) app = NULL;
  g_autofree char *tmp = NULL;
  g_autofree char *path = NULL;
  int status;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (files != NULL && files[0] != NULL)
    path = g_strdup (files[0]);
  else
    {
      JvmsSyntheticOptions options;
      tmp = g_dir_make_tmp ("jvmscope-view-demo-XXXXXX", &error);
      if (tmp == NULL)
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
      path = g_build_filename (tmp, "synthetic.jvmsidx", NULL);
      jvms_synthetic_options_init (&options);
      if (!jvms_synthetic_history_write (path, &options, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }
    }
  history = jvms_history_open (path, 0, &error);
  if (history == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  app = adw_application_new ("org.jvmscope.ViewDemo", G_APPLICATION_NON_UNIQUE);
  g_signal_connect (app, "activate", G_CALLBACK (on_activate), history);
  status = g_application_run (G_APPLICATION (app), 1, argv);
  if (tmp != NULL)
    {
      g_unlink (path);
      g_rmdir (tmp);
    }
  g_strfreev (files);
  return status;
}
