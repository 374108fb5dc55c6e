/* jvms-session.c: the shared time state of one window's views. */
#include "jvms-session.h"

#include <string.h>

G_DEFINE_BOXED_TYPE (JvmsHistory, jvms_history_boxed, jvms_history_ref, jvms_history_unref)

/* Enough to walk back through a long exploration, small enough to never matter in memory. */
#define MAX_ZOOM_HISTORY 128

typedef struct
{
  gint64 start;
  gint64 end;
} Range;

struct _JvmsSession
{
  GObject      parent_instance;

  JvmsHistory *history;
  gint64       start_time;
  gint64       end_time;
  gint64       visible_start;
  gint64       visible_end;
  gint64       selection_start;
  gint64       selection_end;
  gboolean     has_selection;
  gint64       hovered_time;
  gint64       highlighted_monitor;
  GArray      *highlighted_threads; /* gint64, sorted */
  GArray      *highlighted_spans;   /* JvmsSessionSpan */
  GArray      *back;                /* Range */
  GArray      *forward;             /* Range */
  JvmsTimeUnit   time_unit;
  JvmsTimeOrigin time_origin;
  char          *quantum_colour;    /* "state", "cpu", "thread" */
  char          *quantum_shade;     /* NULL: none */
};

G_DEFINE_FINAL_TYPE (JvmsSession, jvms_session, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_HISTORY,
  PROP_START_TIME,
  PROP_END_TIME,
  PROP_VISIBLE_START,
  PROP_VISIBLE_END,
  PROP_SELECTION_START,
  PROP_SELECTION_END,
  PROP_HAS_SELECTION,
  PROP_HOVERED_TIME,
  PROP_HIGHLIGHTED_MONITOR,
  PROP_HIGHLIGHTED_THREADS,
  PROP_HIGHLIGHTED_SPANS,
  PROP_CAN_GO_BACK,
  PROP_CAN_GO_FORWARD,
  PROP_TIME_UNIT,
  PROP_TIME_ORIGIN,
  PROP_QUANTUM_COLOUR,
  PROP_QUANTUM_SHADE,
  N_PROPS
};

enum
{
  HISTORY_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
set_int64 (JvmsSession *self,
           gint64      *field,
           gint64       value,
           guint        prop)
{
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
set_boolean (JvmsSession *self,
             gboolean    *field,
             gboolean     value,
             guint        prop)
{
  value = !!value;
  if (*field == value)
    return;
  *field = value;
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

static void
notify_navigation (JvmsSession *self,
                   gboolean     could_back,
                   gboolean     could_forward)
{
  if (could_back != jvms_session_can_go_back (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_BACK]);
  if (could_forward != jvms_session_can_go_forward (self))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_GO_FORWARD]);
}

/* Clamps a range into the trace, keeping its span when it can: a pan past the end stops at
 * the end instead of shrinking the view. */
static void
clamp_range (JvmsSession *self,
             gint64      *start,
             gint64      *end)
{
  gint64 s = MIN (*start, *end);
  gint64 e = MAX (*start, *end);
  gint64 trace_span = self->end_time - self->start_time;

  if (e - s < JVMS_SESSION_MIN_SPAN_NS)
    {
      gint64 mid = s + (e - s) / 2;
      s = mid - JVMS_SESSION_MIN_SPAN_NS / 2;
      e = s + JVMS_SESSION_MIN_SPAN_NS;
    }
  if (trace_span <= 0)
    {
      *start = self->start_time;
      *end = self->start_time + JVMS_SESSION_MIN_SPAN_NS;
      return;
    }
  if (e - s >= trace_span)
    {
      s = self->start_time;
      e = self->end_time;
    }
  else if (s < self->start_time)
    {
      e += self->start_time - s;
      s = self->start_time;
    }
  else if (e > self->end_time)
    {
      s -= e - self->end_time;
      e = self->end_time;
    }
  *start = s;
  *end = e;
}

static void
apply_visible (JvmsSession *self,
               gint64       start,
               gint64       end)
{
  g_object_freeze_notify (G_OBJECT (self));
  set_int64 (self, &self->visible_start, start, PROP_VISIBLE_START);
  set_int64 (self, &self->visible_end, end, PROP_VISIBLE_END);
  g_object_thaw_notify (G_OBJECT (self));
}

static void
push_range (GArray *stack,
            gint64  start,
            gint64  end)
{
  Range r = { start, end };

  if (stack->len > 0)
    {
      Range *top = &g_array_index (stack, Range, stack->len - 1);
      if (top->start == start && top->end == end)
        return;
    }
  if (stack->len >= MAX_ZOOM_HISTORY)
    g_array_remove_index (stack, 0);
  g_array_append_val (stack, r);
}

static void
jvms_session_finalize (GObject *object)
{
  JvmsSession *self = JVMS_SESSION (object);

  g_clear_pointer (&self->history, jvms_history_unref);
  g_clear_pointer (&self->highlighted_threads, g_array_unref);
  g_clear_pointer (&self->highlighted_spans, g_array_unref);
  g_clear_pointer (&self->back, g_array_unref);
  g_clear_pointer (&self->forward, g_array_unref);
  g_clear_pointer (&self->quantum_colour, g_free);
  g_clear_pointer (&self->quantum_shade, g_free);

  G_OBJECT_CLASS (jvms_session_parent_class)->finalize (object);
}

static void
jvms_session_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  JvmsSession *self = JVMS_SESSION (object);

