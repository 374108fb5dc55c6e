/* jvms-quantum-lane.c: a kernel lane drawn by its quanta (jvms-quantum-lane.h). */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "jvms-quantum-lane.h"
#include "jvms-quantum-scale.h"
#include "jvms-session.h"
#include "jvms-states.h"

/* Glyphs closer than this to the row's previous one are left out. */
#define GLYPH_GAP 4
/* Opacity of the lowest and highest shade, and of a quantum without a value. */
#define SHADE_LOW 0.3
#define SHADE_NONE 0.12

const char * const jvms_quantum_shades[] = { "ipc", "miss-ratio", NULL };

static const char * const colour_nicks[] = { "state", "cpu", "thread" };

gboolean
jvms_quantum_colour_parse (const char        *nick,
                           JvmsQuantumColour *out)
{
  for (guint i = 0; i < G_N_ELEMENTS (colour_nicks); i++)
    if (g_strcmp0 (nick, colour_nicks[i]) == 0)
      {
        *out = (JvmsQuantumColour) i;
        return TRUE;
      }
  return FALSE;
}

void
jvms_quantum_mode_init (JvmsQuantumMode *self)
{
  *self = (JvmsQuantumMode) { .colour = JVMS_QUANTUM_COLOUR_STATE, .vmax = 1, .trace_top = NAN };
}

void
jvms_quantum_mode_clear (JvmsQuantumMode *self)
{
  g_clear_pointer (&self->shade, g_free);
  g_clear_pointer (&self->scale_text, g_free);
  g_clear_pointer (&self->low_text, g_free);
}

void
jvms_quantum_mode_set_from_session (JvmsQuantumMode *self,
                                    JvmsSession     *session,
                                    JvmsThreadList  *threads)
{
  JvmsHistory *history = session != NULL ? jvms_session_get_history (session) : NULL;

  jvms_quantum_mode_set (self, history, threads,
                         session != NULL ? jvms_session_get_quantum_colour (session) : NULL,
                         session != NULL ? jvms_session_get_quantum_shade (session) : NULL);
  /* The whole trace's scale not known yet: a worker finds it, and the views draw again. */
  if (self->found && isnan (self->trace_top) && jvms_history_is_complete (history))
    jvms_quantum_scale_request (self, history, session);
}

gboolean
jvms_quantum_mode_active (const JvmsQuantumMode *self)
{
  return self->colour != JVMS_QUANTUM_COLOUR_STATE || self->shade != NULL;
}

static JvmsAttribute
counter_of (JvmsHistory          *history,
            const JvmsThreadInfo *thread,
            gboolean              exact,
            const char           *name)
{
  JvmsAttribute folder;

  if (name == NULL || thread->folder == JVMS_ATTRIBUTE_INVALID)
    return JVMS_ATTRIBUTE_INVALID;
  folder = jvms_history_lookup_child (history, thread->folder, exact ? "switch-counters" : "counters");
  return folder != JVMS_ATTRIBUTE_INVALID ? jvms_history_lookup_child (history, folder, name)
                                          : JVMS_ATTRIBUTE_INVALID;
}

/* Whether some thread of the JVM has the shade's counters, read at switches (@exact) or
 * sampled. */
static gboolean
has_counters (const JvmsQuantumMode *self,
              JvmsHistory           *history,
              JvmsThreadList        *threads,
              gboolean               exact)
{
  for (guint i = 0; threads != NULL && i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (t->kind == JVMS_THREAD_KIND_OTHER_PROCESS)
        continue;
      if (counter_of (history, t, exact, self->numerator) != JVMS_ATTRIBUTE_INVALID &&
          (self->denominator == NULL ||
           counter_of (history, t, exact, self->denominator) != JVMS_ATTRIBUTE_INVALID))
        return TRUE;
    }
  return FALSE;
}

