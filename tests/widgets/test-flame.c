/* test-flame: the flame graph's geometry, zoom and search against a naive computation over the
 * folded stacks of random call trees, and the widget's drawing of it read back pixel by pixel.
 *
 * The trees come from random samples written through the sample store's writer and queried
 * (analysis/), as the window gets them. The naive side never looks at the layout's code: it
 * rebuilds every frame's place from the folded stacks (a prefix's width is the summed weight of
 * the stacks that begin with it; its x, the summed weight of the heavier sibling prefixes
 * before it). */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "jvms-flame-graph.h"
#include "jvms-flame-layout.h"
#include "jvms-palette.h"
#include "jvms-profile.h"
#include "jvms-samples.h"

static const char *const methods[] = {
  "app.Service.handle", "app.Service.parse", "app.codec.Json.decode", "java.util.HashMap.get",
  "java.util.HashMap.put", "app.Math.fib", "app.Store.write", "java.lang.Object.wait",
};
static const char *const roots[] = { "java.lang.Thread.run", "app.Main.main" };

typedef struct
{
  char         *dir;
  char         *path;
  JvmsProfile  *profile;
  JvmsCallTree *tree;
} Fixture;

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("jvmscope-flame-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "x.samples", NULL);
  g_autoptr(GError) error = NULL;
  JvmsSamplesWriter *w = jvms_samples_writer_new (f->path, &error);
  g_assert_no_error (error);
  guint32 type = jvms_samples_writer_intern_type (w, "jdk.ThreadPark", JVMS_SAMPLE_UNIT_NS, 0);
  guint32 thread = jvms_samples_writer_intern_thread (w, 7, "worker");
  /* Stacks of very different weights: wide frames, and frames thinner than a pixel. */
  guint n_stacks = GPOINTER_TO_UINT (data) > 0 ? GPOINTER_TO_UINT (data) : 60;
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);
  for (guint s = 0; s < n_stacks; s++)
    {
      guint depth = g_test_rand_int_range (1, 9);
      JvmsStackFrameIn in[9];
      in[depth - 1] = (JvmsStackFrameIn) { NULL, NULL, 1, JVMS_FRAME_KIND_JIT };
      g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
      for (guint k = 0; k < depth; k++)
        {
          const char *m = k == depth - 1 ? roots[g_test_rand_int_range (0, 2)]
                                         : methods[g_test_rand_int_range (0, G_N_ELEMENTS (methods))];
          const char *dot = strrchr (m, '.');
          char *cls = g_strndup (m, dot - m);
          g_ptr_array_add (owned, cls);
          in[k] = (JvmsStackFrameIn) { cls, dot + 1, 1,
                                       (JvmsFrameKind) g_test_rand_int_range (1, JVMS_FRAME_KIND_N) };
        }
      guint weight = g_test_rand_bit () ? g_test_rand_int_range (1, 50) : g_test_rand_int_range (1000, 100000);
      JvmsSampleRecord rec = {
        .time = t++,
        .type = type,
        .thread = thread,
        .stack = jvms_samples_writer_intern_frames (w, in, depth, FALSE),
        .weight = weight,
        .detail = JVMS_SAMPLES_NONE,
      };
      jvms_samples_writer_add_record (w, &rec);
    }
  g_assert_true (jvms_samples_writer_close (w, &error));
  g_assert_no_error (error);
  jvms_samples_writer_free (w);
  f->profile = jvms_profile_open (f->path, &error);
  g_assert_no_error (error);
  JvmsProfileQuery q = { .from = G_MININT64, .to = G_MAXINT64, .kind = JVMS_PROFILE_KIND_PARK };
  f->tree = jvms_profile_query (f->profile, &q, NULL, &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->tree);
  g_clear_object (&f->profile);
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
}

/* ---- the naive side: folded stacks -> frames ------------------------------------------------ */

typedef struct
{
  char    *path;      /* "a;b;c" from the root */
  guint    row;
  double   x, width;
  guint64  total;
} NaiveFrame;

static void
naive_frame_clear (gpointer data)
{
  g_free (((NaiveFrame *) data)->path);
}

