/* jvms-cpus-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jvms-cpus-view.h"
#include "jvms-lane.h"
#include "jvms-quantum-lane.h"
#include "jvms-row-cells.h"
#include "jvms-thread-list.h"
#include "jvms-state-names.h"

#define ROW_H JVMS_CPUS_VIEW_ROW_HEIGHT
/* Threads whose quanta a frame shades and marks at most (their lanes join one summary query):
 * past them, the legend says some are left out. */
#define MAX_QUANTUM_THREADS 256
/* Lanes asked per thread: its kernel state, then the quanta's. */
#define THREAD_LANES (1 + JVMS_QUANTUM_LANES)

typedef struct
{
  gint64        cpu;
  JvmsAttribute current_thread;
} Cpu;

struct _JvmsCpusView
{
  JvmsTimeline     parent_instance;
  JvmsThreadList *threads;
  GArray          *cpus;      /* Cpu, by number */
  JvmsRowCells     cells;     /* one lane per CPU: current-thread */

  /* The quanta's shade and glyphs (the session's quantum-colour and quantum-shade): the lanes
   * of the JVM's threads on the CPUs shown, and each one's glyphs. */
  JvmsQuantumMode  quantum;
  gboolean         quanta;          /* computed with them */
  JvmsLaneCells    thread_cells;    /* THREAD_LANES a thread, in thread_tids' order */
  GArray          *thread_tids;     /* gint64 */
  GHashTable      *thread_index;    /* tid -> index + 1 */
  GArray          *glyphs;          /* JvmsQuantumGlyph, thread after thread */
  GArray          *glyph_start;     /* guint per thread, and one past the last */
  gboolean         threads_cut;
};

G_DEFINE_FINAL_TYPE (JvmsCpusView, jvms_cpus_view, JVMS_TYPE_TIMELINE)

static int
compare_cpu (gconstpointer a,
             gconstpointer b)
{
  const Cpu *x = a, *y = b;
  return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

static void
jvms_cpus_view_reload (JvmsTimeline *timeline,
                       JvmsHistory  *history)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  g_autoptr(GArray) children = NULL;
  JvmsAttribute root;

  jvms_row_cells_reset (&self->cells);
  g_array_set_size (self->cpus, 0);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  self->threads = jvms_thread_list_read (history);
  if (history == NULL || (root = jvms_history_lookup (history, "CPUs")) == JVMS_ATTRIBUTE_INVALID)
    return;
  children = jvms_history_list_children (history, root);
  for (guint i = 0; i < children->len; i++)
    {
      JvmsAttribute folder = g_array_index (children, JvmsAttribute, i);
      const char *name = jvms_history_get_name (history, folder);
      char *end = NULL;
      Cpu cpu;

      cpu.cpu = g_ascii_strtoll (name, &end, 10);
      if (end == name || *end != '\0')
        continue;
      cpu.current_thread = jvms_history_lookup_child (history, folder, "current-thread");
      if (cpu.current_thread != JVMS_ATTRIBUTE_INVALID)
        g_array_append_val (self->cpus, cpu);
    }
  g_array_sort (self->cpus, compare_cpu);
}

static int
jvms_cpus_view_get_content_height (JvmsTimeline *timeline)
{
  return JVMS_CPUS_VIEW (timeline)->cpus->len * ROW_H;
}

static JvmsAttribute
cpu_lane (gpointer data,
          guint    row,
          guint    lane)
{
  JvmsCpusView *self = data;
  return g_array_index (self->cpus, Cpu, row).current_thread;
}

static void
update_quantum_mode (JvmsCpusView *self)
{
  jvms_quantum_mode_set_from_session (&self->quantum, jvms_timeline_get_session (JVMS_TIMELINE (self)),
                                      self->threads);
}

static void
clear_quanta (JvmsCpusView *self)
{
  self->quanta = FALSE;
  self->threads_cut = FALSE;
  jvms_lane_cells_reset (&self->thread_cells);
  g_array_set_size (self->thread_tids, 0);
  g_hash_table_remove_all (self->thread_index);
  g_array_set_size (self->glyphs, 0);
  g_array_set_size (self->glyph_start, 0);
}