void
jvms_quantum_mode_set (JvmsQuantumMode *self,
                       JvmsHistory     *history,
                       JvmsThreadList  *threads,
                       const char      *colour,
                       const char      *shade)
{
  if (!jvms_quantum_colour_parse (colour, &self->colour))
    self->colour = JVMS_QUANTUM_COLOUR_STATE;
  g_clear_pointer (&self->shade, g_free);
  self->numerator = self->denominator = NULL;
  self->found = self->exact = FALSE;
  self->trace_top = NAN;
  if (shade == NULL || *shade == '\0' || g_str_equal (shade, "none"))
    return;
  self->shade = g_strdup (shade);
  if (g_str_equal (shade, "ipc"))
    {
      self->numerator = "instructions";
      self->denominator = "cycles";
    }
  else if (g_str_equal (shade, "miss-ratio"))
    {
      self->numerator = "cache-misses";
      self->denominator = "cache-references";
    }
  else
    self->numerator = self->shade;
  if (history == NULL)
    return;
  /* Exact counts where perf read the counters at each switch; else the sampled rates. */
  self->exact = has_counters (self, history, threads, TRUE);
  self->found = self->exact || has_counters (self, history, threads, FALSE);
  /* One scale for the whole trace, once it is all there and known: what scrolling or zooming
   * shows never changes it (docs/records.md, "The shade's scale"). */
  if (self->found && jvms_history_is_complete (history) &&
      !jvms_quantum_scale_lookup (self, history, &self->trace_top))
    self->trace_top = NAN;
}

char **
jvms_quantum_shade_names (JvmsHistory    *history,
                          JvmsThreadList *threads)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  g_ptr_array_add (names, g_strdup ("none"));
  for (guint i = 0; history != NULL && threads != NULL && i < jvms_thread_list_get_len (threads); i++)
    {
      const JvmsThreadInfo *t = jvms_thread_list_get (threads, i);
      if (t->kind == JVMS_THREAD_KIND_OTHER_PROCESS || t->folder == JVMS_ATTRIBUTE_INVALID)
        continue;
      for (guint k = 0; k < 2; k++)
        {
          JvmsAttribute folder = jvms_history_lookup_child (history, t->folder, k == 0 ? "switch-counters" : "counters");
          if (folder == JVMS_ATTRIBUTE_INVALID)
            continue;
          g_autoptr(GArray) children = jvms_history_list_children (history, folder);
          for (guint c = 0; c < children->len; c++)
            {
              const char *name = jvms_history_get_name (history, g_array_index (children, JvmsAttribute, c));
              if (name != NULL && !g_hash_table_contains (seen, name))
                {
                  g_hash_table_add (seen, (gpointer) name);
                  g_ptr_array_add (names, g_strdup (name));
                }
            }
        }
    }
  if (g_hash_table_contains (seen, "instructions") && g_hash_table_contains (seen, "cycles"))
    g_ptr_array_add (names, g_strdup ("ipc"));
  if (g_hash_table_contains (seen, "cache-misses") && g_hash_table_contains (seen, "cache-references"))
    g_ptr_array_add (names, g_strdup ("miss-ratio"));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_steal (names, NULL);
}

void
jvms_quantum_mode_lanes (const JvmsQuantumMode *self,
                         JvmsHistory           *history,
                         const JvmsThreadInfo  *thread,
                         JvmsAttribute         *out)
{
  /* The colour by CPU, and where the thread was wholly on a CPU (the glyphs). */
  out[0] = thread->kernel_state != JVMS_ATTRIBUTE_INVALID
             ? jvms_history_lookup_child (history, thread->kernel_state, "cpu")
             : JVMS_ATTRIBUTE_INVALID;
  out[1] = self->found ? counter_of (history, thread, self->exact, self->numerator) : JVMS_ATTRIBUTE_INVALID;
  out[2] = self->found ? counter_of (history, thread, self->exact, self->denominator) : JVMS_ATTRIBUTE_INVALID;
  out[3] = self->found && self->exact ? counter_of (history, thread, TRUE, "context-switches")
                                      : JVMS_ATTRIBUTE_INVALID;
}

gboolean
jvms_quantum_value_number (const JvmsValue *v,
                           double          *out)
{
  if (v->type == JVMS_VALUE_INT)
    *out = (double) v->i;
  else if (v->type == JVMS_VALUE_DOUBLE)
    *out = v->d;
  else
    return FALSE;
  return TRUE;
}

/* The value that held longest in column @c of @cells, NaN when none. */
static double
cell_value (const JvmsSummaryCell *cells,
            int                    c)
{
  double v;

  if (cells == NULL || (cells[c].flags & JVMS_SUMMARY_EMPTY) || !jvms_quantum_value_number (&cells[c].dominant, &v))
    return NAN;
  return v;
}

