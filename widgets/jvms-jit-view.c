/* jvms-jit-view.c */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "jvms-event-query.h"
#include "jvms-event-ticks.h"
#include "jvms-jit-view.h"
#include "jvms-lane.h"
#include "jvms-row-cells.h"
#include "jvms-thread-folders.h"

#define ROW_H JVMS_JIT_VIEW_ROW_HEIGHT
#define DEOPT_TYPE "jdk.Deoptimization"
/* Deoptimizations listed in a tooltip. */
#define TOOLTIP_DEOPTS 5

enum
{
  LANE_METHOD,
  LANE_TIER,
  N_LANES
};

struct _JvmsJitView
{
  JvmsTimeline     parent_instance;
  GArray          *compilers;  /* JvmsThreadFolder: compilation, compilation/tier, compilation/size */
  JvmsRowCells     cells;      /* method and tier lanes of each compiler row */
  JvmsEventStore  *store;
  guint32          deopt_type; /* in the store, or JVMS_EVENT_NONE: no deoptimization row */
  JvmsEventColumn *deopts;     /* per column, for the deoptimization row */
  int              deopt_columns;
  guint64          n_deopts;
};

G_DEFINE_FINAL_TYPE (JvmsJitView, jvms_jit_view, JVMS_TYPE_TIMELINE)

JvmsColor
jvms_jit_tier_color (const JvmsPalette *palette,
                     gint64             tier)
{
  /* Okabe-Ito: the C1 tiers in greens and blues, C2 in orange. */
  switch (tier)
    {
    case 1: return (JvmsColor) { 0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0, 1 };
    case 2: return (JvmsColor) { 0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0, 1 };
    case 3: return (JvmsColor) { 0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0, 1 };
    case 4: return (JvmsColor) { 0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0, 1 };
    default:
      {
        JvmsColor c = palette->foreground;
        c.a = 0.4;
        return c;
      }
    }
}

static gboolean
has_deopt_row (JvmsJitView *self)
{
  return self->deopt_type != JVMS_EVENT_NONE;
}

static guint
n_rows (JvmsJitView *self)
{
  return self->compilers->len + (has_deopt_row (self) ? 1 : 0);
}

static void
find_deopt_type (JvmsJitView *self)
{
  self->deopt_type = JVMS_EVENT_NONE;
  if (self->store != NULL)
    {
      guint32 type = jvms_event_store_find_type (self->store, DEOPT_TYPE);
      if (type != JVMS_EVENT_NONE && jvms_event_store_get_type (self->store, type)->n_rows > 0)
        self->deopt_type = type;
    }
}

static void
jvms_jit_view_reload (JvmsTimeline *timeline,
                      JvmsHistory  *history)
{
  JvmsJitView *self = JVMS_JIT_VIEW (timeline);
  g_autoptr(JvmsThreadList) threads = jvms_thread_list_read (history);
  static const char * const paths[] = { "compilation", "compilation/tier", "compilation/size" };

  jvms_row_cells_reset (&self->cells);
  g_clear_pointer (&self->compilers, g_array_unref);
  self->compilers = jvms_thread_folders_read (history, threads, "JIT", paths, G_N_ELEMENTS (paths));
  find_deopt_type (self);
}

static int
jvms_jit_view_get_content_height (JvmsTimeline *timeline)
{
  return n_rows (JVMS_JIT_VIEW (timeline)) * ROW_H;
}

static JvmsAttribute
compiler_lane (gpointer data,
               guint    row,
               guint    lane)
{
  JvmsJitView *self = data;

  /* The deoptimization row reads the event store, not the index. */
  if (row >= self->compilers->len)
    return JVMS_ATTRIBUTE_INVALID;
  return g_array_index (self->compilers, JvmsThreadFolder, row).attributes[lane];
}

static void
jvms_jit_view_compute (JvmsTimeline               *timeline,
                       JvmsHistory                *history,
                       const JvmsTimelineGeometry *g)
{
  JvmsJitView *self = JVMS_JIT_VIEW (timeline);
  guint first, last;

  jvms_row_cells_compute (&self->cells, history, g, n_rows (self), compiler_lane, self);
  self->n_deopts = 0;
  jvms_row_cells_band (g, ROW_H, n_rows (self), &first, &last);
  if (!has_deopt_row (self) || last <= self->compilers->len)
    return;
  if (self->deopt_columns != g->n_columns)
    {
      g_free (self->deopts);
      self->deopts = g_new (JvmsEventColumn, g->n_columns);
      self->deopt_columns = g->n_columns;
    }
  {
    g_autoptr(GError) error = NULL;
    if (!jvms_event_ticks_count (self->store, self->deopt_type, 0, g->t0, g->t1,
                                 g->n_columns, self->deopts, &error))
      {
        g_warning ("JIT view: %s", error->message);
        self->deopt_columns = 0;
        return;
      }
    for (int c = 0; c < g->n_columns; c++)
      self->n_deopts += self->deopts[c].starts;
  }
}

