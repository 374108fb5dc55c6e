/* jvms-profiler-pane.c: the profiler pane (see the header). Queries run in workers and are
 * cancelled by the next change, as the selection panel's statistics are. */
#include "config.h"

#include "jvms-profiler-pane.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "jvms-call-tree-focus.h"
#include "jvms-call-tree-view.h"
#include "jvms-flame-colors.h"
#include "jvms-flame-graph.h"
#include "jvms-method-table.h"
#include "jvms-profile-format.h"
#include "jvms-profile.h"

/* The kinds offered, in the chooser's order; the store's event types follow them. */
static const struct
{
  const char *name;
  const char *label;
} fixed_kinds[] = {
  { "cpu", N_("CPU Samples") },
  { "cpu-waiting", N_("CPU Samples Waiting for a CPU") },
  { "alloc", N_("Allocation") },
  { "lock", N_("Monitor Blocking") },
  { "wait", N_("Waiting (Object.wait)") },
  { "park", N_("Parking") },
  { "sleep", N_("Sleeping") },
  { "io", N_("Socket and File I/O") },
  { "exception", N_("Exceptions") },
  { "wall", N_("Wall Clock") },
};

static const char *const color_labels[] = {
  N_("Colour by Package"), N_("Colour by Frame Kind"), N_("Colour by Kernel State"),
};

struct _JvmsProfilerPane
{
  GtkWidget           parent_instance;

  JvmsSession        *session;
  char               *samples_path;
  JvmsProfile        *profile;
  char               *open_error;
  GHashTable         *thread_names;        /* gint64* tid -> name, from the store */
  GPtrArray          *kinds;               /* char*: the chooser's kinds, by position */
  GtkStringList      *kind_labels;

  /* The query shown (tree) and the one asked for. */
  GCancellable       *query_cancellable;
  gboolean            query_pending;
  char               *query_error;
  JvmsCallTree       *tree;
  gint64              from, to;
  GArray             *tids;                /* gint64; empty: all threads */
  char               *kind;                /* of the tree */

  /* The selected method: its callers, callees and instants. */
  guint32             method;
  JvmsCallTree       *callers;
  JvmsCallTree       *callees;
  GCancellable       *instants_cancellable;
  gboolean            instants_pending;
  JvmsMethodInstants *instants;

  /* Template children */
  GtkDropDown        *kind_dropdown;
  GtkDropDown        *color_dropdown;
  GtkSearchEntry     *search_entry;
  GtkLabel           *search_label;
  GtkLabel           *scope_label;
  GtkLabel           *method_label;
  GtkStack           *stack;
  GtkScrolledWindow  *flame_scroller;
  JvmsFlameGraph     *flame_graph;
  GtkBox             *legend_box;
  JvmsCallTreeView   *call_tree;
  JvmsCallTreeView   *callers_view;
  JvmsCallTreeView   *callees_view;
  JvmsMethodTable    *method_table;
  GtkWidget          *all_threads_button;
};

enum
{
  PROP_0,
  PROP_TREE,
  PROP_INSTANTS,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (JvmsProfilerPane, jvms_profiler_pane, GTK_TYPE_WIDGET)

static void start_query (JvmsProfilerPane *self);
static void refresh_method (JvmsProfilerPane *self);

/* ---- what is shown -------------------------------------------------------------------------- */

static void
notify_busy (JvmsProfilerPane *self, gboolean was)
{
  if (was != jvms_profiler_pane_get_busy (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static const char *
kind_label (JvmsProfilerPane *self, const char *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixed_kinds); i++)
    if (g_strcmp0 (fixed_kinds[i].name, kind) == 0)
      return _(fixed_kinds[i].label);
  return kind;
}

static char *
threads_text (JvmsProfilerPane *self)
{
  if (self->tids->len == 0)
    return g_strdup (_("all threads"));
  g_autoptr(GString) names = g_string_new (NULL);
  for (guint i = 0; i < self->tids->len && i < 3; i++)
    {
      gint64 tid = g_array_index (self->tids, gint64, i);
      const char *name = self->thread_names != NULL ? g_hash_table_lookup (self->thread_names, &tid) : NULL;
      if (names->len > 0)
        g_string_append (names, ", ");
      if (name != NULL)
        g_string_append (names, name);
      else
        g_string_append_printf (names, "%" G_GINT64_FORMAT, tid);
    }
  if (self->tids->len > 3)
    g_string_append (names, ", …");
  /* Translators: which threads the profile shows; %u is their number, %s their names. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u thread (%s)", "%u threads (%s)",
                                       self->tids->len),
                          self->tids->len, names->str);
}

static void
update_scope_text (JvmsProfilerPane *self)
{
  gtk_widget_set_visible (self->all_threads_button,
                          self->session != NULL
                          && jvms_session_get_highlighted_threads (self->session)->len > 0);
  if (self->samples_path == NULL)
    {
      gtk_label_set_text (self->scope_label, _("The profile is shown once the trace is indexed."));
      return;
    }
  if (self->profile == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The stacks cannot be read: %s"),
                                               self->open_error ? self->open_error : "");
      gtk_label_set_text (self->scope_label, text);
      return;
    }
  if (self->tree == NULL)
    {
      gtk_label_set_text (self->scope_label, self->query_error != NULL ? self->query_error
                                                                       : _("Computing the profile…"));
      return;
    }
  gint64 span = self->to - self->from;
  g_autofree char *from = jvms_session_format_time (self->session, self->from, span);
  g_autofree char *to = jvms_session_format_time (self->session, self->to, span);
  g_autofree char *duration = jvms_session_format_duration (self->session, span);
  g_autofree char *threads = threads_text (self);
  const char *unit = jvms_call_tree_get_unit (self->tree);
  g_autofree char *total = jvms_profile_format_weight (unit, jvms_call_tree_get_total (self->tree));
  gboolean selected = self->session != NULL && jvms_session_get_has_selection (self->session);
  GString *text = g_string_new (NULL);
  /* Translators: the profiler pane's scope: what it sums, the range (from, to, duration), the
   * threads and the total, e.g. "CPU Samples · the selection, +1.2 s to +2.5 s (1.3 s) · all
   * threads · 1,234 samples". */
  g_string_append_printf (text, selected ? _("%s · the selection, %s to %s (%s) · %s · %s")
                                         : _("%s · the whole trace, %s to %s (%s) · %s · %s"),
                          kind_label (self, self->kind), from, to, duration, threads, total);
  if (jvms_call_tree_has_kernel_states (self->tree))
    {
      const JvmsCallTreeNode *root = jvms_call_tree_get_node (self->tree, 0);
      g_autofree char *on = jvms_profile_format_share (root->total_states[JVMS_CPU_STATE_ON_CPU], root->total_samples);
      g_autofree char *waiting = jvms_profile_format_share (root->total_states[JVMS_CPU_STATE_WAITING], root->total_samples);
      /* Translators: appended to the scope for CPU samples with the kernel's view. */
      g_string_append_printf (text, _(" · on a CPU %s, waiting for a CPU %s"), on, waiting);
    }
  if (jvms_call_tree_get_total (self->tree) == 0)
    g_string_append (text, _(" · nothing of this kind here"));
  gtk_label_set_text (self->scope_label, text->str);
  g_string_free (text, TRUE);
}

static void
update_scope (JvmsProfilerPane *self)
{
  update_scope_text (self);
  /* The label may be cut short: all of it on hover. */
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->scope_label), gtk_label_get_text (self->scope_label));
}