double
jvms_quantum_mode_value_of (const JvmsQuantumMode *self,
                            double                 num,
                            double                 den,
                            double                 cs)
{
  /* A run that held a switch perf did not record shares its counts: none of them is its own. */
  if (isnan (num) || (!isnan (cs) && cs > 1))
    return NAN;
  if (self->denominator == NULL)
    return num;
  return isnan (den) || den == 0 ? NAN : num / den;
}

double
jvms_quantum_mode_value (const JvmsQuantumMode        *self,
                         const JvmsSummaryCell *const *lanes,
                         int                           c)
{
  if (self->shade == NULL || !self->found)
    return NAN;
  return jvms_quantum_mode_value_of (self, cell_value (lanes[1], c), cell_value (lanes[2], c), cell_value (lanes[3], c));
}

static gboolean
on_cpu (const JvmsSummaryCell *cell)
{
  return !(cell->flags & JVMS_SUMMARY_EMPTY) && cell->dominant.type == JVMS_VALUE_INT &&
         (cell->dominant.i == JVMS_KERNEL_STATE_RUNNING || cell->dominant.i == JVMS_KERNEL_STATE_SYSCALL);
}


void
jvms_quantum_mode_scale_begin (JvmsQuantumMode *self)
{
  self->vmax = 0;
  self->any_value = FALSE;
}

void
jvms_quantum_mode_scale_row (JvmsQuantumMode              *self,
                             const JvmsTimelineGeometry   *g,
                             const JvmsSummaryCell        *kernel,
                             const JvmsSummaryCell *const *lanes)
{
  if (kernel == NULL || self->shade == NULL)
    return;
  for (int c = 0; c < g->n_columns; c++)
    {
      double v;
      if (!on_cpu (&kernel[c]) || isnan (v = jvms_quantum_mode_value (self, lanes, c)))
        continue;
      self->vmax = MAX (self->vmax, v);
      self->any_value = TRUE;
    }
}

static const char *
shade_title (const JvmsQuantumMode *self)
{
  if (g_strcmp0 (self->shade, "ipc") == 0)
    return _("IPC (instructions / cycles)");
  if (g_strcmp0 (self->shade, "miss-ratio") == 0)
    return _("cache miss ratio (cache-misses / cache-references)");
  return self->shade;
}

static const char *
basis_text (const JvmsQuantumMode *self)
{
  if (!self->found)
    return _("not recorded");
  return self->exact ? _("exact: counted from each quantum's switch-in to its switch-out")
                     : _("estimated: the rate of the periodic samples, per second on CPU");
}

void
jvms_quantum_mode_scale_finish (JvmsQuantumMode *self)
{
  double step;

  /* The whole trace's largest value once known; then 1, 2 or 5 × 10^n at or above it: a
   * scale that reads at a glance. */
  if (!isnan (self->trace_top))
    self->vmax = self->trace_top;
  if (!(self->vmax > 0))
    self->vmax = 1;
  step = pow (10, floor (log10 (self->vmax)));
  if (self->vmax <= step * 1.000000001)
    self->vmax = step;
  else if (self->vmax <= 2 * step)
    self->vmax = 2 * step;
  else if (self->vmax <= 5 * step)
    self->vmax = 5 * step;
  else
    self->vmax = 10 * step;
  g_clear_pointer (&self->scale_text, g_free);
  g_clear_pointer (&self->low_text, g_free);
  if (self->shade != NULL)
    {
      self->low_text = g_strdup_printf (_("Shade: %s 0"), shade_title (self));
      self->scale_text = g_strdup_printf (_("to %g (%s)"), self->vmax, basis_text (self));
    }
}

static JvmsColor
base_color (const JvmsQuantumMode        *self,
            const JvmsPalette            *palette,
            gint64                        tid,
            const JvmsSummaryCell        *kernel,
            const JvmsSummaryCell *const *lanes,
            int                           c)
{
  double cpu;

  switch (self->colour)
    {
    case JVMS_QUANTUM_COLOUR_CPU:
      cpu = cell_value (lanes[0], c);
      if (!isnan (cpu))
        return jvms_palette_cpu (palette, (gint64) cpu);
      break;
    case JVMS_QUANTUM_COLOUR_THREAD:
      return jvms_palette_thread (palette, tid, FALSE);
    case JVMS_QUANTUM_COLOUR_STATE:
    default:
      break;
    }
  return jvms_palette_kernel_state (palette, kernel[c].dominant.i);
}