/* Each line "a;b;c W" of the tree's folded stacks, split. */
static GPtrArray *
folded_lines (JvmsCallTree *tree, GArray *weights)
{
  g_autofree char *text = jvms_call_tree_to_folded (tree, 0);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint i = 0; lines[i] != NULL && lines[i][0] != '\0'; i++)
    {
      char *space = strrchr (lines[i], ' ');
      *space = '\0';
      guint64 w = g_ascii_strtoull (space + 1, NULL, 10);
      g_array_append_val (weights, w);
      g_ptr_array_add (stacks, g_strsplit (lines[i], ";", -1));
    }
  return stacks;
}

/* The summed weight of the stacks that begin with the frames of @prefix (n frames). */
static guint64
prefix_weight (GPtrArray *stacks, GArray *weights, char **prefix, guint n)
{
  guint64 sum = 0;
  for (guint i = 0; i < stacks->len; i++)
    {
      char **s = g_ptr_array_index (stacks, i);
      if (g_strv_length (s) < n)
        continue;
      gboolean same = TRUE;
      for (guint k = 0; k < n && same; k++)
        same = g_str_equal (s[k], prefix[k]);
      if (same)
        sum += g_array_index (weights, guint64, i);
    }
  return sum;
}

static int
compare_children (gconstpointer pa, gconstpointer pb, gpointer data)
{
  const NaiveFrame *a = pa, *b = pb;
  if (a->total != b->total)
    return a->total > b->total ? -1 : 1;
  return strcmp (strrchr (a->path, ';') ? strrchr (a->path, ';') + 1 : a->path,
                 strrchr (b->path, ';') ? strrchr (b->path, ';') + 1 : b->path);
}

/* Children of the frame @prefix (n frames) placed at [x, x + width), recursively, into @out;
 * those narrower than @min are left out with what is below them. */
static void
naive_place (GPtrArray *stacks, GArray *weights, char **prefix, guint n, double x, double scale,
             double min, GArray *out)
{
  g_autoptr(GArray) children = g_array_new (FALSE, FALSE, sizeof (NaiveFrame));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < stacks->len; i++)
    {
      char **s = g_ptr_array_index (stacks, i);
      if (g_strv_length (s) <= n || g_hash_table_contains (seen, s[n]))
        continue;
      gboolean same = TRUE;
      for (guint k = 0; k < n && same; k++)
        same = g_str_equal (s[k], prefix[k]);
      if (!same)
        continue;
      g_hash_table_add (seen, s[n]);
      NaiveFrame c = { .row = n + 1 };
      g_auto(GStrv) path = g_new0 (char *, n + 2);
      for (guint k = 0; k <= n; k++)
        path[k] = g_strdup (s[k]);
      c.path = g_strjoinv (";", path);
      c.total = prefix_weight (stacks, weights, path, n + 1);
      g_array_append_val (children, c);
    }
  g_array_sort_with_data (children, compare_children, NULL);
  guint64 elder = 0;
  for (guint i = 0; i < children->len; i++)
    {
      NaiveFrame *c = &g_array_index (children, NaiveFrame, i);
      c->x = x + elder * scale;
      c->width = c->total * scale;
      elder += c->total;
      if (c->width < min)
        {
          g_free (c->path);
          continue;
        }
      g_array_append_val (out, *c);
      g_auto(GStrv) path = g_strsplit (c->path, ";", -1);
      naive_place (stacks, weights, path, n + 1, c->x, scale, min, out);
    }
}

/* The path of methods of @node, from the root, as the folded stacks write it. */
static char *
node_path (JvmsCallTree *tree, guint32 node)
{
  GString *s = g_string_new (NULL);
  for (guint32 n = node; n != 0; n = jvms_call_tree_get_node (tree, n)->parent)
    {
      const char *name = jvms_call_tree_get_method_name (tree, jvms_call_tree_get_node (tree, n)->method);
      g_string_prepend (s, name);
      if (jvms_call_tree_get_node (tree, n)->parent != 0)
        g_string_prepend_c (s, ';');
    }
  return g_string_free (s, FALSE);
}