static void
update_search_label (JvmsProfilerPane *self)
{
  const char *search = jvms_flame_graph_get_search (self->flame_graph);
  if (search == NULL || self->tree == NULL)
    {
      gtk_label_set_text (self->search_label, "");
      return;
    }
  guint64 weight = jvms_flame_graph_get_search_weight (self->flame_graph);
  if (weight == 0)
    {
      gtk_label_set_text (self->search_label, _("No match"));
      return;
    }
  g_autofree char *share = jvms_profile_format_share (weight, jvms_call_tree_get_total (self->tree));
  /* Translators: the share of the profile whose stacks hold a frame matching the search. */
  g_autofree char *text = g_strdup_printf (_("%s match"), share);
  gtk_label_set_text (self->search_label, text);
}

/* ---- the legend ----------------------------------------------------------------------------- */

static void
draw_swatch (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  const JvmsColor *c = data;
  jvms_color_set (cr, c);
  cairo_rectangle (cr, 0, 0, width, height);
  cairo_fill (cr);
}

static void
add_legend_entry (JvmsProfilerPane *self, JvmsColor color, const char *label)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *swatch = gtk_drawing_area_new ();
  gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (swatch), 12);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (swatch), 12);
  gtk_widget_set_valign (swatch, GTK_ALIGN_CENTER);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (swatch), draw_swatch,
                                  g_memdup2 (&color, sizeof color), g_free);
  gtk_box_append (GTK_BOX (box), swatch);
  GtkWidget *text = gtk_label_new (label);
  gtk_widget_add_css_class (text, "caption");
  gtk_box_append (GTK_BOX (box), text);
  gtk_box_append (self->legend_box, box);
}

static void
update_legend (JvmsProfilerPane *self)
{
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->legend_box))) != NULL)
    gtk_box_remove (self->legend_box, child);
  const JvmsPalette *palette = jvms_palette_get (jvms_palette_system_is_dark ());
  switch (jvms_flame_graph_get_color_mode (self->flame_graph))
    {
    case JVMS_FLAME_COLOR_FRAME_KIND:
      add_legend_entry (self, jvms_flame_color_for_kind (palette, JVMS_FRAME_KIND_JIT), _("JIT-compiled"));
      add_legend_entry (self, jvms_flame_color_for_kind (palette, JVMS_FRAME_KIND_INLINED), _("Inlined"));
      add_legend_entry (self, jvms_flame_color_for_kind (palette, JVMS_FRAME_KIND_INTERPRETED), _("Interpreted"));
      add_legend_entry (self, jvms_flame_color_for_kind (palette, JVMS_FRAME_KIND_NATIVE), _("Native"));
      add_legend_entry (self, jvms_flame_color_for_kind (palette, JVMS_FRAME_KIND_CPP), _("C++"));
      add_legend_entry (self, jvms_flame_color_for_kind (palette, JVMS_FRAME_KIND_KERNEL), _("Kernel"));
      break;
    case JVMS_FLAME_COLOR_KERNEL_STATE:
      {
        guint64 on[JVMS_CPU_STATE_N] = { 0, 1, 0 }, waiting[JVMS_CPU_STATE_N] = { 0, 0, 1 };
        add_legend_entry (self, jvms_flame_color_for_states (palette, on), _("All samples on a CPU"));
        add_legend_entry (self, jvms_flame_color_for_states (palette, waiting), _("All samples waiting for a CPU"));
        add_legend_entry (self, jvms_flame_color_neutral (palette), _("Kernel state unknown"));
        break;
      }
    case JVMS_FLAME_COLOR_PACKAGE:
    default:
      {
        GtkWidget *text = gtk_label_new (_("A colour per package; the tooltip names the method."));
        gtk_widget_add_css_class (text, "caption");
        gtk_box_append (self->legend_box, text);
      }
    }
  if (jvms_flame_graph_get_search (self->flame_graph) != NULL)
    add_legend_entry (self, jvms_flame_color_neutral (palette), _("Not matching the search"));
}