static JvmsColor
method_color (const JvmsPalette *palette,
              const JvmsValue   *value,
              gpointer           data)
{
  if (value->type != JVMS_VALUE_STRING)
    return (JvmsColor) { 0 };
  return jvms_palette_for_string (palette, value->s);
}

static JvmsColor
tier_color (const JvmsPalette *palette,
            const JvmsValue   *value,
            gpointer           data)
{
  if (value->type != JVMS_VALUE_INT)
    return (JvmsColor) { 0 };
  return jvms_jit_tier_color (palette, value->i);
}

/* The deoptimizations as ticks the height of the row: an instant each, so that one alone in
 * a wide pixel still shows. */
static void
draw_deopts (JvmsJitView                *self,
             cairo_t                    *cr,
             const JvmsTimelineGeometry *g,
             double                      y)
{
  JvmsColor tick = { 0xD5 / 255.0, 0x5E / 255.0, 0, 1 }; /* vermillion */

  if (self->deopts == NULL || self->deopt_columns != g->n_columns)
    return;
  jvms_color_set (cr, &tick);
  for (int c = 0; c < g->n_columns; c++)
    if (self->deopts[c].starts > 0)
      cairo_rectangle (cr, g->gutter + c, y + 2, 1, ROW_H - 4);
  cairo_fill (cr);
}

static void
draw_row (cairo_t                     *cr,
          const JvmsTimelineGeometry  *g,
          guint                        row,
          double                       y,
          const JvmsSummaryCell *const *lanes,
          gpointer                     data)
{
  JvmsJitView *self = data;

  if (row >= self->compilers->len)
    {
      jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 3, g->gutter - 10,
                                _("Deoptimizations"), FALSE);
      draw_deopts (self, cr, g, y);
      return;
    }
  jvms_timeline_draw_label (cr, &g->palette->foreground, 6, y + 3, g->gutter - 10,
                            g_array_index (self->compilers, JvmsThreadFolder, row).label, FALSE);
  if (lanes == NULL)
    return;
  if (lanes[LANE_METHOD] != NULL)
    jvms_lane_draw (cr, g, lanes[LANE_METHOD], y + JVMS_JIT_VIEW_METHOD_Y,
                    JVMS_JIT_VIEW_METHOD_HEIGHT, method_color, NULL);
  if (lanes[LANE_TIER] != NULL)
    jvms_lane_draw (cr, g, lanes[LANE_TIER], y + JVMS_JIT_VIEW_TIER_Y, JVMS_JIT_VIEW_TIER_HEIGHT,
                    tier_color, NULL);
}

static void
jvms_jit_view_draw (JvmsTimeline               *timeline,
                    cairo_t                    *cr,
                    const JvmsTimelineGeometry *g)
{
  JvmsJitView *self = JVMS_JIT_VIEW (timeline);

  jvms_row_cells_draw (&self->cells, cr, g, n_rows (self), draw_row, self);
}

static char *
method_text (const JvmsValue *value,
             gpointer         data)
{
  if (value->type != JVMS_VALUE_STRING)
    return g_strdup (_("Not compiling"));
  return g_strdup (value->s);
}

/* The int of @attribute at @time, -1 when none. */
static gint64
int_at (JvmsHistory   *history,
        JvmsAttribute  attribute,
        gint64         time)
{
  JvmsInterval interval;

  if (attribute == JVMS_ATTRIBUTE_INVALID ||
      !jvms_history_query_single (history, attribute, time, &interval, NULL) ||
      interval.value.type != JVMS_VALUE_INT)
    return -1;
  return interval.value.i;
}

/* A value of a deoptimization row as text, or "?". */
static const char *
field_text (JvmsEventStore        *store,
            const JvmsEventRecord *record,
            const char            *name,
            char                  *buffer,
            gsize                  size)
{
  gint field = jvms_event_store_find_field (store, record->type, name);
  const JvmsEventValue *v = field >= 0 ? jvms_event_record_find_value (record, field) : NULL;

  if (v == NULL)
    return "?";
  if (v->kind == JVMS_EVENT_VALUE_STRING)
    return v->s;
  if (v->kind == JVMS_EVENT_VALUE_INT)
    {
      g_snprintf (buffer, size, "%" G_GINT64_FORMAT, v->i);
      return buffer;
    }
  return "?";
}