/* The lanes of the thread at @i of the quanta's threads (NULLs where it has none). */
static void
thread_lanes (JvmsCpusView               *self,
              const JvmsTimelineGeometry *g,
              guint                       i,
              const JvmsSummaryCell     **out)
{
  for (guint j = 0; j < THREAD_LANES; j++)
    out[j] = jvms_lane_cells_get (&self->thread_cells, g, THREAD_LANES * i + j);
}

/* The JVM's threads on the CPUs shown: their kernel states and quanta's lanes in one more
 * summary query, then the glyphs of their switch-outs. */
static void
compute_quanta (JvmsCpusView *self, JvmsHistory *history, const JvmsTimelineGeometry *g)
{
  guint first, last;

  jvms_row_cells_band (g, ROW_H, self->cpus->len, &first, &last);
  for (guint row = first; row < last; row++)
    {
      const JvmsSummaryCell *cells = jvms_row_cells_get (&self->cells, g, row, 0);
      for (int c = 0; cells != NULL && c < g->n_columns; c++)
        {
          gint64 tid = cells[c].dominant.type == JVMS_VALUE_INT ? cells[c].dominant.i : 0;
          if (tid <= 0 || g_hash_table_contains (self->thread_index, &tid))
            continue;
          const JvmsThreadInfo *t = jvms_thread_list_lookup (self->threads, tid);
          if (t == NULL || t->kind == JVMS_THREAD_KIND_OTHER_PROCESS)
            continue;
          if (self->thread_tids->len >= MAX_QUANTUM_THREADS)
            {
              self->threads_cut = TRUE;
              continue;
            }
          g_array_append_val (self->thread_tids, tid);
          g_hash_table_insert (self->thread_index, g_memdup2 (&tid, sizeof tid),
                               GUINT_TO_POINTER (self->thread_tids->len));
          JvmsAttribute extra[JVMS_QUANTUM_LANES];
          jvms_quantum_mode_lanes (&self->quantum, history, t, extra);
          jvms_lane_cells_add (&self->thread_cells, t->kernel_state);
          for (guint j = 0; j < JVMS_QUANTUM_LANES; j++)
            jvms_lane_cells_add (&self->thread_cells, extra[j]);
        }
    }
  if (self->thread_tids->len == 0 || !jvms_lane_cells_query (&self->thread_cells, history, g))
    return;
  jvms_quantum_mode_scale_begin (&self->quantum);
  jvms_quantum_mode_begin_glyphs (&self->quantum);
  for (guint i = 0; i < self->thread_tids->len; i++)
    {
      const JvmsSummaryCell *lanes[THREAD_LANES];
      thread_lanes (self, g, i, lanes);
      jvms_quantum_mode_scale_row (&self->quantum, g, lanes[0], lanes + 1);
      g_array_append_val (self->glyph_start, self->glyphs->len);
      const JvmsThreadInfo *t = jvms_thread_list_lookup (self->threads, g_array_index (self->thread_tids, gint64, i));
      if (lanes[0] != NULL)
        jvms_quantum_mode_find_glyphs (&self->quantum, history, g, t->kernel_state, lanes[0], lanes[1],
                                       self->glyphs);
    }
  g_array_append_val (self->glyph_start, self->glyphs->len);
  jvms_quantum_mode_scale_finish (&self->quantum);
  self->quanta = TRUE;
}

static void
jvms_cpus_view_compute (JvmsTimeline               *timeline,
                        JvmsHistory                *history,
                        const JvmsTimelineGeometry *g)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);

  clear_quanta (self);
  if (!jvms_row_cells_compute (&self->cells, history, g, self->cpus->len, cpu_lane, self) || history == NULL)
    return;
  update_quantum_mode (self);
  if (jvms_quantum_mode_active (&self->quantum))
    compute_quanta (self, history, g);
}