/* ---- the selected method -------------------------------------------------------------------- */

static void
instants_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsProfilerPane) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsMethodInstants) instants = jvms_method_instants_collect_finish (JVMS_PROFILE (source),
                                                                               result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gboolean was = jvms_profiler_pane_get_busy (self);
  self->instants_pending = FALSE;
  if (error != NULL)
    g_warning ("%s", error->message);
  g_clear_pointer (&self->instants, jvms_method_instants_unref);
  self->instants = g_steal_pointer (&instants);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSTANTS]);
  notify_busy (self, was);
}

static gboolean
tree_has_method (JvmsCallTree *tree, guint32 method)
{
  for (guint i = 0; tree != NULL && i < jvms_call_tree_get_n_methods (tree); i++)
    if (jvms_call_tree_get_method_row (tree, i)->method == method)
      return TRUE;
  return FALSE;
}

/* Callers, callees and instants of the selected method, for the tree shown. */
static void
refresh_method (JvmsProfilerPane *self)
{
  gboolean was = jvms_profiler_pane_get_busy (self);
  g_cancellable_cancel (self->instants_cancellable);
  g_clear_object (&self->instants_cancellable);
  self->instants_pending = FALSE;
  g_clear_object (&self->callers);
  g_clear_object (&self->callees);
  gboolean known = self->method != JVMS_CALL_TREE_NONE && tree_has_method (self->tree, self->method);
  if (known)
    {
      self->callers = jvms_call_tree_new_callers (self->tree, self->method);
      self->callees = jvms_call_tree_new_callees (self->tree, self->method);
      const char *name = jvms_call_tree_get_method_name (self->tree, self->method);
      g_autofree char *total = jvms_profile_format_weight (jvms_call_tree_get_unit (self->tree),
                                                          jvms_call_tree_get_node (self->callees, 1)->total);
      g_autofree char *share = jvms_profile_format_share (jvms_call_tree_get_node (self->callees, 1)->total,
                                                         jvms_call_tree_get_total (self->tree));
      /* Translators: above the callers and callees; the method, its total weight and share. */
      g_autofree char *text = g_strdup_printf (_("%s: %s on the stack (%s)"), name, total, share);
      gtk_label_set_text (self->method_label, text);

      JvmsProfileQuery query = {
        .from = self->from, .to = self->to,
        .tids = self->tids->len > 0 ? (const gint64 *) self->tids->data : NULL,
        .n_tids = self->tids->len,
      };
      jvms_profile_kind_parse (self->kind, &query.kind, &query.event_type);
      self->instants_cancellable = g_cancellable_new ();
      self->instants_pending = TRUE;
      jvms_method_instants_collect_async (self->profile, &query, self->method, 0,
                                          self->instants_cancellable, instants_done,
                                          g_object_ref (self));
    }
  else
    {
      gtk_label_set_text (self->method_label,
                          _("Select a frame in the flame graph or the call tree, or a method in the table."));
      if (self->instants != NULL)
        {
          g_clear_pointer (&self->instants, jvms_method_instants_unref);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INSTANTS]);
        }
    }
  jvms_call_tree_view_set_tree (self->callers_view, self->callers);
  jvms_call_tree_view_set_tree (self->callees_view, self->callees);
  /* Opened along the heaviest path of each: the method's main callers and callees. */
  if (self->callers != NULL)
    {
      jvms_call_tree_view_expand_hottest (self->callers_view);
      jvms_call_tree_view_expand_hottest (self->callees_view);
    }
  notify_busy (self, was);
}

static void
set_method (JvmsProfilerPane *self, guint32 method)
{
  if (method == self->method)
    return;
  self->method = method;
  refresh_method (self);
}

static void
flame_selected_changed (JvmsProfilerPane *self)
{
  guint32 node = jvms_flame_graph_get_selected (self->flame_graph);
  if (self->tree == NULL)
    return;
  jvms_call_tree_view_select_node (self->call_tree, node);
  if (node != JVMS_CALL_TREE_NONE)
    set_method (self, jvms_call_tree_get_node (self->tree, node)->method);
}

static void
call_tree_selected_changed (JvmsProfilerPane *self)
{
  guint32 node = jvms_call_tree_view_get_selected (self->call_tree);
  if (node != JVMS_CALL_TREE_NONE)
    jvms_flame_graph_set_selected (self->flame_graph, node);
}

static void
method_table_selected_changed (JvmsProfilerPane *self)
{
  guint32 method = jvms_method_table_get_selected_method (self->method_table);
  if (method != JVMS_CALL_TREE_NONE)
    set_method (self, method);
}

/* ---- the query ------------------------------------------------------------------------------ */