  switch (prop_id)
    {
    case PROP_HISTORY:
      g_value_set_boxed (value, self->history);
      break;
    case PROP_START_TIME:
      g_value_set_int64 (value, self->start_time);
      break;
    case PROP_END_TIME:
      g_value_set_int64 (value, self->end_time);
      break;
    case PROP_VISIBLE_START:
      g_value_set_int64 (value, self->visible_start);
      break;
    case PROP_VISIBLE_END:
      g_value_set_int64 (value, self->visible_end);
      break;
    case PROP_SELECTION_START:
      g_value_set_int64 (value, self->selection_start);
      break;
    case PROP_SELECTION_END:
      g_value_set_int64 (value, self->selection_end);
      break;
    case PROP_HAS_SELECTION:
      g_value_set_boolean (value, self->has_selection);
      break;
    case PROP_HOVERED_TIME:
      g_value_set_int64 (value, self->hovered_time);
      break;
    case PROP_HIGHLIGHTED_MONITOR:
      g_value_set_int64 (value, self->highlighted_monitor);
      break;
    case PROP_HIGHLIGHTED_THREADS:
      g_value_set_boxed (value, self->highlighted_threads);
      break;
    case PROP_HIGHLIGHTED_SPANS:
      g_value_set_pointer (value, self->highlighted_spans);
      break;
    case PROP_CAN_GO_BACK:
      g_value_set_boolean (value, jvms_session_can_go_back (self));
      break;
    case PROP_CAN_GO_FORWARD:
      g_value_set_boolean (value, jvms_session_can_go_forward (self));
      break;
    case PROP_TIME_UNIT:
      g_value_set_enum (value, self->time_unit);
      break;
    case PROP_TIME_ORIGIN:
      g_value_set_enum (value, self->time_origin);
      break;
    case PROP_QUANTUM_COLOUR:
      g_value_set_string (value, self->quantum_colour);
      break;
    case PROP_QUANTUM_SHADE:
      g_value_set_string (value, self->quantum_shade);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_session_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  JvmsSession *self = JVMS_SESSION (object);

  switch (prop_id)
    {
    case PROP_HISTORY:
      jvms_session_set_history (self, g_value_get_boxed (value));
      break;
    case PROP_HOVERED_TIME:
      jvms_session_set_hovered_time (self, g_value_get_int64 (value));
      break;
    case PROP_HIGHLIGHTED_MONITOR:
      jvms_session_set_highlighted_monitor (self, g_value_get_int64 (value));
      break;
    case PROP_TIME_UNIT:
      jvms_session_set_time_unit (self, g_value_get_enum (value));
      break;
    case PROP_TIME_ORIGIN:
      jvms_session_set_time_origin (self, g_value_get_enum (value));
      break;
    case PROP_QUANTUM_COLOUR:
      jvms_session_set_quantum_colour (self, g_value_get_string (value));
      break;
    case PROP_QUANTUM_SHADE:
      jvms_session_set_quantum_shade (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
jvms_session_class_init (JvmsSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags ro = G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;
  GParamFlags rw = G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS;

  object_class->finalize = jvms_session_finalize;
  object_class->get_property = jvms_session_get_property;
  object_class->set_property = jvms_session_set_property;

  properties[PROP_HISTORY] =
    g_param_spec_boxed ("history", NULL, NULL, JVMS_TYPE_HISTORY_BOXED, rw);
  properties[PROP_START_TIME] =
    g_param_spec_int64 ("start-time", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_END_TIME] =
    g_param_spec_int64 ("end-time", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_VISIBLE_START] =
    g_param_spec_int64 ("visible-start", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_VISIBLE_END] =
    g_param_spec_int64 ("visible-end", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_SELECTION_START] =
    g_param_spec_int64 ("selection-start", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_SELECTION_END] =
    g_param_spec_int64 ("selection-end", NULL, NULL, G_MININT64, G_MAXINT64, 0, ro);
  properties[PROP_HAS_SELECTION] =
    g_param_spec_boolean ("has-selection", NULL, NULL, FALSE, ro);
  properties[PROP_HOVERED_TIME] =
    g_param_spec_int64 ("hovered-time", NULL, NULL, G_MININT64, G_MAXINT64, G_MININT64, rw);
  properties[PROP_HIGHLIGHTED_MONITOR] =
    g_param_spec_int64 ("highlighted-monitor", NULL, NULL, G_MININT64, G_MAXINT64, 0, rw);
  properties[PROP_HIGHLIGHTED_THREADS] =
    g_param_spec_boxed ("highlighted-threads", NULL, NULL, G_TYPE_ARRAY, ro);
  properties[PROP_HIGHLIGHTED_SPANS] =
    g_param_spec_pointer ("highlighted-spans", NULL, NULL, ro);
  properties[PROP_CAN_GO_BACK] =
    g_param_spec_boolean ("can-go-back", NULL, NULL, FALSE, ro);
  properties[PROP_CAN_GO_FORWARD] =
    g_param_spec_boolean ("can-go-forward", NULL, NULL, FALSE, ro);
  properties[PROP_TIME_UNIT] =
    g_param_spec_enum ("time-unit", NULL, NULL, JVMS_TYPE_TIME_UNIT, JVMS_TIME_UNIT_AUTO, rw);
  properties[PROP_TIME_ORIGIN] =
    g_param_spec_enum ("time-origin", NULL, NULL, JVMS_TYPE_TIME_ORIGIN,
                       JVMS_TIME_ORIGIN_TRACE_START, rw);
  properties[PROP_QUANTUM_COLOUR] =
    g_param_spec_string ("quantum-colour", NULL, NULL, "state", rw);
  properties[PROP_QUANTUM_SHADE] =
    g_param_spec_string ("quantum-shade", NULL, NULL, NULL, rw);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[HISTORY_CHANGED] =
    g_signal_new ("history-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
jvms_session_init (JvmsSession *self)
{
  self->hovered_time = G_MININT64;
  self->quantum_colour = g_strdup ("state");
  self->visible_end = JVMS_SESSION_MIN_SPAN_NS;
  self->end_time = JVMS_SESSION_MIN_SPAN_NS;
  self->highlighted_threads = g_array_new (FALSE, FALSE, sizeof (gint64));
  self->highlighted_spans = g_array_new (FALSE, FALSE, sizeof (JvmsSessionSpan));
  self->back = g_array_new (FALSE, FALSE, sizeof (Range));
  self->forward = g_array_new (FALSE, FALSE, sizeof (Range));
}

JvmsSession *
jvms_session_new (void)
{
  return g_object_new (JVMS_TYPE_SESSION, NULL);
}

void
jvms_session_set_history (JvmsSession *self,
                          JvmsHistory *history)
{
  gboolean could_back, could_forward;
  gint64 start = 0, end = JVMS_SESSION_MIN_SPAN_NS;

  g_return_if_fail (JVMS_IS_SESSION (self));

  if (self->history == history)
    return;

  could_back = jvms_session_can_go_back (self);
  could_forward = jvms_session_can_go_forward (self);

  g_object_freeze_notify (G_OBJECT (self));

  g_clear_pointer (&self->history, jvms_history_unref);
  if (history != NULL)
    {
      self->history = jvms_history_ref (history);
      start = jvms_history_get_start_time (history);
      end = MAX (jvms_history_get_end_time (history), start + JVMS_SESSION_MIN_SPAN_NS);
    }
  g_array_set_size (self->back, 0);
  g_array_set_size (self->forward, 0);

  set_int64 (self, &self->start_time, start, PROP_START_TIME);
  set_int64 (self, &self->end_time, end, PROP_END_TIME);
  apply_visible (self, start, end);
  jvms_session_clear_selection (self);
  jvms_session_clear_highlight (self);
  jvms_session_set_hovered_time (self, G_MININT64);
  notify_navigation (self, could_back, could_forward);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HISTORY]);

  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[HISTORY_CHANGED], 0);
}

JvmsHistory *
jvms_session_get_history (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), NULL);
  return self->history;
}

void
jvms_session_history_changed (JvmsSession *self)
{
  gint64 end;
  gboolean all_visible;

  g_return_if_fail (JVMS_IS_SESSION (self));

  if (self->history == NULL)
    return;

  end = MAX (jvms_history_get_end_time (self->history),
             self->start_time + JVMS_SESSION_MIN_SPAN_NS);
  all_visible = self->visible_start == self->start_time && self->visible_end == self->end_time;

  g_object_freeze_notify (G_OBJECT (self));
  set_int64 (self, &self->end_time, end, PROP_END_TIME);
  if (all_visible)
    apply_visible (self, self->start_time, end);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[HISTORY_CHANGED], 0);
}