JvmsColor
jvms_quantum_mode_color (const JvmsQuantumMode        *self,
                         const JvmsPalette            *palette,
                         gint64                        tid,
                         const JvmsSummaryCell        *kernel,
                         const JvmsSummaryCell *const *lanes,
                         int                           c)
{
  JvmsColor col = base_color (self, palette, tid, kernel, lanes, c);

  if (self->shade != NULL && self->found)
    {
      double v = jvms_quantum_mode_value (self, lanes, c);
      col.a *= isnan (v) ? SHADE_NONE : SHADE_LOW + (1 - SHADE_LOW) * CLAMP (v / self->vmax, 0, 1);
    }
  return col;
}

static JvmsColor
column_color (const JvmsQuantumMode        *self,
              const JvmsPalette            *palette,
              gint64                        tid,
              const JvmsSummaryCell        *kernel,
              const JvmsSummaryCell *const *lanes,
              int                           c)
{
  if (kernel[c].flags & JVMS_SUMMARY_EMPTY || kernel[c].dominant.type != JVMS_VALUE_INT ||
      kernel[c].dominant.i == JVMS_KERNEL_STATE_EXITED)
    return (JvmsColor) { 0 };
  if (on_cpu (&kernel[c]))
    return jvms_quantum_mode_color (self, palette, tid, kernel, lanes, c);
  return jvms_palette_kernel_state (palette, kernel[c].dominant.i);
}

static gboolean
same_color (const JvmsColor *a,
            const JvmsColor *b)
{
  return a->r == b->r && a->g == b->g && a->b == b->b && a->a == b->a;
}

void
jvms_quantum_mode_begin_glyphs (JvmsQuantumMode *self)
{
  self->glyph_queries = JVMS_QUANTUM_GLYPH_QUERIES;
  self->glyphs_cut = FALSE;
}

static gboolean
state_on_cpu (const JvmsValue *v)
{
  return v->type == JVMS_VALUE_INT &&
         (v->i == JVMS_KERNEL_STATE_RUNNING || v->i == JVMS_KERNEL_STATE_SYSCALL);
}

static gboolean
query (JvmsQuantumMode *self,
       JvmsHistory     *history,
       JvmsAttribute    attribute,
       gint64           time,
       JvmsInterval    *out)
{
  if (self->glyph_queries == 0)
    {
      self->glyphs_cut = TRUE;
      return FALSE;
    }
  self->glyph_queries--;
  return jvms_history_query_single (history, attribute, time, out, NULL);
}

void
jvms_quantum_mode_find_glyphs (JvmsQuantumMode            *self,
                               JvmsHistory                *history,
                               const JvmsTimelineGeometry *g,
                               JvmsAttribute               kernel_state,
                               const JvmsSummaryCell      *kernel,
                               const JvmsSummaryCell      *cpu,
                               GArray                     *out)
{
  double span = (double) (g->t1 - g->t0) / MAX (g->n_columns, 1);

  if (cpu == NULL)
    return;
  for (int c = 1; c < g->n_columns; c++)
    {
      JvmsInterval iv;
      gint64 at, column_end;

      /* A column wholly on one CPU (the cpu attribute is null off a CPU), then one that is
       * not: the switch-out is in the second. System calls inside a quantum change the state,
       * not the CPU. */
      if ((cpu[c - 1].flags & (JVMS_SUMMARY_MIXED | JVMS_SUMMARY_EMPTY)) ||
          cpu[c - 1].dominant.type != JVMS_VALUE_INT || (kernel[c].flags & JVMS_SUMMARY_EMPTY) ||
          (!(cpu[c].flags & JVMS_SUMMARY_MIXED) && cpu[c].dominant.type == JVMS_VALUE_INT))
        continue;
      at = g->t0 + (gint64) ceil (c * span);
      column_end = g->t0 + (gint64) ceil ((c + 1) * span);
      if (!query (self, history, kernel_state, at, &iv))
        {
          if (self->glyphs_cut)
            return;
          continue;
        }
      /* Quanta run on through system calls: their states are followed to the column's end
       * (each a query of the frame's budget). */
      while (state_on_cpu (&iv.value) && iv.end < column_end &&
             query (self, history, kernel_state, iv.end, &iv))
        ;
      if (state_on_cpu (&iv.value) || iv.value.type != JVMS_VALUE_INT)
        continue;
      JvmsQuantumGlyph glyph = {
        .column = (int) floor ((double) (iv.start - g->t0) / span),
        .kind = iv.value.i == JVMS_KERNEL_STATE_RUNNABLE ? 'p'
                : iv.value.i == JVMS_KERNEL_STATE_BLOCKED || iv.value.i == JVMS_KERNEL_STATE_BLOCKED_IO ? 'y'
                : 0,
      };
      if (glyph.kind != 0 && glyph.column >= 0 && glyph.column < g->n_columns)
        g_array_append_val (out, glyph);
    }
}