typedef struct
{
  JvmsEventStore *store;
  JvmsSession    *session;
  GString        *text;
  guint           n;
} DeoptText;

static gboolean
add_deopt (const JvmsEventRecord *record,
           gpointer               data)
{
  DeoptText *d = data;
  char method[32], line[32], reason[32], action[32];
  g_autofree char *when = jvms_session_format_time (d->session, record->time, 0);

  if (d->n++ >= TOOLTIP_DEOPTS)
    return FALSE;
  /* TRANSLATORS: a deoptimization in a tooltip: method, line, reason, action, time */
  g_string_append_printf (d->text, _("\n%s line %s: %s, %s, at %s"),
                          field_text (d->store, record, "method", method, sizeof method),
                          field_text (d->store, record, "lineNumber", line, sizeof line),
                          field_text (d->store, record, "reason", reason, sizeof reason),
                          field_text (d->store, record, "action", action, sizeof action),
                          when);
  return TRUE;
}

static char *
deopt_tooltip (JvmsJitView                *self,
               const JvmsTimelineGeometry *g,
               gint64                      time)
{
  gint64 span = MAX ((g->t1 - g->t0) / MAX (g->n_columns, 1), 1);
  JvmsEventFilter filter = { .from = time, .to = time + span,
                             .keep_types = JVMS_EVENT_KEEP_THESE, .types = &self->deopt_type, .n_types = 1,
                             .keep_tids = JVMS_EVENT_KEEP_ALL };
  g_autoptr(JvmsEventQuery) q = jvms_event_query_new (self->store, &filter, NULL);
  g_autoptr(JvmsEventCursor) cursor = jvms_event_cursor_new (self->store);
  DeoptText d = { self->store, jvms_timeline_get_session (JVMS_TIMELINE (self)), NULL, 0 };
  guint64 n;

  if (q == NULL || (n = jvms_event_query_get_n_rows (q)) == 0)
    return g_strdup (_("Deoptimizations"));
  d.text = g_string_new (NULL);
  g_string_append_printf (d.text, g_dngettext (GETTEXT_PACKAGE, "%u deoptimization in this pixel",
                                               "%u deoptimizations in this pixel", (gulong) n),
                          (guint) n);
  jvms_event_query_foreach (q, cursor, 0, TRUE, add_deopt, &d, NULL);
  return g_string_free (d.text, FALSE);
}

static char *
jvms_jit_view_tooltip (JvmsTimeline               *timeline,
                       JvmsHistory                *history,
                       const JvmsTimelineGeometry *g,
                       double                      x,
                       double                      y,
                       gint64                      time)
{
  JvmsJitView *self = JVMS_JIT_VIEW (timeline);
  guint i = (guint) (y / ROW_H);
  const JvmsThreadFolder *c;
  JvmsInterval interval;
  g_autofree char *lane = NULL;
  g_autoptr(GString) text = NULL;

  if (y < 0 || i >= n_rows (self))
    return NULL;
  if (i >= self->compilers->len)
    return time == G_MININT64 ? g_strdup (_("Deoptimizations")) : deopt_tooltip (self, g, time);
  c = &g_array_index (self->compilers, JvmsThreadFolder, i);
  text = g_string_new (c->label);
  if (time == G_MININT64)
    return g_string_free (g_steal_pointer (&text), FALSE);
  lane = jvms_lane_describe (jvms_timeline_get_session (timeline), history, c->attributes[0], time,
                             (g->t1 - g->t0) / MAX (g->n_columns, 1), method_text, NULL, &interval);
  if (lane == NULL)
    return g_string_free (g_steal_pointer (&text), FALSE);
  g_string_append_printf (text, "\n%s", lane);
  if (interval.value.type == JVMS_VALUE_STRING)
    {
      gint64 tier = int_at (history, c->attributes[1], interval.start);
      gint64 size = int_at (history, c->attributes[2], interval.start);
      g_autofree char *bytes = size >= 0 ? g_format_size (size) : g_strdup ("?");
      /* TRANSLATORS: a compilation's compile level (1-3: C1, 4: C2) and code size */
      g_string_append_printf (text, _("\nTier %d (%s), %s of code"), (int) tier,
                              tier == 4 ? "C2" : tier >= 1 && tier <= 3 ? "C1" : "?", bytes);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static const char *
jvms_jit_view_get_title (JvmsTimeline *timeline)
{
  return _("JIT compilations");
}

static void
jvms_jit_view_legend (JvmsTimeline      *timeline,
                      const JvmsPalette *palette,
                      GArray            *entries)
{
  static const char *const tiers[] = { N_("Tier 1 (C1)"), N_("Tier 2 (C1)"), N_("Tier 3 (C1)"),
                                       N_("Tier 4 (C2)") };
  JvmsLegendEntry method = { _("Bar: a colour per method"),
                             jvms_palette_for_string (palette, "java.lang.String.hashCode") };
  JvmsLegendEntry deopt = { _("Deoptimization"), { 0xD5 / 255.0, 0x5E / 255.0, 0, 1 } };
  JvmsLegendEntry stripe = { _("Stripe:"), { 0 } };

  g_array_append_val (entries, method);
  g_array_append_val (entries, stripe);
  for (guint t = 0; t < G_N_ELEMENTS (tiers); t++)
    {
      JvmsLegendEntry e = { _(tiers[t]), jvms_jit_tier_color (palette, t + 1) };
      g_array_append_val (entries, e);
    }
  if (has_deopt_row (JVMS_JIT_VIEW (timeline)))
    g_array_append_val (entries, deopt);
}

static char *
jvms_jit_view_describe (JvmsTimeline *timeline)
{
  guint n = JVMS_JIT_VIEW (timeline)->compilers->len;
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u JIT compiler thread; each row shows its compilations, the method and its tier",
                                       "%u JIT compiler threads; each row shows their compilations, the method and its tier",
                                       n),
                          n);
}