gint64
jvms_session_get_start_time (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), 0);
  return self->start_time;
}

gint64
jvms_session_get_end_time (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), 0);
  return self->end_time;
}

void
jvms_session_get_visible (JvmsSession *self,
                          gint64      *start,
                          gint64      *end)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  if (start != NULL)
    *start = self->visible_start;
  if (end != NULL)
    *end = self->visible_end;
}

gint64
jvms_session_get_visible_start (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), 0);
  return self->visible_start;
}

gint64
jvms_session_get_visible_end (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), 0);
  return self->visible_end;
}

void
jvms_session_set_visible (JvmsSession *self,
                          gint64       start,
                          gint64       end,
                          gboolean     record)
{
  gboolean could_back, could_forward;

  g_return_if_fail (JVMS_IS_SESSION (self));

  clamp_range (self, &start, &end);
  if (start == self->visible_start && end == self->visible_end)
    return;

  could_back = jvms_session_can_go_back (self);
  could_forward = jvms_session_can_go_forward (self);
  g_object_freeze_notify (G_OBJECT (self));
  if (record)
    {
      push_range (self->back, self->visible_start, self->visible_end);
      g_array_set_size (self->forward, 0);
    }
  apply_visible (self, start, end);
  notify_navigation (self, could_back, could_forward);
  g_object_thaw_notify (G_OBJECT (self));
}