typedef struct
{
  const JvmsQuantumMode        *self;
  gint64                        tid;
  const JvmsSummaryCell        *kernel;
  const JvmsSummaryCell *const *lanes;
} ThreadColumns;

static JvmsColor
thread_column_color (const JvmsPalette *palette, int c, gpointer data)
{
  const ThreadColumns *t = data;
  return column_color (t->self, palette, t->tid, t->kernel, t->lanes, c);
}

void
jvms_quantum_lane_draw (const JvmsQuantumMode        *self,
                        cairo_t                      *cr,
                        const JvmsTimelineGeometry   *g,
                        gint64                        tid,
                        const JvmsSummaryCell        *kernel,
                        const JvmsSummaryCell *const *lanes,
                        const JvmsQuantumGlyph       *glyphs,
                        guint                         n_glyphs,
                        double                        y,
                        double                        height)
{
  ThreadColumns t = { self, tid, kernel, lanes };
  jvms_quantum_lane_paint (cr, g, kernel, thread_column_color, &t, glyphs, n_glyphs, y, height);
}

void
jvms_quantum_lane_paint (cairo_t                    *cr,
                         const JvmsTimelineGeometry *g,
                         const JvmsSummaryCell      *cells,
                         JvmsQuantumColumnColor      color,
                         gpointer                    data,
                         const JvmsQuantumGlyph     *glyphs,
                         guint                       n_glyphs,
                         double                      y,
                         double                      height)
{
  const JvmsSummaryCell *kernel = cells;
  double mark = MAX (2.0, floor (height / 3));
  int start = 0, last_glyph = -GLYPH_GAP;
  JvmsColor run = { 0 };

  cairo_save (cr);
  /* Whole pixels: each column's colour and each glyph exactly where a test reads them. */
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (int c = 0; c <= g->n_columns; c++)
    {
      JvmsColor col = c < g->n_columns ? color (g->palette, c, data) : (JvmsColor) { 0 };
      if (c < g->n_columns && same_color (&col, &run))
        continue;
      if (run.a > 0 && c > start)
        {
          jvms_color_set (cr, &run);
          cairo_rectangle (cr, g->gutter + start, y, c - start, height);
          cairo_fill (cr);
        }
      run = col;
      start = c;
    }
  /* Several states in a pixel: the lanes' mark along the lower edge. */
  jvms_color_set (cr, &g->palette->mixed_mark);
  for (int c = 0; c < g->n_columns; c++)
    if (kernel[c].flags & JVMS_SUMMARY_MIXED)
      {
        int e = c;
        while (e + 1 < g->n_columns && (kernel[e + 1].flags & JVMS_SUMMARY_MIXED))
          e++;
        cairo_rectangle (cr, g->gutter + c, y + height - mark, e - c + 1, mark);
        c = e;
      }
  cairo_fill (cr);
  /* How each quantum ended: ▼ preempted at the top edge, a tick where it yielded. */
  jvms_color_set (cr, &g->palette->foreground);
  for (guint i = 0; i < n_glyphs; i++)
    {
      int c = glyphs[i].column;
      double x = g->gutter + c;
      if (c - last_glyph < GLYPH_GAP)
        continue;
      last_glyph = c;
      if (glyphs[i].kind == 'p')
        {
          cairo_rectangle (cr, x - 2, y, 5, 1);
          cairo_rectangle (cr, x - 1, y + 1, 3, 1);
          cairo_rectangle (cr, x, y + 2, 1, 1);
        }
      else
        cairo_rectangle (cr, x, y, 1, MIN (5, height));
    }
  cairo_fill (cr);
  cairo_restore (cr);
}