static void
check_layout (JvmsCallTree *tree, guint32 zoom, double width, double min)
{
  g_autoptr(JvmsFlameLayout) layout = jvms_flame_layout_new (tree, zoom, width, min);
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GPtrArray) stacks = folded_lines (tree, weights);
  g_autoptr(GArray) naive = g_array_new (FALSE, FALSE, sizeof (NaiveFrame));
  g_array_set_clear_func (naive, naive_frame_clear);

  g_autofree char *zoom_path = node_path (tree, zoom);
  g_auto(GStrv) prefix = zoom == 0 ? g_new0 (char *, 1) : g_strsplit (zoom_path, ";", -1);
  guint depth = g_strv_length (prefix);
  guint64 zoom_total = depth == 0 ? jvms_call_tree_get_total (tree) : prefix_weight (stacks, weights, prefix, depth);
  g_assert_cmpuint (zoom_total, ==, jvms_call_tree_get_node (tree, zoom)->total);
  naive_place (stacks, weights, prefix, depth, 0, width / (double) zoom_total, min, naive);

  /* The ancestors and the zoomed frame: full width on rows 0 .. depth. */
  guint n_rects = jvms_flame_layout_get_n_rects (layout);
  g_assert_cmpuint (n_rects, ==, depth + 1 + naive->len);
  for (guint r = 0; r <= depth; r++)
    {
      const JvmsFlameRect *rect = jvms_flame_layout_get_rect (layout, r);
      g_assert_cmpuint (rect->row, ==, r);
      g_assert_cmpfloat (rect->x, ==, 0);
      g_assert_cmpfloat (rect->width, ==, width);
      g_assert_true (rect->flags & JVMS_FLAME_RECT_ANCESTOR);
    }
  g_assert_cmpuint (jvms_flame_layout_get_rect (layout, depth)->node, ==, zoom);
  /* Every other frame where the naive placement puts it, by path. */
  g_autoptr(GHashTable) by_path = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < naive->len; i++)
    g_hash_table_insert (by_path, g_array_index (naive, NaiveFrame, i).path, &g_array_index (naive, NaiveFrame, i));
  double last_x = -1;
  guint last_row = 0;
  for (guint i = depth + 1; i < n_rects; i++)
    {
      const JvmsFlameRect *rect = jvms_flame_layout_get_rect (layout, i);
      g_autofree char *path = node_path (tree, rect->node);
      const NaiveFrame *want = g_hash_table_lookup (by_path, path);
      if (want == NULL)
        g_error ("frame %s drawn, the naive placement has no such frame", path);
      g_assert_cmpuint (rect->row, ==, want->row);
      g_assert_cmpfloat_with_epsilon (rect->x, want->x, 1e-6 * width);
      g_assert_cmpfloat_with_epsilon (rect->width, want->width, 1e-6 * width);
      /* Width proportional to weight. */
      g_assert_cmpfloat_with_epsilon (rect->width / width,
                                      (double) jvms_call_tree_get_node (tree, rect->node)->total / zoom_total, 1e-9);
      /* By row, then left to right. */
      if (rect->row == last_row)
        g_assert_cmpfloat (rect->x, >, last_x);
      else
        g_assert_cmpuint (rect->row, >, last_row);
      last_row = rect->row;
      last_x = rect->x;
    }

  /* Lookup just inside each frame's edges (the edges themselves are shared with the
   * neighbours, up to rounding). */
  for (guint i = 0; i < n_rects; i++)
    {
      const JvmsFlameRect *rect = jvms_flame_layout_get_rect (layout, i);
      double eps = MIN (1e-6 * width, rect->width / 4);
      g_assert_cmpint (jvms_flame_layout_find (layout, rect->x + eps, rect->row), ==, (int) i);
      g_assert_cmpint (jvms_flame_layout_find (layout, rect->x + rect->width - eps, rect->row), ==, (int) i);
      g_assert_cmpint (jvms_flame_layout_find_node (layout, rect->node), ==, (int) i);
    }
  /* Lookup: what lies under random points, against a scan of every rect. */
  for (guint k = 0; k < 500; k++)
    {
      double x = g_test_rand_double_range (-1, width + 1);
      guint row = g_test_rand_int_range (0, jvms_flame_layout_get_n_rows (layout) + 1);
      int found = jvms_flame_layout_find (layout, x, row), scan = -1;
      for (guint i = 0; i < n_rects; i++)
        {
          const JvmsFlameRect *rect = jvms_flame_layout_get_rect (layout, i);
          if (rect->row == row && x >= rect->x && x < rect->x + rect->width)
            scan = (int) i;
        }
      g_assert_cmpint (found, ==, scan);
    }
}

/* Widths proportional to weight, x from the heavier siblings, culling: whole tree and zoomed,
 * at several widths. */