void
jvms_session_zoom_at (JvmsSession *self,
                      gint64       anchor,
                      double       factor)
{
  double span, left_fraction, new_span;
  gint64 start;

  g_return_if_fail (JVMS_IS_SESSION (self));
  g_return_if_fail (factor > 0);

  span = (double) (self->visible_end - self->visible_start);
  anchor = CLAMP (anchor, self->visible_start, self->visible_end);
  left_fraction = (anchor - self->visible_start) / span;
  new_span = MAX (span * factor, (double) JVMS_SESSION_MIN_SPAN_NS);
  start = anchor - (gint64) (left_fraction * new_span);
  jvms_session_set_visible (self, start, start + (gint64) new_span, TRUE);
}

void
jvms_session_pan (JvmsSession *self,
                  double       fraction)
{
  gint64 span, delta;

  g_return_if_fail (JVMS_IS_SESSION (self));

  span = self->visible_end - self->visible_start;
  delta = (gint64) (fraction * (double) span);
  if (delta == 0)
    delta = fraction < 0 ? -1 : fraction > 0 ? 1 : 0;
  jvms_session_set_visible (self, self->visible_start + delta, self->visible_end + delta, FALSE);
}

void
jvms_session_zoom_to_selection (JvmsSession *self)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  if (!self->has_selection)
    return;
  jvms_session_set_visible (self, self->selection_start, self->selection_end, TRUE);
}

void
jvms_session_zoom_all (JvmsSession *self)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  jvms_session_set_visible (self, self->start_time, self->end_time, TRUE);
}

gboolean
jvms_session_can_go_back (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), FALSE);
  return self->back->len > 0;
}

gboolean
jvms_session_can_go_forward (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), FALSE);
  return self->forward->len > 0;
}