static void
query_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr(JvmsProfilerPane) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCallTree) tree = jvms_profile_query_finish (JVMS_PROFILE (source), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  gboolean was = jvms_profiler_pane_get_busy (self);
  self->query_pending = FALSE;
  g_clear_pointer (&self->query_error, g_free);
  if (tree == NULL)
    {
      /* Translators: %s says what is wrong with the trace's sample store. */
      self->query_error = g_strdup_printf (_("The profile cannot be computed: %s"), error->message);
      update_scope (self);
      notify_busy (self, was);
      return;
    }
  g_set_object (&self->tree, tree);
  jvms_flame_graph_set_tree (self->flame_graph, tree);
  jvms_call_tree_view_set_tree (self->call_tree, tree);
  jvms_method_table_set_tree (self->method_table, tree);
  /* The flame graph kept its selection by path: the call tree shows it too. */
  jvms_call_tree_view_select_node (self->call_tree, jvms_flame_graph_get_selected (self->flame_graph));
  refresh_method (self);
  update_scope (self);
  update_search_label (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  notify_busy (self, was);
}

/* The range a query covers: the selection, or the whole trace as the command line's default
 * (the samples of events that began before the first chunk included). */
static void
query_range (JvmsProfilerPane *self, gint64 *from, gint64 *to)
{
  if (jvms_session_get_selection (self->session, from, to))
    return;
  JvmsSamplesStore *store = jvms_profile_get_store (self->profile);
  gint64 start = jvms_session_get_start_time (self->session), end = jvms_session_get_end_time (self->session);
  gboolean any = jvms_samples_store_get_n_samples (store) > 0;
  *from = any ? MIN (start, jvms_samples_store_get_first_time (store)) : start;
  *to = any ? MAX (end, jvms_samples_store_get_last_time (store) + 1) : end;
}

static const char *
chosen_kind (JvmsProfilerPane *self)
{
  guint position = gtk_drop_down_get_selected (self->kind_dropdown);
  return position < self->kinds->len ? g_ptr_array_index (self->kinds, position) : "cpu";
}

static void
start_query (JvmsProfilerPane *self)
{
  gboolean was = jvms_profiler_pane_get_busy (self);
  g_cancellable_cancel (self->query_cancellable);
  g_clear_object (&self->query_cancellable);
  self->query_pending = FALSE;
  if (self->profile == NULL || self->session == NULL || jvms_session_get_history (self->session) == NULL)
    {
      update_scope (self);
      notify_busy (self, was);
      return;
    }
  query_range (self, &self->from, &self->to);
  const GArray *highlighted = jvms_session_get_highlighted_threads (self->session);
  g_array_set_size (self->tids, 0);
  g_array_append_vals (self->tids, highlighted->data, highlighted->len);
  g_free (self->kind);
  self->kind = g_strdup (chosen_kind (self));
  JvmsProfileQuery query = {
    .from = self->from, .to = self->to,
    .tids = self->tids->len > 0 ? (const gint64 *) self->tids->data : NULL,
    .n_tids = self->tids->len,
  };
  jvms_profile_kind_parse (self->kind, &query.kind, &query.event_type);
  self->query_cancellable = g_cancellable_new ();
  self->query_pending = TRUE;
  jvms_profile_query_async (self->profile, &query, self->query_cancellable, query_done,
                            g_object_ref (self));
  notify_busy (self, was);
}

/* ---- the kinds offered ---------------------------------------------------------------------- */

static void
fill_kinds (JvmsProfilerPane *self)
{
  g_autofree char *keep = g_strdup (chosen_kind (self));
  g_ptr_array_set_size (self->kinds, 0);
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  /* The kinds this trace has samples of (a JDK 25 or profiler's recording has few of them: the
   * others would show an empty graph); all of them before a store is read. The first one
   * offered is the default when the chosen one is not there. */
  for (guint i = 0; i < G_N_ELEMENTS (fixed_kinds); i++)
    {
      JvmsProfileKind kind;
      const char *event_type;
      jvms_profile_kind_parse (fixed_kinds[i].name, &kind, &event_type);
      if (self->profile != NULL && jvms_profile_count_samples (self->profile, kind, event_type) == 0)
        continue;
      g_ptr_array_add (self->kinds, g_strdup (fixed_kinds[i].name));
      g_ptr_array_add (labels, g_strdup (_(fixed_kinds[i].label)));
    }
  /* Any event type with stacks, by its own name (once: a type's wall-clock samples are a
   * second type of its name). */
  JvmsSamplesStore *store = self->profile != NULL ? jvms_profile_get_store (self->profile) : NULL;
  guint64 n_cpu = 0, n_wall = 0;
  for (guint t = 0; store != NULL && t < jvms_samples_store_get_n_types (store); t++)
    {
      const char *name = NULL;
      guint64 n = 0;
      JvmsSampleTypeFlags flags;
      jvms_samples_store_get_type (store, t, &name, NULL, &flags, &n, NULL);
      n_cpu += (flags & JVMS_SAMPLE_TYPE_CPU) ? n : 0;
      n_wall += (flags & JVMS_SAMPLE_TYPE_WALL) ? n : 0;
      if (name == NULL || n == 0 || jvms_samples_store_find_type (store, name) != t)
        continue;
      g_ptr_array_add (self->kinds, g_strdup (name));
      /* Translators: an entry of the profiler's kind chooser; %s is a JFR event type. */
      g_ptr_array_add (labels, g_strdup_printf (_("Events: %s"), name));
    }
  if (self->kinds->len == 0)
    {
      /* No sample at all: the chooser still says what the empty graph is of. */
      g_ptr_array_add (self->kinds, g_strdup (fixed_kinds[0].name));
      g_ptr_array_add (labels, g_strdup (_(fixed_kinds[0].label)));
    }
  g_ptr_array_add (labels, NULL);
  /* A profiler's wall-clock recording has no CPU sample: its samples are the wall clock's. */
  if (g_str_equal (keep, "cpu") && n_cpu == 0 && n_wall > 0)
    {
      g_free (keep);
      keep = g_strdup ("wall");
    }
  guint position = 0;
  for (guint i = 0; i < self->kinds->len; i++)
    if (g_str_equal (g_ptr_array_index (self->kinds, i), keep))
      position = i;
  g_signal_handlers_block_matched (self->kind_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
  gtk_string_list_splice (self->kind_labels, 0, g_list_model_get_n_items (G_LIST_MODEL (self->kind_labels)),
                          (const char * const *) labels->pdata);
  gtk_drop_down_set_selected (self->kind_dropdown, position);
  g_signal_handlers_unblock_matched (self->kind_dropdown, G_SIGNAL_MATCH_DATA, 0, 0, NULL, NULL, self);
}

/* ---- API ------------------------------------------------------------------------------------ */

void
jvms_profiler_pane_set_session (JvmsProfilerPane *self, JvmsSession *session)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    {
      static const char *const follow[] = {
        "notify::selection-start", "notify::selection-end", "notify::has-selection",
        "notify::highlighted-threads", "notify::history",
      };
      for (guint i = 0; i < G_N_ELEMENTS (follow); i++)
        g_signal_connect_object (session, follow[i], G_CALLBACK (start_query), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::time-unit", G_CALLBACK (update_scope), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (session, "notify::time-origin", G_CALLBACK (update_scope), self, G_CONNECT_SWAPPED);
    }
  start_query (self);
}

void
jvms_profiler_pane_set_samples_path (JvmsProfilerPane *self, const char *samples_path)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  if (g_strcmp0 (samples_path, self->samples_path) == 0)
    return;
  g_free (self->samples_path);
  self->samples_path = g_strdup (samples_path);
  g_clear_object (&self->profile);
  g_clear_pointer (&self->open_error, g_free);
  g_clear_pointer (&self->thread_names, g_hash_table_unref);
  g_clear_object (&self->tree);
  self->method = JVMS_CALL_TREE_NONE;
  jvms_flame_graph_set_tree (self->flame_graph, NULL);
  jvms_call_tree_view_set_tree (self->call_tree, NULL);
  jvms_method_table_set_tree (self->method_table, NULL);
  refresh_method (self);
  if (samples_path != NULL)
    {
      g_autoptr(GError) error = NULL;
      self->profile = jvms_profile_open (samples_path, &error);
      if (self->profile == NULL)
        self->open_error = g_strdup (error->message);
      else
        {
          self->thread_names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
          for (guint i = 0; i < jvms_profile_get_n_threads (self->profile); i++)
            {
              gint64 tid = jvms_profile_get_thread_tid (self->profile, i);
              const char *name = jvms_profile_get_thread_name (self->profile, i);
              if (name != NULL)
                g_hash_table_insert (self->thread_names, g_memdup2 (&tid, sizeof tid), (gpointer) name);
            }
        }
    }
  fill_kinds (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TREE]);
  start_query (self);
}