static void
test_geometry (Fixture *f, gconstpointer data)
{
  static const double widths[] = { 1000, 333, 4096 };
  guint n = jvms_call_tree_get_n_nodes (f->tree);
  g_assert_cmpuint (n, >, 20);
  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    {
      check_layout (f->tree, 0, widths[w], 0.5);
      check_layout (f->tree, 0, widths[w], 0);
      for (guint k = 0; k < 8; k++)
        check_layout (f->tree, g_test_rand_int_range (1, n), widths[w], 0.5);
    }
}

/* Search: the matched weight is the weight of the stacks holding a matching frame, each once. */
static void
test_search (Fixture *f, gconstpointer data)
{
  static const char *const needles[] = { "hashmap", "Service", "fib", ".", "nothing-like-it", "JSON.DEC" };
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GPtrArray) stacks = folded_lines (f->tree, weights);
  guint n = jvms_call_tree_get_n_nodes (f->tree);
  g_autofree guint8 *matches = g_new0 (guint8, n);
  for (guint i = 0; i < G_N_ELEMENTS (needles); i++)
    {
      g_autofree char *needle = g_utf8_casefold (needles[i], -1);
      guint64 naive = 0;
      for (guint s = 0; s < stacks->len; s++)
        {
          char **frames = g_ptr_array_index (stacks, s);
          for (guint k = 0; frames[k] != NULL; k++)
            {
              g_autofree char *name = g_utf8_casefold (frames[k], -1);
              if (strstr (name, needle) != NULL)
                {
                  naive += g_array_index (weights, guint64, s);
                  break;
                }
            }
        }
      guint64 ours = jvms_flame_search (f->tree, needles[i], matches);
      g_assert_cmpuint (ours, ==, naive);
      for (guint k = 1; k < n; k++)
        {
          g_autofree char *name = g_utf8_casefold (jvms_call_tree_get_method_name (f->tree, jvms_call_tree_get_node (f->tree, k)->method), -1);
          g_assert_cmpint (matches[k], ==, strstr (name, needle) != NULL);
        }
      /* The widget says the same. */
      g_autoptr(JvmsFlameGraph) graph = g_object_ref_sink (JVMS_FLAME_GRAPH (jvms_flame_graph_new ()));
      jvms_flame_graph_set_tree (graph, f->tree);
      jvms_flame_graph_set_search (graph, needles[i]);
      g_assert_cmpuint (jvms_flame_graph_get_search_weight (graph), ==, naive);
    }
  g_assert_cmpuint (jvms_flame_search (f->tree, "", matches), ==, 0);
}

/* The widget: drawn frames where the layout says, matches in colour and the rest grey, zoom
 * and the way back, and a new tree keeping the zoomed path. */
static guint32
pixel (cairo_surface_t *surface, double x, double y)
{
  cairo_surface_flush (surface);
  const guint8 *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  return *(const guint32 *) (data + (int) y * stride + (int) x * 4) & 0xffffff;
}

static gboolean
is_grey (guint32 rgb)
{
  int r = rgb >> 16 & 0xff, g = rgb >> 8 & 0xff, b = rgb & 0xff;
  return MAX (MAX (r, g), b) - MIN (MIN (r, g), b) < 8;
}