typedef struct
{
  JvmsCpusView *self;
  JvmsSession  *session;
} ColorData;

static JvmsColor
thread_color (const JvmsPalette *palette,
              const JvmsValue   *value,
              gpointer           data)
{
  ColorData *cd = data;
  const JvmsThreadInfo *t;
  JvmsColor c;

  if (value->type != JVMS_VALUE_INT || value->i == 0)
    return (JvmsColor) { 0 };
  t = jvms_thread_list_lookup (cd->self->threads, value->i);
  c = jvms_palette_thread (palette, value->i,
                           t == NULL || t->kind == JVMS_THREAD_KIND_OTHER_PROCESS);
  if (cd->session != NULL && jvms_session_get_highlighted_threads (cd->session)->len > 0 &&
      !jvms_session_is_thread_highlighted (cd->session, value->i))
    c.a = 0.2;
  return c;
}

typedef struct
{
  ColorData                    *cd;
  const JvmsTimelineGeometry   *g;
  const JvmsSummaryCell        *cells;
} CpuColumns;

/* A column of a CPU's row: its thread's colour, shaded by that thread's quantum there. */
static JvmsColor
cpu_column_color (const JvmsPalette *palette, int c, gpointer data)
{
  CpuColumns *cc = data;
  JvmsCpusView *self = cc->cd->self;
  const JvmsSummaryCell *cell = &cc->cells[c];
  if (cell->flags & JVMS_SUMMARY_EMPTY)
    return (JvmsColor) { 0 };
  JvmsColor col = thread_color (palette, &cell->dominant, cc->cd);
  gint64 tid = cell->dominant.type == JVMS_VALUE_INT ? cell->dominant.i : 0;
  guint i = GPOINTER_TO_UINT (g_hash_table_lookup (self->thread_index, &tid));
  if (col.a > 0 && i > 0 && self->quantum.shade != NULL && self->quantum.found)
    {
      const JvmsSummaryCell *lanes[THREAD_LANES];
      thread_lanes (self, cc->g, i - 1, lanes);
      double v = jvms_quantum_mode_value (&self->quantum, lanes + 1, c);
      col.a *= isnan (v) ? 0.12 : 0.3 + 0.7 * CLAMP (v / self->quantum.vmax, 0, 1);
    }
  return col;
}

static int
compare_glyphs (gconstpointer a, gconstpointer b)
{
  const JvmsQuantumGlyph *x = a, *y = b;
  return (x->column > y->column) - (x->column < y->column);
}

/* The glyphs of the switch-outs from this CPU: a thread's, where the column before it held
 * that thread here. */
static GArray *
cpu_glyphs (JvmsCpusView *self, const JvmsSummaryCell *cells)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (JvmsQuantumGlyph));
  for (guint i = 0; i + 1 < self->glyph_start->len; i++)
    {
      gint64 tid = g_array_index (self->thread_tids, gint64, i);
      for (guint k = g_array_index (self->glyph_start, guint, i); k < g_array_index (self->glyph_start, guint, i + 1); k++)
        {
          const JvmsQuantumGlyph *glyph = &g_array_index (self->glyphs, JvmsQuantumGlyph, k);
          const JvmsSummaryCell *before = &cells[MAX (glyph->column - 1, 0)];
          if (before->dominant.type == JVMS_VALUE_INT && before->dominant.i == tid)
            g_array_append_val (out, *glyph);
        }
    }
  g_array_sort (out, compare_glyphs);
  return out;
}