JvmsCallTree *
jvms_profiler_pane_get_tree (JvmsProfilerPane *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), NULL);
  return self->tree;
}

JvmsMethodInstants *
jvms_profiler_pane_get_instants (JvmsProfilerPane *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), NULL);
  return self->instants;
}

gboolean
jvms_profiler_pane_get_busy (JvmsProfilerPane *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), FALSE);
  return self->query_pending || self->instants_pending;
}

gboolean
jvms_profiler_pane_set_kind (JvmsProfilerPane *self, const char *kind)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), FALSE);
  for (guint i = 0; i < self->kinds->len; i++)
    if (g_strcmp0 (g_ptr_array_index (self->kinds, i), kind) == 0)
      {
        gtk_drop_down_set_selected (self->kind_dropdown, i);
        return TRUE;
      }
  return FALSE;
}

void
jvms_profiler_pane_show_page (JvmsProfilerPane *self, const char *page)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  if (gtk_stack_get_child_by_name (self->stack, page) != NULL)
    gtk_stack_set_visible_child_name (self->stack, page);
}

gboolean
jvms_profiler_pane_zoom_out (JvmsProfilerPane *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), FALSE);
  jvms_profiler_pane_show_page (self, "flame");
  return jvms_flame_graph_zoom_out (self->flame_graph);
}

void
jvms_profiler_pane_zoom_reset (JvmsProfilerPane *self)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  jvms_profiler_pane_show_page (self, "flame");
  jvms_flame_graph_set_zoom (self->flame_graph, 0);
}

void
jvms_profiler_pane_expand_hottest (JvmsProfilerPane *self)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  jvms_profiler_pane_show_page (self, "tree");
  jvms_call_tree_view_expand_hottest (self->call_tree);
  jvms_call_tree_view_focus (self->call_tree);
}

void
jvms_profiler_pane_focus_search (JvmsProfilerPane *self)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  jvms_profiler_pane_show_page (self, "flame");
  gtk_widget_grab_focus (GTK_WIDGET (self->search_entry));
}