static void
test_widget (Fixture *f, gconstpointer data)
{
  const int width = 900;
  g_autoptr(JvmsFlameGraph) graph = g_object_ref_sink (JVMS_FLAME_GRAPH (jvms_flame_graph_new ()));
  jvms_flame_graph_set_tree (graph, f->tree);
  jvms_flame_graph_set_search (graph, "HashMap");
  int height = jvms_flame_graph_render (graph, NULL, width, FALSE);
  g_assert_cmpint (height, >, 0);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cairo_t *cr = cairo_create (surface);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_paint (cr);
  g_assert_cmpint (jvms_flame_graph_render (graph, cr, width, FALSE), ==, height);
  cairo_destroy (cr);

  g_autoptr(JvmsFlameLayout) layout = jvms_flame_layout_new (f->tree, 0, width, 0.5);
  g_assert_cmpint (height, ==, (int) jvms_flame_layout_get_n_rows (layout) * JVMS_FLAME_GRAPH_ROW_HEIGHT);
  guint checked_match = 0, checked_other = 0;
  for (guint i = 0; i < jvms_flame_layout_get_n_rects (layout); i++)
    {
      const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, i);
      if (r->width < 6)
        continue;
      /* Inside the frame, clear of its outline and its label's first letters. */
      double x = r->x + r->width - 2.5, y = r->row * JVMS_FLAME_GRAPH_ROW_HEIGHT + JVMS_FLAME_GRAPH_ROW_HEIGHT - 3;
      guint32 rgb = pixel (surface, x, y);
      if (jvms_flame_graph_node_matches (graph, r->node))
        {
          g_assert_false (is_grey (rgb));
          checked_match++;
        }
      else
        {
          g_assert_true (is_grey (rgb));
          g_assert_cmphex (rgb, !=, 0xffffff);   /* a frame, not the background */
          checked_other++;
        }
    }
  g_assert_cmpuint (checked_match, >, 0);
  g_assert_cmpuint (checked_other, >, 0);
  /* Right of the widest frames' end on a deep row: background. */
  cairo_surface_destroy (surface);

  /* Zoom into a frame two rows down, then out again. */
  guint32 child = jvms_call_tree_get_node (f->tree, jvms_call_tree_get_node (f->tree, 0)->first_child)->first_child;
  g_assert_cmpuint (child, !=, JVMS_CALL_TREE_NONE);
  jvms_flame_graph_set_zoom (graph, child);
  g_assert_cmpuint (jvms_flame_graph_get_zoom (graph), ==, child);
  g_autoptr(JvmsFlameLayout) zoomed = jvms_flame_layout_new (f->tree, child, width, 0.5);
  int index = jvms_flame_layout_find_node (zoomed, child);
  g_assert_cmpint (index, >=, 0);
  g_assert_cmpfloat (jvms_flame_layout_get_rect (zoomed, index)->width, ==, width);
  g_assert_true (jvms_flame_graph_zoom_out (graph));
  g_assert_cmpuint (jvms_flame_graph_get_zoom (graph), ==, jvms_call_tree_get_node (f->tree, child)->parent);
  g_assert_true (jvms_flame_graph_zoom_out (graph));
  g_assert_cmpuint (jvms_flame_graph_get_zoom (graph), ==, 0);
  g_assert_false (jvms_flame_graph_zoom_out (graph));

  /* A new tree of the same samples over a shorter range: the zoom stays on the same methods. */
  jvms_flame_graph_set_zoom (graph, child);
  jvms_flame_graph_set_selected (graph, child);
  g_autofree char *path = node_path (f->tree, child);
  g_autoptr(GError) error = NULL;
  JvmsProfileQuery q = { .from = G_MININT64, .to = G_MAXINT64, .kind = JVMS_PROFILE_KIND_PARK };
  g_autoptr(JvmsCallTree) again = jvms_profile_query (f->profile, &q, NULL, &error);
  g_assert_no_error (error);
  jvms_flame_graph_set_tree (graph, again);
  g_autofree char *kept = node_path (again, jvms_flame_graph_get_zoom (graph));
  g_assert_cmpstr (kept, ==, path);
  g_autofree char *kept_selected = node_path (again, jvms_flame_graph_get_selected (graph));
  g_assert_cmpstr (kept_selected, ==, path);

  /* The tooltip names the method, self and total with their shares. */
  g_autofree char *text = jvms_flame_graph_describe_node (graph, child);
  const JvmsCallTreeNode *node = jvms_call_tree_get_node (f->tree, child);
  g_assert_nonnull (strstr (text, jvms_call_tree_get_method_name (f->tree, node->method)));
  g_autofree char *share = g_strdup_printf ("%.1f %%", 100.0 * node->total / jvms_call_tree_get_total (f->tree));
  g_assert_nonnull (strstr (text, share));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_printerr ("test-flame: no display (run under xvfb-run -a)\n");
      return 1;
    }
  adw_init ();
  adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_LIGHT);
  g_test_add ("/Widgets/flame/geometry", Fixture, GUINT_TO_POINTER (60), fixture_set_up, test_geometry, fixture_tear_down);
  g_test_add ("/Widgets/flame/geometry-many", Fixture, GUINT_TO_POINTER (400), fixture_set_up, test_geometry, fixture_tear_down);
  g_test_add ("/Widgets/flame/search", Fixture, NULL, fixture_set_up, test_search, fixture_tear_down);
  g_test_add ("/Widgets/flame/widget", Fixture, NULL, fixture_set_up, test_widget, fixture_tear_down);
  return g_test_run ();
}