static void
draw_cpu (cairo_t                     *cr,
          const JvmsTimelineGeometry  *g,
          guint                        row,
          double                       y,
          const JvmsSummaryCell *const *lanes,
          gpointer                     data)
{
  ColorData *cd = data;
  char label[64];

  /* The label is the only text of the row: no allocation per row and frame. */
  g_snprintf (label, sizeof label, _("CPU %d"), (int) g_array_index (cd->self->cpus, Cpu, row).cpu);
  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 1, g->gutter - 10, label, FALSE);
  if (lanes != NULL && lanes[0] != NULL && cd->self->quanta)
    {
      CpuColumns cc = { cd, g, lanes[0] };
      g_autoptr(GArray) glyphs = cpu_glyphs (cd->self, lanes[0]);
      jvms_quantum_lane_paint (cr, g, lanes[0], cpu_column_color, &cc,
                               (const JvmsQuantumGlyph *) (gpointer) glyphs->data, glyphs->len,
                               y + JVMS_CPUS_VIEW_LANE_Y, JVMS_CPUS_VIEW_LANE_HEIGHT);
    }
  else if (lanes != NULL && lanes[0] != NULL)
    jvms_lane_draw (cr, g, lanes[0], y + JVMS_CPUS_VIEW_LANE_Y, JVMS_CPUS_VIEW_LANE_HEIGHT,
                    thread_color, cd);
}

static void
jvms_cpus_view_draw (JvmsTimeline               *timeline,
                     cairo_t                    *cr,
                     const JvmsTimelineGeometry *g)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  ColorData cd = { self, jvms_timeline_get_session (timeline) };

  jvms_row_cells_draw (&self->cells, cr, g, self->cpus->len, draw_cpu, &cd);
}

static char *
thread_text (const JvmsValue *value,
             gpointer         data)
{
  JvmsCpusView *self = data;
  const JvmsThreadInfo *t;

  if (value->type != JVMS_VALUE_INT || value->i == 0)
    return g_strdup (_("Idle"));
  t = jvms_thread_list_lookup (self->threads, value->i);
  if (t == NULL)
    /* Kernel tids fit an int (pid_max is at most 2^22). */
    return g_strdup_printf (_("Thread %d"), (int) value->i);
  return g_strdup_printf (_("%s (thread %s)"), t->name, t->key);
}

static char *
jvms_cpus_view_tooltip (JvmsTimeline               *timeline,
                        JvmsHistory                *history,
                        const JvmsTimelineGeometry *g,
                        double                      x,
                        double                      y,
                        gint64                      time)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  const Cpu *cpu;
  g_autofree char *lane = NULL;

  if (y < 0 || i >= self->cpus->len)
    return NULL;
  cpu = &g_array_index (self->cpus, Cpu, i);
  if (time == G_MININT64)
    return g_strdup_printf (_("CPU %d"), (int) cpu->cpu);
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, cpu->current_thread, time,
                             (g->t1 - g->t0) / MAX (g->n_columns, 1), thread_text, self, NULL);
  return g_strdup_printf (_("CPU %d\n%s"), (int) cpu->cpu, lane ? lane : "");
}

static void
jvms_cpus_view_click (JvmsTimeline               *timeline,
                      JvmsHistory                *history,
                      const JvmsTimelineGeometry *g,
                      double                      x,
                      double                      y,
                      gint64                      time,
                      gboolean                    in_gutter)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  JvmsSession *session = jvms_timeline_get_session (timeline);
  guint i = (guint) (y / ROW_H);
  JvmsInterval interval;

  /* Clicking a thread on a CPU highlights it everywhere. */
  if (session == NULL || in_gutter || y < 0 || i >= self->cpus->len)
    return;
  if (jvms_history_query_single (history, g_array_index (self->cpus, Cpu, i).current_thread,
                                 time, &interval, NULL) &&
      interval.value.type == JVMS_VALUE_INT && interval.value.i != 0)
    jvms_session_set_highlighted_threads (session, &interval.value.i, 1);
  else
    jvms_session_clear_highlight (session);
}

static const char *
jvms_cpus_view_get_title (JvmsTimeline *timeline)
{
  return _("CPUs");
}