void
jvms_profiler_pane_focus_kind (JvmsProfilerPane *self)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  gtk_widget_grab_focus (GTK_WIDGET (self->kind_dropdown));
}

void
jvms_profiler_pane_next_color_mode (JvmsProfilerPane *self)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  guint n = G_N_ELEMENTS (color_labels);
  gtk_drop_down_set_selected (self->color_dropdown, (gtk_drop_down_get_selected (self->color_dropdown) + 1) % n);
}

gboolean
jvms_profiler_pane_has_cpu_samples (JvmsProfilerPane *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), FALSE);
  return self->profile != NULL
         && jvms_profile_count_samples (self->profile, JVMS_PROFILE_KIND_CPU, NULL) > 0;
}

gboolean
jvms_profiler_pane_write_flame (JvmsProfilerPane *self, GFile *file, gboolean dark, GError **error)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), FALSE);
  int width = MAX (gtk_widget_get_width (GTK_WIDGET (self->flame_graph)), 800);
  return jvms_flame_graph_write (self->flame_graph, width, dark, file, error);
}

char *
jvms_profiler_pane_dup_folded (JvmsProfilerPane *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), NULL);
  return self->tree != NULL ? jvms_call_tree_to_folded (self->tree, 0) : NULL;
}

char *
jvms_profiler_pane_dup_csv (JvmsProfilerPane *self)
{
  g_return_val_if_fail (JVMS_IS_PROFILER_PANE (self), NULL);
  return self->tree != NULL ? jvms_call_tree_to_csv (self->tree, 0) : NULL;
}

/* ---- state dump ----------------------------------------------------------------------------- */

/* Where @widget's point (@x, @y) is in its window, or FALSE. */
static gboolean
window_point (GtkWidget *widget, double x, double y, graphene_point_t *out)
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (widget));
  return root != NULL && gtk_widget_compute_point (widget, root, &GRAPHENE_POINT_INIT (x, y), out);
}

/* Where the keyboard is in the kind chooser: "list" inside its open popup, "button" on the
 * button itself, "none" elsewhere (a test waits for the popup before it presses keys in it). */
static const char *
kind_focus (JvmsProfilerPane *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;
  GtkWidget *dropdown = GTK_WIDGET (self->kind_dropdown);
  if (focus == NULL || (focus != dropdown && !gtk_widget_is_ancestor (focus, dropdown)))
    return "none";
  GtkWidget *popover = gtk_widget_get_ancestor (focus, GTK_TYPE_POPOVER);
  return popover != NULL && gtk_widget_get_mapped (popover) ? "list" : "button";
}

/* Whether the chooser's list is open, wherever the keyboard is: the popup can be open with the
 * focus still on the button, where a second Space closes it again. */
static gboolean
kind_popup_open (JvmsProfilerPane *self)
{
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->kind_dropdown)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      return gtk_widget_get_mapped (child);
  return FALSE;
}