static void
step (JvmsSession *self,
      GArray      *from,
      GArray      *to)
{
  gboolean could_back = jvms_session_can_go_back (self);
  gboolean could_forward = jvms_session_can_go_forward (self);
  Range r;

  if (from->len == 0)
    return;
  r = g_array_index (from, Range, from->len - 1);
  g_array_set_size (from, from->len - 1);
  push_range (to, self->visible_start, self->visible_end);
  clamp_range (self, &r.start, &r.end);

  g_object_freeze_notify (G_OBJECT (self));
  apply_visible (self, r.start, r.end);
  notify_navigation (self, could_back, could_forward);
  g_object_thaw_notify (G_OBJECT (self));
}

void
jvms_session_go_back (JvmsSession *self)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  step (self, self->back, self->forward);
}

void
jvms_session_go_forward (JvmsSession *self)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  step (self, self->forward, self->back);
}

gboolean
jvms_session_get_selection (JvmsSession *self,
                            gint64      *start,
                            gint64      *end)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), FALSE);
  if (start != NULL)
    *start = self->selection_start;
  if (end != NULL)
    *end = self->selection_end;
  return self->has_selection;
}

gboolean
jvms_session_get_has_selection (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), FALSE);
  return self->has_selection;
}

void
jvms_session_set_selection (JvmsSession *self,
                            gint64       start,
                            gint64       end)
{
  gint64 s = MIN (start, end), e = MAX (start, end);

  g_return_if_fail (JVMS_IS_SESSION (self));

  s = MAX (s, self->start_time);
  e = MIN (e, self->end_time);
  if (e <= s)
    {
      jvms_session_clear_selection (self);
      return;
    }
  g_object_freeze_notify (G_OBJECT (self));
  set_int64 (self, &self->selection_start, s, PROP_SELECTION_START);
  set_int64 (self, &self->selection_end, e, PROP_SELECTION_END);
  set_boolean (self, &self->has_selection, TRUE, PROP_HAS_SELECTION);
  g_object_thaw_notify (G_OBJECT (self));
}

void
jvms_session_clear_selection (JvmsSession *self)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  g_object_freeze_notify (G_OBJECT (self));
  set_int64 (self, &self->selection_start, 0, PROP_SELECTION_START);
  set_int64 (self, &self->selection_end, 0, PROP_SELECTION_END);
  set_boolean (self, &self->has_selection, FALSE, PROP_HAS_SELECTION);
  g_object_thaw_notify (G_OBJECT (self));
}

gint64
jvms_session_get_hovered_time (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), G_MININT64);
  return self->hovered_time;
}

void
jvms_session_set_hovered_time (JvmsSession *self,
                               gint64       time)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  set_int64 (self, &self->hovered_time, time, PROP_HOVERED_TIME);
}

gint64
jvms_session_get_highlighted_monitor (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), 0);
  return self->highlighted_monitor;
}

void
jvms_session_set_highlighted_monitor (JvmsSession *self,
                                      gint64       address)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  set_int64 (self, &self->highlighted_monitor, address, PROP_HIGHLIGHTED_MONITOR);
}

static int
compare_tid (gconstpointer a,
             gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return x < y ? -1 : x > y;
}

void
jvms_session_set_highlighted_threads (JvmsSession  *self,
                                      const gint64 *tids,
                                      guint         n_tids)
{
  g_autoptr(GArray) sorted = g_array_new (FALSE, FALSE, sizeof (gint64));
  guint out = 0;

  g_return_if_fail (JVMS_IS_SESSION (self));
  g_return_if_fail (tids != NULL || n_tids == 0);

  if (n_tids > 0)
    g_array_append_vals (sorted, tids, n_tids);
  g_array_sort (sorted, compare_tid);
  for (guint i = 0; i < sorted->len; i++)
    if (out == 0 || g_array_index (sorted, gint64, i) != g_array_index (sorted, gint64, out - 1))
      g_array_index (sorted, gint64, out++) = g_array_index (sorted, gint64, i);
  g_array_set_size (sorted, out);

  if (sorted->len == self->highlighted_threads->len &&
      (sorted->len == 0 ||
       memcmp (sorted->data, self->highlighted_threads->data, sorted->len * sizeof (gint64)) == 0))
    return;

  g_array_unref (self->highlighted_threads);
  self->highlighted_threads = g_steal_pointer (&sorted);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHTED_THREADS]);
}

const GArray *
jvms_session_get_highlighted_threads (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), NULL);
  return self->highlighted_threads;
}