static void
jvms_cpus_view_legend (JvmsTimeline      *timeline,
                       const JvmsPalette *palette,
                       GArray            *entries)
{
  JvmsLegendEntry ours = { _("A colour per thread of the JVM"),
                           jvms_palette_thread (palette, 12345, FALSE) };
  JvmsLegendEntry others = { _("Other processes"), jvms_palette_thread (palette, 1, TRUE) };
  JvmsLegendEntry mixed = { _("Several threads in the pixel"), palette->mixed_mark };

  g_array_append_val (entries, ours);
  g_array_append_val (entries, others);
  g_array_append_val (entries, mixed);
  JvmsCpusView *self = JVMS_CPUS_VIEW (timeline);
  update_quantum_mode (self);
  if (jvms_quantum_mode_active (&self->quantum))
    {
      /* A colour per thread whatever the choice: only the shade's and the glyphs' entries. */
      self->quantum.colour = JVMS_QUANTUM_COLOUR_THREAD;
      jvms_quantum_mode_legend (&self->quantum, palette, entries);
      if (self->threads_cut)
        {
          JvmsLegendEntry cut = { _("Threads past the first 256 in view: not shaded, no glyphs"), palette->lane_empty };
          g_array_append_val (entries, cut);
        }
    }
}

static char *
jvms_cpus_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_CPUS_VIEW (timeline)->cpus->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u CPU; each row shows the thread running on it",
                                       "%u CPUs; each row shows the thread running on it", n),
                          n);
}

static void
jvms_cpus_view_finalize (GObject *object)
{
  JvmsCpusView *self = JVMS_CPUS_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  jvms_quantum_mode_clear (&self->quantum);
  jvms_lane_cells_clear (&self->thread_cells);
  g_clear_pointer (&self->thread_tids, g_array_unref);
  g_clear_pointer (&self->thread_index, g_hash_table_unref);
  g_clear_pointer (&self->glyphs, g_array_unref);
  g_clear_pointer (&self->glyph_start, g_array_unref);
  g_clear_pointer (&self->cpus, g_array_unref);
  g_clear_pointer (&self->threads, jvms_thread_list_free);
  G_OBJECT_CLASS (jvms_cpus_view_parent_class)->finalize (object);
}

static void
jvms_cpus_view_class_init (JvmsCpusViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_cpus_view_finalize;
  timeline_class->reload = jvms_cpus_view_reload;
  timeline_class->get_content_height = jvms_cpus_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_cpus_view_compute;
  timeline_class->draw = jvms_cpus_view_draw;
  timeline_class->tooltip = jvms_cpus_view_tooltip;
  timeline_class->click = jvms_cpus_view_click;
  timeline_class->get_title = jvms_cpus_view_get_title;
  timeline_class->legend = jvms_cpus_view_legend;
  timeline_class->describe = jvms_cpus_view_describe;
}

static void
jvms_cpus_view_init (JvmsCpusView *self)
{
  self->cpus = g_array_new (FALSE, FALSE, sizeof (Cpu));
  jvms_row_cells_init (&self->cells, "CPUs", ROW_H, 1);
  /* One state lane a CPU (the thread on it): no min/max. */
  self->cells.lanes.values_only = TRUE;
  jvms_quantum_mode_init (&self->quantum);
  jvms_lane_cells_init (&self->thread_cells, "CPUs");
  self->thread_cells.values_only = TRUE;
  self->thread_tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->thread_index = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  self->glyphs = g_array_new (FALSE, FALSE, sizeof (JvmsQuantumGlyph));
  self->glyph_start = g_array_new (FALSE, FALSE, sizeof (guint));
}

GtkWidget *
jvms_cpus_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_CPUS_VIEW, "session", session, NULL);
}

guint
jvms_cpus_view_get_n_cpus (JvmsCpusView *self)
{
  g_return_val_if_fail (JVMS_IS_CPUS_VIEW (self), 0);
  return self->cpus->len;
}

gint64
jvms_cpus_view_get_cpu (JvmsCpusView *self,
                        guint         i)
{
  g_return_val_if_fail (JVMS_IS_CPUS_VIEW (self), -1);
  return i < self->cpus->len ? g_array_index (self->cpus, Cpu, i).cpu : -1;
}