void
jvms_profiler_pane_dump_state (JvmsProfilerPane *self, GKeyFile *kf)
{
  g_return_if_fail (JVMS_IS_PROFILER_PANE (self));
  const char *g = "profiler";
  g_key_file_set_boolean (kf, g, "shown", gtk_widget_get_mapped (GTK_WIDGET (self)));
  g_key_file_set_boolean (kf, g, "has-profile", self->profile != NULL);
  g_key_file_set_boolean (kf, g, "busy", jvms_profiler_pane_get_busy (self));
  g_key_file_set_string (kf, g, "page", gtk_stack_get_visible_child_name (self->stack));
  g_key_file_set_string (kf, g, "chosen-kind", chosen_kind (self));
  g_key_file_set_string (kf, g, "kind-focus", kind_focus (self));
  g_key_file_set_boolean (kf, g, "kind-popup", kind_popup_open (self));
  g_key_file_set_string (kf, g, "scope", gtk_label_get_text (self->scope_label));
  g_key_file_set_boolean (kf, g, "has-tree", self->tree != NULL);
  /* Where the pane starts: the views above it are hidden below that line (tests scroll). */
  graphene_point_t top;
  if (window_point (GTK_WIDGET (self), 0, 0, &top))
    g_key_file_set_integer (kf, g, "top", (int) top.y);
  if (self->tree == NULL)
    return;
  g_key_file_set_string (kf, g, "kind", self->kind);
  g_key_file_set_string (kf, g, "unit", jvms_call_tree_get_unit (self->tree));
  g_key_file_set_int64 (kf, g, "trace-start", jvms_session_get_start_time (self->session));
  g_key_file_set_int64 (kf, g, "from", self->from);
  g_key_file_set_int64 (kf, g, "to", self->to);
  g_autoptr(GString) tids = g_string_new (NULL);
  for (guint i = 0; i < self->tids->len; i++)
    g_string_append_printf (tids, "%s%" G_GINT64_FORMAT, i ? ";" : "", g_array_index (self->tids, gint64, i));
  g_key_file_set_string (kf, g, "threads", tids->str);
  g_key_file_set_uint64 (kf, g, "total", jvms_call_tree_get_total (self->tree));
  g_key_file_set_uint64 (kf, g, "samples", jvms_call_tree_get_samples (self->tree));
  g_key_file_set_integer (kf, g, "nodes", (int) jvms_call_tree_get_n_nodes (self->tree));
  g_key_file_set_integer (kf, g, "method-rows", (int) jvms_method_table_get_n_rows (self->method_table));
  g_key_file_set_integer (kf, g, "tree-rows", (int) jvms_call_tree_view_get_n_rows (self->call_tree));
  /* The heaviest stacks as the command line's --folded writes them. */
  g_autofree char *folded = jvms_call_tree_to_folded (self->tree, 20);
  g_auto(GStrv) lines = g_strsplit (folded, "\n", -1);
  guint n_lines = g_strv_length (lines);
  if (n_lines > 0 && lines[n_lines - 1][0] == '\0')
    n_lines--;
  g_key_file_set_string_list (kf, g, "folded-top", (const char * const *) lines, n_lines);

  guint32 zoom = jvms_flame_graph_get_zoom (self->flame_graph);
  guint32 selected = jvms_flame_graph_get_selected (self->flame_graph);
  g_key_file_set_string (kf, g, "zoom", zoom == 0 ? "" :
                         jvms_call_tree_get_method_name (self->tree, jvms_call_tree_get_node (self->tree, zoom)->method));
  g_key_file_set_string (kf, g, "selected-frame", selected == JVMS_CALL_TREE_NONE ? "" :
                         jvms_call_tree_get_method_name (self->tree, jvms_call_tree_get_node (self->tree, selected)->method));
  g_key_file_set_string (kf, g, "method", self->method == JVMS_CALL_TREE_NONE ? ""
                         : jvms_call_tree_get_method_name (self->tree, self->method));
  g_key_file_set_string (kf, g, "search", jvms_flame_graph_get_search (self->flame_graph) ?: "");
  g_key_file_set_uint64 (kf, g, "search-weight", jvms_flame_graph_get_search_weight (self->flame_graph));
  g_key_file_set_string (kf, g, "search-label", gtk_label_get_text (self->search_label));
  g_key_file_set_integer (kf, g, "callers-nodes", self->callers ? (int) jvms_call_tree_get_n_nodes (self->callers) : 0);
  g_key_file_set_integer (kf, g, "callees-nodes", self->callees ? (int) jvms_call_tree_get_n_nodes (self->callees) : 0);
  g_key_file_set_integer (kf, g, "instants", self->instants ? (int) self->instants->n : 0);
  g_key_file_set_uint64 (kf, g, "instants-matched", self->instants ? self->instants->n_matched : 0);

  /* The flame graph's frames on screen, in window coordinates, for tests to point at:
   * "node|method|x|y|width|height", the drawn ones of the first rows at least 8 px wide. */
  JvmsFlameLayout *layout = jvms_flame_graph_get_layout (self->flame_graph);
  g_autoptr(GPtrArray) frames = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; layout != NULL && i < jvms_flame_layout_get_n_rects (layout) && frames->len < 24; i++)
    {
      const JvmsFlameRect *r = jvms_flame_layout_get_rect (layout, i);
      graphene_point_t p;
      if (r->width < 8 || !window_point (GTK_WIDGET (self->flame_graph), r->x, r->row * JVMS_FLAME_GRAPH_ROW_HEIGHT, &p))
        continue;
      const char *name = r->node == 0 ? "" :
        jvms_call_tree_get_method_name (self->tree, jvms_call_tree_get_node (self->tree, r->node)->method);
      g_ptr_array_add (frames, g_strdup_printf ("%u|%s|%d|%d|%d|%d", r->node, name, (int) p.x, (int) p.y,
                                                (int) r->width, JVMS_FLAME_GRAPH_ROW_HEIGHT - 1));
    }
  g_key_file_set_integer (kf, g, "flame-rects", layout != NULL ? (int) jvms_flame_layout_get_n_rects (layout) : 0);
  g_key_file_set_string_list (kf, g, "flame-frames", (const char * const *) frames->pdata, frames->len);
}

/* ---- GObject -------------------------------------------------------------------------------- */

/* Drop-down labels: the button's cut short (event type names are long), the list's whole. */
static void
setup_label (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  if (ellipsize != NULL)
    {
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 26);
    }
  gtk_list_item_set_child (item, label);
}

static void
bind_label (GtkSignalListItemFactory *factory, GtkListItem *item, gpointer data)
{
  GtkStringObject *string = gtk_list_item_get_item (item);
  gtk_label_set_text (GTK_LABEL (gtk_list_item_get_child (item)), gtk_string_object_get_string (string));
}

static void
set_factories (GtkDropDown *dropdown)
{
  for (guint i = 0; i < 2; i++)
    {
      GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
      g_signal_connect (factory, "setup", G_CALLBACK (setup_label), i == 0 ? GINT_TO_POINTER (1) : NULL);
      g_signal_connect (factory, "bind", G_CALLBACK (bind_label), NULL);
      if (i == 0)
        gtk_drop_down_set_factory (dropdown, factory);
      else
        gtk_drop_down_set_list_factory (dropdown, factory);
      g_object_unref (factory);
    }
}

static void
kind_changed (JvmsProfilerPane *self)
{
  start_query (self);
}

static void
color_changed (JvmsProfilerPane *self)
{
  jvms_flame_graph_set_color_mode (self->flame_graph, gtk_drop_down_get_selected (self->color_dropdown));
  update_legend (self);
}

static void
search_changed (JvmsProfilerPane *self)
{
  jvms_flame_graph_set_search (self->flame_graph, gtk_editable_get_text (GTK_EDITABLE (self->search_entry)));
  update_search_label (self);
  update_legend (self);
}

static void
theme_changed (JvmsProfilerPane *self)
{
  update_legend (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->flame_graph));
}