void
jvms_quantum_mode_legend (JvmsQuantumMode   *self,
                          const JvmsPalette *palette,
                          GArray            *entries)
{
  JvmsColor full = self->colour == JVMS_QUANTUM_COLOUR_CPU ? jvms_palette_cpu (palette, 0)
                   : self->colour == JVMS_QUANTUM_COLOUR_THREAD ? jvms_palette_thread (palette, 12345, FALSE)
                   : jvms_palette_kernel_state (palette, JVMS_KERNEL_STATE_RUNNING);

  if (self->colour == JVMS_QUANTUM_COLOUR_CPU)
    {
      JvmsLegendEntry e = { _("On CPU: a colour per CPU: CPU 0"), full };
      JvmsLegendEntry e1 = { _("CPU 1"), jvms_palette_cpu (palette, 1) };
      g_array_append_val (entries, e);
      g_array_append_val (entries, e1);
    }
  else if (self->colour == JVMS_QUANTUM_COLOUR_THREAD)
    {
      JvmsLegendEntry e = { _("On CPU: a colour per thread"), full };
      g_array_append_val (entries, e);
    }
  if (self->shade != NULL)
    {
      JvmsColor faint = full, none = full;
      faint.a *= SHADE_LOW;
      none.a *= SHADE_NONE;
      if (self->scale_text == NULL)
        jvms_quantum_mode_scale_finish (self);
      JvmsLegendEntry low = { self->low_text, faint };
      JvmsLegendEntry high = { self->scale_text, full };
      JvmsLegendEntry missing = { self->found ? _("No value for the quantum")
                                              : _("The shade's counters were not recorded"), none };
      g_array_append_val (entries, low);
      g_array_append_val (entries, high);
      g_array_append_val (entries, missing);
    }
  JvmsLegendEntry preempted = { _("▼ Preempted: left runnable"), palette->foreground };
  JvmsLegendEntry yielded = { _("╷ Yielded: gave up the CPU (blocked)"), palette->foreground };
  g_array_append_val (entries, preempted);
  g_array_append_val (entries, yielded);
  if (self->glyphs_cut)
    {
      JvmsLegendEntry cut = { _("Some quanta's glyphs left out: zoom in"), palette->lane_empty };
      g_array_append_val (entries, cut);
    }
}

/* The value of @attribute at @time, NaN when none. */
static double
value_at (JvmsHistory   *history,
          JvmsAttribute  attribute,
          gint64         time)
{
  JvmsInterval iv;
  double v;

  if (attribute == JVMS_ATTRIBUTE_INVALID ||
      !jvms_history_query_single (history, attribute, time, &iv, NULL) ||
      !jvms_quantum_value_number (&iv.value, &v))
    return NAN;
  return v;
}

char *
jvms_quantum_mode_describe (const JvmsQuantumMode *self,
                            JvmsHistory           *history,
                            const JvmsThreadInfo  *thread,
                            gint64                 time)
{
  JvmsAttribute lanes[JVMS_QUANTUM_LANES];
  double num, den, cs, v;

  if (self->shade == NULL)
    return NULL;
  if (!self->found)
    return g_strdup_printf (_("%s: not recorded"), shade_title (self));
  jvms_quantum_mode_lanes (self, history, thread, lanes);
  num = value_at (history, lanes[1], time);
  den = value_at (history, lanes[2], time);
  cs = value_at (history, lanes[3], time);
  v = self->denominator == NULL ? num : (den != 0 ? num / den : NAN);
  if (isnan (v) || (!isnan (cs) && cs > 1))
    return g_strdup_printf (_("%s: no value here (%s)"), shade_title (self), basis_text (self));
  if (self->exact)
    return g_strdup_printf (_("%s: %.6g in this quantum (%s)"), shade_title (self), v, basis_text (self));
  return g_strdup_printf (_("%s: ≈ %.6g (%s)"), shade_title (self), v, basis_text (self));
}

char *
jvms_quantum_mode_summary (const JvmsQuantumMode *self)
{
  g_autoptr(GString) text = g_string_new (NULL);

  g_string_append_printf (text, "coloured by %s", colour_nicks[self->colour]);
  if (self->shade != NULL)
    g_string_append_printf (text, ", shaded by %s from 0 to %.17g (%s%s)", self->shade,
                            self->vmax, !self->found ? "not recorded"
                                        : self->exact ? "exact" : "estimated",
                            self->any_value ? "" : ", no value in view");
  return g_string_free (g_steal_pointer (&text), FALSE);
}