static void
jvms_jit_view_finalize (GObject *object)
{
  JvmsJitView *self = JVMS_JIT_VIEW (object);

  jvms_row_cells_clear (&self->cells);
  g_clear_pointer (&self->compilers, g_array_unref);
  g_clear_pointer (&self->store, jvms_event_store_unref);
  g_clear_pointer (&self->deopts, g_free);
  G_OBJECT_CLASS (jvms_jit_view_parent_class)->finalize (object);
}

static void
jvms_jit_view_class_init (JvmsJitViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  JvmsTimelineClass *timeline_class = JVMS_TIMELINE_CLASS (klass);

  object_class->finalize = jvms_jit_view_finalize;
  timeline_class->reload = jvms_jit_view_reload;
  timeline_class->get_content_height = jvms_jit_view_get_content_height;
  timeline_class->uniform_row_height = ROW_H;
  timeline_class->compute = jvms_jit_view_compute;
  timeline_class->draw = jvms_jit_view_draw;
  timeline_class->tooltip = jvms_jit_view_tooltip;
  timeline_class->get_title = jvms_jit_view_get_title;
  timeline_class->legend = jvms_jit_view_legend;
  timeline_class->describe = jvms_jit_view_describe;
}

static void
jvms_jit_view_init (JvmsJitView *self)
{
  self->compilers = g_array_new (FALSE, TRUE, sizeof (JvmsThreadFolder));
  self->deopt_type = JVMS_EVENT_NONE;
  jvms_row_cells_init (&self->cells, "JIT", ROW_H, N_LANES);
  /* State lanes (the method, the tier): values only. */
  self->cells.lanes.values_only = TRUE;
}

GtkWidget *
jvms_jit_view_new (JvmsSession *session)
{
  return g_object_new (JVMS_TYPE_JIT_VIEW, "session", session, NULL);
}

void
jvms_jit_view_set_event_store (JvmsJitView    *self,
                               JvmsEventStore *store)
{
  g_return_if_fail (JVMS_IS_JIT_VIEW (self));
  if (store == self->store)
    return;
  g_clear_pointer (&self->store, jvms_event_store_unref);
  self->store = store != NULL ? jvms_event_store_ref (store) : NULL;
  find_deopt_type (self);
  jvms_timeline_reload (JVMS_TIMELINE (self));
}

guint
jvms_jit_view_get_n_compilers (JvmsJitView *self)
{
  g_return_val_if_fail (JVMS_IS_JIT_VIEW (self), 0);
  return self->compilers->len;
}

guint64
jvms_jit_view_get_n_deoptimizations (JvmsJitView *self)
{
  g_return_val_if_fail (JVMS_IS_JIT_VIEW (self), 0);
  return self->n_deopts;
}