gboolean
jvms_session_is_thread_highlighted (JvmsSession *self,
                                    gint64       tid)
{
  guint lo = 0, hi;

  g_return_val_if_fail (JVMS_IS_SESSION (self), FALSE);

  hi = self->highlighted_threads->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      gint64 v = g_array_index (self->highlighted_threads, gint64, mid);
      if (v == tid)
        return TRUE;
      if (v < tid)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}

gboolean
jvms_session_has_highlight (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), FALSE);
  return self->highlighted_threads->len > 0 || self->highlighted_monitor != 0;
}

void
jvms_session_clear_highlight (JvmsSession *self)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  g_object_freeze_notify (G_OBJECT (self));
  jvms_session_set_highlighted_monitor (self, 0);
  jvms_session_set_highlighted_threads (self, NULL, 0);
  jvms_session_set_highlighted_spans (self, NULL, 0);
  g_object_thaw_notify (G_OBJECT (self));
}

JvmsTimeUnit
jvms_session_get_time_unit (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), JVMS_TIME_UNIT_AUTO);
  return self->time_unit;
}

void
jvms_session_set_time_unit (JvmsSession  *self,
                            JvmsTimeUnit  unit)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  if (self->time_unit == unit)
    return;
  self->time_unit = unit;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_UNIT]);
}

JvmsTimeOrigin
jvms_session_get_time_origin (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), JVMS_TIME_ORIGIN_TRACE_START);
  return self->time_origin;
}

void
jvms_session_set_time_origin (JvmsSession    *self,
                              JvmsTimeOrigin  origin)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  if (self->time_origin == origin)
    return;
  self->time_origin = origin;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIME_ORIGIN]);
}

/* Replaces *@field by a copy of @value; TRUE when it changed. */
static gboolean
set_string (char       **field,
            const char  *value)
{
  if (g_strcmp0 (*field, value) == 0)
    return FALSE;
  g_free (*field);
  *field = g_strdup (value);
  return TRUE;
}

const char *
jvms_session_get_quantum_colour (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), "state");
  return self->quantum_colour;
}

void
jvms_session_set_quantum_colour (JvmsSession *self,
                                 const char  *colour)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  if (colour == NULL || *colour == '\0')
    colour = "state";
  if (set_string (&self->quantum_colour, colour))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUANTUM_COLOUR]);
}

const char *
jvms_session_get_quantum_shade (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), NULL);
  return self->quantum_shade;
}

void
jvms_session_set_quantum_shade (JvmsSession *self,
                                const char  *shade)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  if (shade != NULL && (*shade == '\0' || g_str_equal (shade, "none")))
    shade = NULL;
  if (set_string (&self->quantum_shade, shade))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_QUANTUM_SHADE]);
}

char *
jvms_session_format_time (JvmsSession *self,
                          gint64       time,
                          gint64       span)
{
  /* 1/1000 of the span, down to a power of ten so that its decimals end where it does. */
  gint64 resolution = 1;

  while (resolution <= G_MAXINT64 / 10 && resolution * 10 <= span / 1000)
    resolution *= 10;
  if (self == NULL)
    return jvms_time_format_instant (time, 0, JVMS_TIME_UNIT_AUTO, JVMS_TIME_ORIGIN_TRACE_START,
                                     resolution, FALSE);
  return jvms_time_format_instant (time, self->start_time, self->time_unit, self->time_origin,
                                   resolution, FALSE);
}

char *
jvms_session_format_duration (JvmsSession *self,
                              gint64       ns)
{
  return jvms_time_format_duration (ns, self != NULL ? self->time_unit : JVMS_TIME_UNIT_AUTO);
}

void
jvms_session_set_highlighted_spans (JvmsSession           *self,
                                    const JvmsSessionSpan *spans,
                                    guint                  n_spans)
{
  g_return_if_fail (JVMS_IS_SESSION (self));
  g_return_if_fail (spans != NULL || n_spans == 0);
  if (n_spans == 0 && self->highlighted_spans->len == 0)
    return;
  g_array_set_size (self->highlighted_spans, 0);
  if (n_spans > 0)
    g_array_append_vals (self->highlighted_spans, spans, n_spans);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_HIGHLIGHTED_SPANS]);
}

const GArray *
jvms_session_get_highlighted_spans (JvmsSession *self)
{
  g_return_val_if_fail (JVMS_IS_SESSION (self), NULL);
  return self->highlighted_spans;
}