static void
jvms_profiler_pane_dispose (GObject *object)
{
  JvmsProfilerPane *self = JVMS_PROFILER_PANE (object);
  /* Workers first: nothing they report may reach a half-destroyed pane. */
  g_cancellable_cancel (self->query_cancellable);
  g_cancellable_cancel (self->instants_cancellable);
  g_clear_object (&self->query_cancellable);
  g_clear_object (&self->instants_cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  gtk_widget_dispose_template (GTK_WIDGET (self), JVMS_TYPE_PROFILER_PANE);
  /* The template's top box has no id, so disposing the template leaves it: a widget must
   * unparent its children before it is finalized (GTK warns otherwise). */
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->profile);
  g_clear_object (&self->tree);
  g_clear_object (&self->callers);
  g_clear_object (&self->callees);
  g_clear_pointer (&self->instants, jvms_method_instants_unref);
  g_clear_object (&self->kind_labels);
  G_OBJECT_CLASS (jvms_profiler_pane_parent_class)->dispose (object);
}

static void
jvms_profiler_pane_finalize (GObject *object)
{
  JvmsProfilerPane *self = JVMS_PROFILER_PANE (object);
  g_free (self->samples_path);
  g_free (self->open_error);
  g_free (self->query_error);
  g_free (self->kind);
  g_clear_pointer (&self->thread_names, g_hash_table_unref);
  g_ptr_array_unref (self->kinds);
  g_array_unref (self->tids);
  G_OBJECT_CLASS (jvms_profiler_pane_parent_class)->finalize (object);
}

static void
jvms_profiler_pane_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  JvmsProfilerPane *self = JVMS_PROFILER_PANE (object);
  switch (prop_id)
    {
    case PROP_TREE: g_value_set_object (value, self->tree); break;
    case PROP_INSTANTS: g_value_set_boxed (value, self->instants); break;
    case PROP_BUSY: g_value_set_boolean (value, jvms_profiler_pane_get_busy (self)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_profiler_pane_class_init (JvmsProfilerPaneClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_profiler_pane_dispose;
  object_class->finalize = jvms_profiler_pane_finalize;
  object_class->get_property = jvms_profiler_pane_get_property;

  properties[PROP_TREE] =
    g_param_spec_object ("tree", NULL, NULL, JVMS_TYPE_CALL_TREE,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_INSTANTS] =
    g_param_spec_boxed ("instants", NULL, NULL, JVMS_TYPE_METHOD_INSTANTS,
                        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (JVMS_TYPE_FLAME_GRAPH);
  g_type_ensure (JVMS_TYPE_CALL_TREE_VIEW);
  g_type_ensure (JVMS_TYPE_METHOD_TABLE);
  gtk_widget_class_set_template_from_resource (widget_class, "/org/jvmscope/Jvmscope/jvms-profiler-pane.ui");
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, color_dropdown);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, search_entry);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, search_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, scope_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, method_label);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, stack);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, flame_scroller);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, flame_graph);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, legend_box);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, call_tree);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, callers_view);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, callees_view);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, method_table);
  gtk_widget_class_bind_template_child (widget_class, JvmsProfilerPane, all_threads_button);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jvms-profiler-pane");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
jvms_profiler_pane_init (JvmsProfilerPane *self)
{
  self->method = JVMS_CALL_TREE_NONE;
  self->kinds = g_ptr_array_new_with_free_func (g_free);
  self->tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL, _("Profiler"), -1);

  set_factories (self->kind_dropdown);
  set_factories (self->color_dropdown);
  self->kind_labels = gtk_string_list_new (NULL);
  gtk_drop_down_set_model (self->kind_dropdown, G_LIST_MODEL (self->kind_labels));
  fill_kinds (self);
  g_signal_connect_swapped (self->kind_dropdown, "notify::selected", G_CALLBACK (kind_changed), self);

  const char *colors[G_N_ELEMENTS (color_labels) + 1] = { NULL };
  for (guint i = 0; i < G_N_ELEMENTS (color_labels); i++)
    colors[i] = _(color_labels[i]);
  GtkStringList *color_model = gtk_string_list_new (colors);
  gtk_drop_down_set_model (self->color_dropdown, G_LIST_MODEL (color_model));
  g_object_unref (color_model);
  g_signal_connect_swapped (self->color_dropdown, "notify::selected", G_CALLBACK (color_changed), self);

  jvms_call_tree_view_set_compact (self->callers_view, TRUE);
  jvms_call_tree_view_set_compact (self->callees_view, TRUE);
  jvms_call_tree_view_set_label (self->call_tree, _("Call tree"));
  jvms_call_tree_view_set_label (self->callers_view, _("Callers of the selected method"));
  jvms_call_tree_view_set_label (self->callees_view, _("Callees of the selected method"));
  g_signal_connect_swapped (self->search_entry, "search-changed", G_CALLBACK (search_changed), self);
  g_signal_connect_swapped (self->flame_graph, "notify::selected", G_CALLBACK (flame_selected_changed), self);
  g_signal_connect_swapped (self->call_tree, "notify::selected", G_CALLBACK (call_tree_selected_changed), self);
  g_signal_connect_swapped (self->method_table, "notify::selected-method",
                            G_CALLBACK (method_table_selected_changed), self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark", G_CALLBACK (theme_changed),
                           self, G_CONNECT_SWAPPED);
  update_legend (self);
  update_scope (self);
  refresh_method (self);
}
