/* jvms-findings-list.c: the report is computed in a worker thread, one at a time: a range
 * that changes while one runs marks it stale, and the newest range is computed when it ends.
 * jvms_report_compute cannot be interrupted, so this keeps a drag from piling up threads. */
#include "config.h"

#include "jvms-findings-list.h"

#include "jvms-cause-link.h"
#include "jvms-flame-colors.h"
#include "jvms-profile-format.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <string.h>

#include "jvms-report.h"
#include "jvms-thread-list.h"

/* Long enough to skip the intermediate ranges of a drag, short enough to feel immediate. */
#define DEBOUNCE_MS 150
/* While indexing, the history grows at every poll: look again at most this often. */
#define GROWTH_DEBOUNCE_MS 1000
#define MAX_THREADS_SHOWN 4
#define MAX_EVIDENCE_SHOWN 3
/* Links to causes under one finding at most: the panel is for reading, the CLI lists them all. */
#define MAX_LINKS 8

struct _JvmsFindingsList
{
  GtkWidget            parent_instance;

  JvmsSession         *session;
  char                *samples_path;
  guint                debounce_id;
  GCancellable        *cancellable;   /* the computation running, NULL when none */
  gboolean             stale;         /* the range changed while it ran */
  gboolean             disposed;
  gint64               shown_from;    /* the range of the findings shown */
  gint64               shown_to;
  gboolean             shown_selected;
  gint64               shown_pid;     /* the JVM they are of: the history's jvm-pid then */

  AdwPreferencesGroup *group;
  GtkSpinner          *spinner;
  GtkLabel            *status_label;
  GtkLabel            *unknowns_label;
  GPtrArray           *rows;
  GPtrArray           *link_rows;     /* the rows of cause links, each after its finding's */
};

G_DEFINE_FINAL_TYPE (JvmsFindingsList, jvms_findings_list, GTK_TYPE_WIDGET)

typedef struct
{
  JvmsHistory *history;
  gint64       from;
  gint64       to;
  gboolean     selected;
  char        *samples_path;
  gint64       pid;          /* the JVM analysed (jvm-pid, a choice laid over it), -1: none */
} Request;

static void
request_free (Request *request)
{
  g_clear_pointer (&request->history, jvms_history_unref);
  g_free (request->samples_path);
  g_free (request);
}

/* What the row highlights when activated. */
typedef struct
{
  GArray *tids;
  gint64  monitor;
  GArray *spans;   /* JvmsSessionSpan: the safepoints' stragglers (gc, safepoint) */
  gint64   lost_ns;  /* the finding's time, as the report has it (the state dump) */
} RowTarget;

static void
row_target_free (RowTarget *target)
{
  g_array_unref (target->tids);
  g_array_unref (target->spans);
  g_free (target);
}

static const char *
kind_label (JvmsFindingKind kind)
{
  switch (kind)
    {
    case JVMS_FINDING_MONITOR_CONTENTION: return _("Monitor contention");
    case JVMS_FINDING_CPU_CONTENTION: return _("Waiting for a CPU");
    case JVMS_FINDING_GC: return _("Garbage collection");
    case JVMS_FINDING_JIT: return _("JIT compilation");
    case JVMS_FINDING_SAFEPOINT: return _("Safepoints");
    case JVMS_FINDING_SLEEPING: return _("Sleeping");
    case JVMS_FINDING_PARKING: return _("Parked or waiting");
    case JVMS_FINDING_IO: return _("Input/output");
    case JVMS_FINDING_ALLOCATION: return _("Allocation");
    case JVMS_FINDING_PROGRAM_LOGIC: return _("Running application code");
    default: return jvms_finding_kind_name (kind);
    }
}

/* "name (4242), name (v17)" for the first few of @threads (JvmsThreadRef), then how many more. */
static char *
format_threads (const GArray *threads, guint max)
{
  g_autoptr(GString) text = g_string_new (NULL);
  for (guint i = 0; i < threads->len && i < max; i++)
    {
      const JvmsThreadRef *thread = &g_array_index (threads, JvmsThreadRef, i);
      g_autofree char *key = jvms_thread_key (thread->tid);
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%s (%s)", thread->name, key);
    }
  if (threads->len > max)
    {
      guint more = threads->len - max;
      g_string_append (text, " ");
      /* Translators: after a list of threads, how many are not listed. */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "and %u more", "and %u more",
                                                 more), more);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

/* "first (1.2 ms), second (0.5 ms)" from the first few @items (JvmsEvidenceItem). */
static char *
format_items (const GArray *items, guint max, JvmsTimeUnit unit)
{
  g_autoptr(GString) text = g_string_new (NULL);
  for (guint i = 0; i < items->len && i < max; i++)
    {
      const JvmsEvidenceItem *item = &g_array_index (items, JvmsEvidenceItem, i);
      g_autofree char *duration = jvms_time_format_duration (item->ns, unit);
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%s (%s)", item->what, duration);
    }
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

/* The kind of the report named @name ("gc", "cpu-contention"...), as the list titles it. */
static const char *
kind_label_by_name (const char *name)
{
  for (int k = 0; k < JVMS_FINDING_N; k++)
    if (g_strcmp0 (jvms_finding_kind_name (k), name) == 0)
      return kind_label (k);
  /* Translators: what a monitor's holders did when no state of theirs is known. */
  return g_strcmp0 (name, "unknown") == 0 ? _("not known") : name;
}

/* Because of whom a monitor's waiters waited (issue 20): what its holders did meanwhile, the
 * largest shares first, and who had the CPU while a holder waited for one. */
static void
append_holder_blame (GString *text, const JvmsEvidenceMonitor *monitor)
{
  g_autoptr(GString) states = g_string_new (NULL);
  for (guint i = 0; i < monitor->holder_states->len && i < 3 && monitor->blocked_ns > 0; i++)
    {
      const JvmsEvidenceAmount *s = &g_array_index (monitor->holder_states, JvmsEvidenceAmount, i);
      if (states->len > 0)
        g_string_append (states, ", ");
      g_string_append_printf (states, "%s %.0f%%", kind_label_by_name (s->name),
                              100.0 * s->value / monitor->blocked_ns);
    }
  if (states->len > 0)
    {
      g_string_append_c (text, '\n');
      /* Translators: what the holders of a monitor did while others waited, with shares. */
      g_string_append_printf (text, _("Its holders meanwhile: %s"), states->str);
    }
  g_autofree char *thieves = format_threads (monitor->preempted_by, 3);
  if (*thieves != '\0')
    {
      g_string_append_c (text, '\n');
      /* Translators: the threads that had the CPU while a monitor's holder waited for one. */
      g_string_append_printf (text, _("Holders preempted by %s"), thieves);
    }
}

/* The safepoints' synchronisation and who arrived last (gc and safepoint findings). */
static void
append_stragglers (GString *text, const JvmsEvidence *evidence, JvmsTimeUnit unit)
{
  if (evidence->n_safepoints <= 0 || evidence->stragglers == NULL)
    return;
  g_autofree char *sync = jvms_time_format_duration (evidence->time_to_safepoint_ns, unit);
  g_autoptr(GString) last = g_string_new (NULL);
  for (guint i = 0; i < evidence->stragglers->len && i < 3; i++)
    {
      const JvmsEvidenceStraggler *s = &g_array_index (evidence->stragglers, JvmsEvidenceStraggler, i);
      g_autofree char *ns = jvms_time_format_duration (s->ns, unit);
      if (last->len > 0)
        g_string_append (last, ", ");
      g_string_append_printf (last, "%s (%s, %s)", s->name, s->state, ns);
    }
  if (text->len > 0)
    g_string_append_c (text, '\n');
  if (last->len > 0)
    /* Translators: how long the safepoints took to stop the threads, and the last to stop. */
    g_string_append_printf (text, _("Time to safepoint %s; last to stop: %s"), sync, last->str);
  else
    g_string_append_printf (text, _("Time to safepoint %s"), sync);
}

/* The finding's heaviest cited stacks (docs/report.md, "Cited stacks"): a line each, its top
 * frames and its weight (the JSON and the text of analyze name the methods whole). */
static void
append_cited_stacks (GString *text, const JvmsEvidence *evidence)
{
  for (guint i = 0; evidence->stacks != NULL && i < evidence->stacks->len && i < 2; i++)
    {
      const JvmsEvidenceStack *stack = &g_array_index (evidence->stacks, JvmsEvidenceStack, i);
      g_autoptr(GString) frames = g_string_new (NULL);
      for (guint f = 0; f < stack->frames->len && f < 3; f++)
        {
          /* Without the package, as the flame graph's labels: the panel is narrow. */
          const char *method = g_ptr_array_index (stack->frames, f);
          gsize package = method[0] != '[' ? jvms_flame_package_length (method) : 0;
          g_string_append_printf (frames, "%s%s", f > 0 ? " < " : "",
                                  package > 0 ? method + package + 1 : method);
        }
      if (stack->frames->len > 3)
        g_string_append (frames, " < …");
      g_autofree char *weight = jvms_profile_format_weight (evidence->stacks_unit, stack->weight);
      if (text->len > 0)
        g_string_append_c (text, '\n');
      /* Translators: a stack the finding's threads were sampled in (top frame first, "<"
       * between callee and caller), and its weight (a time, bytes or samples). */
      g_string_append_printf (text, _("In %s (%s)"), frames->str, weight);
    }
}

/* The main evidence of a finding, one line per item, plain text; NULL when there is none. */
static char *
format_evidence (const JvmsFinding *finding, JvmsTimeUnit unit)
{
  const JvmsEvidence *evidence = &finding->evidence;
  g_autoptr(GString) text = g_string_new (NULL);

  switch (finding->kind)
    {
    case JVMS_FINDING_MONITOR_CONTENTION:
      for (guint i = 0; i < evidence->monitors->len && i < 2; i++)
        {
          const JvmsEvidenceMonitor *monitor = &g_array_index (evidence->monitors, JvmsEvidenceMonitor, i);
          g_autofree char *address = g_strdup_printf ("0x%" G_GINT64_MODIFIER "x", monitor->address);
          g_autofree char *holders = format_threads (monitor->holders, 3);
          if (text->len > 0)
            g_string_append_c (text, '\n');
          if (*holders != '\0')
            /* Translators: a Java class, its address, the threads that held it. */
            g_string_append_printf (text, _("Monitor %s at %s, held by %s"),
                                    monitor->class_name, address, holders);
          else
            /* Translators: a Java class and its address. */
            g_string_append_printf (text, _("Monitor %s at %s"), monitor->class_name, address);
          if (i == 0)
            append_holder_blame (text, monitor);
        }
      break;
    case JVMS_FINDING_CPU_CONTENTION:
      {
        g_autofree char *holders = format_threads (evidence->cpu_holders, MAX_EVIDENCE_SHOWN);
        if (*holders != '\0')
          /* Translators: the threads that ran while the JVM's threads waited for a CPU. */
          g_string_append_printf (text, _("CPUs taken by %s"), holders);
      }
      break;
    case JVMS_FINDING_GC:
      {
        guint collections = (guint) evidence->collections;
        g_autofree char *pauses = jvms_time_format_duration (evidence->pause_ns, unit);
        /* Translators: the number of garbage collections and how long they paused the JVM. */
        g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u collection, %s of pauses",
                                                   "%u collections, %s of pauses", collections),
                                collections, pauses);
        append_stragglers (text, evidence, unit);
      }
      break;
    case JVMS_FINDING_PROGRAM_LOGIC:
      {
        g_autoptr(GString) list = g_string_new (NULL);
        for (guint i = 0; i < evidence->hot_methods->len && i < MAX_EVIDENCE_SHOWN; i++)
          {
            const JvmsEvidenceAmount *method = &g_array_index (evidence->hot_methods, JvmsEvidenceAmount, i);
            if (list->len > 0)
              g_string_append (list, ", ");
            g_string_append_printf (list, "%s (%.0f%%)", method->name, 100.0 * method->share);
          }
        if (list->len > 0)
          /* Translators: the methods most often seen running, with their share of samples. */
          g_string_append_printf (text, _("Hot methods: %s"), list->str);
      }
      break;
    case JVMS_FINDING_PARKING:
      {
        g_autofree char *on = format_items (evidence->items, 2, unit);
        if (on != NULL)
          /* Translators: what the threads were parked or waiting on, with times: classes
           * ("java.util.concurrent.locks.ReentrantLock$NonfairSync (1.2 s)"), or in a sampled
           * recording where the samples saw them ("off CPU in a system call (sampled) (60 s)"). */
          g_string_append_printf (text, _("Parked or waiting: %s"), on);
      }
      break;
    case JVMS_FINDING_IO:
      {
        g_autofree char *targets = format_items (evidence->items, 2, unit);
        if (targets != NULL)
          /* Translators: the files, sockets or waits the threads did I/O on, with times. */
          g_string_append_printf (text, _("I/O on %s"), targets);
      }
      break;
    case JVMS_FINDING_SAFEPOINT:
      {
        g_autofree char *operations = format_items (evidence->items, MAX_EVIDENCE_SHOWN, unit);
        if (operations != NULL)
          /* Translators: the VM operations that stopped the threads, with times. */
          g_string_append_printf (text, _("VM operations: %s"), operations);
        append_stragglers (text, evidence, unit);
      }
      break;
    case JVMS_FINDING_SLEEPING:
    case JVMS_FINDING_JIT:
    case JVMS_FINDING_ALLOCATION:
    default:
      /* Sleeping and JIT name their threads only, which the row lists already. */
      break;
    }
  append_cited_stacks (text, evidence);
  return text->len > 0 ? g_string_free (g_steal_pointer (&text), FALSE) : NULL;
}

static int
compare_tids (gconstpointer a, gconstpointer b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static void
row_activated (AdwActionRow *row, JvmsFindingsList *self)
{
  RowTarget *target = g_object_get_data (G_OBJECT (row), "jvms-target");
  if (target == NULL || self->session == NULL)
    return;
  /* A second click on the finding highlighted takes the highlight away. */
  const GArray *current = jvms_session_get_highlighted_threads (self->session);
  g_autoptr(GArray) sorted = g_array_copy (target->tids);
  g_array_sort (sorted, compare_tids);
  if (current->len > 0 && current->len == sorted->len
      && memcmp (current->data, sorted->data, sorted->len * sizeof (gint64)) == 0
      && jvms_session_get_highlighted_monitor (self->session) == target->monitor)
    {
      jvms_session_clear_highlight (self->session);
      return;
    }
  jvms_session_set_highlighted_threads (self->session, (const gint64 *) target->tids->data,
                                        target->tids->len);
  jvms_session_set_highlighted_monitor (self->session, target->monitor);
  jvms_session_set_highlighted_spans (self->session, (const JvmsSessionSpan *) target->spans->data,
                                      target->spans->len);
}

static void
clear_rows (JvmsFindingsList *self)
{
  for (guint i = 0; i < self->rows->len; i++)
    adw_preferences_group_remove (self->group, g_ptr_array_index (self->rows, i));
  g_ptr_array_set_size (self->rows, 0);
  for (guint i = 0; i < self->link_rows->len; i++)
    adw_preferences_group_remove (self->group, g_ptr_array_index (self->link_rows, i));
  g_ptr_array_set_size (self->link_rows, 0);
}

static void
set_status (JvmsFindingsList *self, const char *text)
{
  gtk_label_set_text (self->status_label, text ? text : "");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), text != NULL);
}

static GtkWidget *
finding_row (JvmsFindingsList *self, const JvmsReport *report, const JvmsFinding *finding)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *title = g_markup_escape_text (kind_label (finding->kind), -1);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);

  g_autoptr(GString) subtitle = g_string_new (NULL);
  g_autofree char *names = format_threads (finding->threads, MAX_THREADS_SHOWN);
  if (*names != '\0')
    /* Translators: the threads a finding concerns, most time first. */
    g_string_append_printf (subtitle, _("Threads: %s"), names);
  JvmsTimeUnit unit = jvms_session_get_time_unit (self->session);
  g_autofree char *proof = format_evidence (finding, unit);
  if (proof != NULL)
    g_string_append_printf (subtitle, "%s%s", subtitle->len ? "\n" : "", proof);
  g_autofree char *basis = finding->estimated_ns > 0
    ? jvms_recording_info_basis (report->recording, finding->sampled, TRUE) : NULL;
  if (basis != NULL)
    /* Translators: a time charged from a profiler's samples: "Estimated from 457 samples × 10 ms" */
    g_string_append_printf (subtitle, _("%sEstimated from %s"), subtitle->len ? "\n" : "", basis);
  g_autofree char *escaped = g_markup_escape_text (subtitle->str, -1);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), escaped);
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_set_tooltip_text (row, jvms_finding_kind_summary (finding->kind));

  g_autofree char *duration = jvms_time_format_duration (finding->lost_ns, unit);
  /* An estimate from samples reads as one. */
  g_autofree char *lost = g_strconcat (basis != NULL ? "≈ " : "", duration, NULL);
  /* Translators: time lost to a cause and its share of the threads' time. */
  g_autofree char *amount = g_strdup_printf (_("%s, %.1f%%"), lost, 100.0 * finding->share);
  GtkWidget *label = gtk_label_new (amount);
  gtk_widget_add_css_class (label, "numeric");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);

  RowTarget *target = g_new0 (RowTarget, 1);
  target->lost_ns = finding->lost_ns;
  target->tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < finding->threads->len; i++)
    g_array_append_val (target->tids, g_array_index (finding->threads, JvmsThreadRef, i).tid);
  if (finding->kind == JVMS_FINDING_MONITOR_CONTENTION && finding->evidence.monitors->len > 0)
    target->monitor = g_array_index (finding->evidence.monitors, JvmsEvidenceMonitor, 0).address;
  /* Each shown safepoint's last threads to stop, over the time they took: marked in the views. */
  target->spans = g_array_new (FALSE, FALSE, sizeof (JvmsSessionSpan));
  for (guint i = 0; finding->evidence.safepoints != NULL && i < finding->evidence.safepoints->len; i++)
    {
      const JvmsEvidenceSafepoint *sp = &g_array_index (finding->evidence.safepoints, JvmsEvidenceSafepoint, i);
      for (guint k = 0; sp->stragglers != NULL && k < sp->stragglers->len; k++)
        {
          const JvmsEvidenceStraggler *s = &g_array_index (sp->stragglers, JvmsEvidenceStraggler, k);
          JvmsSessionSpan span = { s->tid, sp->sync_start, sp->sync_start + s->ns };
          g_array_append_val (target->spans, span);
        }
    }
  g_object_set_data_full (G_OBJECT (row), "jvms-target", target, (GDestroyNotify) row_target_free);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_signal_connect_object (row, "activated", G_CALLBACK (row_activated), self, 0);
  return row;
}

/* The label of a link of @kind to a thread: its name and key, and how long the interval it
 * selects lasts (@held, NULL when it has none of its own). */
static char *
thread_link_label (const char *kind, const char *name, const char *key, const char *held)
{
  if (g_str_equal (kind, "holder"))
    return held != NULL
      /* Translators: a link to a thread that held a contended monitor: name (id), how long it
       * held it the longest time. */
      ? g_strdup_printf (_("Held by %s (%s) for %s"), name, key, held)
      /* Translators: a link to a thread that held a contended monitor: name (id). */
      : g_strdup_printf (_("Held by %s (%s)"), name, key);
  if (g_str_equal (kind, "preempted-by"))
    return held != NULL
      /* Translators: a link to a thread that had the CPU a monitor's holder waited for, and
       * its longest run there meanwhile. */
      ? g_strdup_printf (_("Holder preempted by %s (%s) for %s"), name, key, held)
      /* Translators: a link to a thread that had the CPU a monitor's holder waited for. */
      : g_strdup_printf (_("Holder preempted by %s (%s)"), name, key);
  return held != NULL
    /* Translators: a link to a thread that ran while the finding's threads waited for a CPU,
     * and its longest run meanwhile. */
    ? g_strdup_printf (_("CPU taken by %s (%s) for %s"), name, key, held)
    /* Translators: a link to a thread that ran while the finding's threads waited for a CPU. */
    : g_strdup_printf (_("CPU taken by %s (%s)"), name, key);
}

/* Adds a link to each thread of @threads (JvmsThreadRef), @max at most: to its longest interval
 * of its own (the report's: where it held the monitor or the CPU), or over [@from, @to) when it
 * has none. */
static void
add_thread_links (JvmsFindingsList *self, GtkBox *box, const char *kind, const GArray *threads, guint max,
                  gint64 from, gint64 to)
{
  JvmsTimeUnit unit = jvms_session_get_time_unit (self->session);
  for (guint i = 0; threads != NULL && i < threads->len && i < max; i++)
    {
      const JvmsThreadRef *t = &g_array_index (threads, JvmsThreadRef, i);
      const JvmsEvidenceInterval *iv = t->intervals != NULL && t->intervals->len > 0
        ? &g_array_index (t->intervals, JvmsEvidenceInterval, 0) : NULL;
      g_autofree char *key = jvms_thread_key (t->tid);
      g_autofree char *held = iv != NULL ? jvms_time_format_duration (iv->to - iv->from, unit) : NULL;
      g_autofree char *label = thread_link_label (kind, t->name, key, held);
      gtk_box_append (box, jvms_cause_link_new (kind, label, t->tid, iv != NULL ? iv->from : from,
                                                iv != NULL ? iv->to : to));
    }
}

/* The row under a finding with a link to each cause it names (issue 20): a monitor's holders and
 * the threads that preempted them, the threads that had the CPUs, the safepoints' last threads to
 * stop. A holder links to its longest hold of the monitor, a thread that preempted a holder or
 * had a CPU to its longest run there while the waiting thread waited for it (the report's
 * intervals); a straggler to its synchronisation, from the arm of the poll to its arrival. NULL
 * when the finding names none. */
static GtkWidget *
finding_links (JvmsFindingsList *self, const JvmsReport *report, const JvmsFinding *finding)
{
  const JvmsEvidence *evidence = &finding->evidence;
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_margin_start (box, 6);
  gtk_widget_set_margin_bottom (box, 6);
  for (guint i = 0; evidence->monitors != NULL && i < evidence->monitors->len && i < 2; i++)
    {
      const JvmsEvidenceMonitor *m = &g_array_index (evidence->monitors, JvmsEvidenceMonitor, i);
      add_thread_links (self, GTK_BOX (box), "holder", m->holders, 2, report->from, report->to);
      add_thread_links (self, GTK_BOX (box), "preempted-by", m->preempted_by, 2, report->from, report->to);
    }
  add_thread_links (self, GTK_BOX (box), "cpu-holder", evidence->cpu_holders, 2, report->from, report->to);
  guint stragglers = 0;
  JvmsTimeUnit unit = jvms_session_get_time_unit (self->session);
  for (guint i = 0; evidence->safepoints != NULL && i < evidence->safepoints->len && stragglers < 3; i++)
    {
      const JvmsEvidenceSafepoint *sp = &g_array_index (evidence->safepoints, JvmsEvidenceSafepoint, i);
      for (guint k = 0; sp->stragglers != NULL && k < sp->stragglers->len && stragglers < 3; k++, stragglers++)
        {
          const JvmsEvidenceStraggler *s = &g_array_index (sp->stragglers, JvmsEvidenceStraggler, k);
          g_autofree char *key = jvms_thread_key (s->tid);
          g_autofree char *ns = jvms_time_format_duration (s->ns, unit);
          /* Translators: a link to a thread that stopped last for a safepoint: name (id), its
           * state meanwhile, how long it took. */
          g_autofree char *label = g_strdup_printf (_("Last to stop: %s (%s), %s, %s"), s->name, key, s->state, ns);
          gtk_box_append (GTK_BOX (box), jvms_cause_link_new ("straggler", label, s->tid, sp->sync_start,
                                                              sp->sync_start + MAX (s->ns, 1)));
        }
    }
  guint n = 0;
  for (GtkWidget *c = gtk_widget_get_first_child (box); c != NULL; c = gtk_widget_get_next_sibling (c))
    if (++n > MAX_LINKS)
      gtk_widget_set_visible (c, FALSE);
  if (n == 0)
    {
      g_object_ref_sink (box);
      g_object_unref (box);
      return NULL;
    }
  GtkWidget *row = adw_preferences_row_new ();
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_selectable (GTK_LIST_BOX_ROW (row), FALSE);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  /* Translators: the accessible name of the row of links under a finding. */
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), _("Causes"));
  return row;
}

static void
show_report (JvmsFindingsList *self, const Request *request, const JvmsReport *report)
{
  clear_rows (self);
  self->shown_from = request->from;
  self->shown_to = request->to;
  self->shown_selected = request->selected;
  self->shown_pid = request->pid;
  adw_preferences_group_set_description (self->group,
                                         request->selected
                                         ? _("Where the threads’ time went in the selection")
                                         : _("Where the threads’ time went in the visible range"));
  for (guint i = 0; i < report->findings->len; i++)
    {
      GtkWidget *row = finding_row (self, report, g_ptr_array_index (report->findings, i));
      adw_preferences_group_add (self->group, row);
      g_ptr_array_add (self->rows, row);
      GtkWidget *links = finding_links (self, report, g_ptr_array_index (report->findings, i));
      if (links != NULL)
        {
          adw_preferences_group_add (self->group, links);
          g_ptr_array_add (self->link_rows, links);
        }
    }
  set_status (self, report->findings->len == 0 ? _("No thread lost time in this range.") : NULL);

  g_autofree char *unknowns = g_strjoinv ("\n", (char **) report->unknowns);
  gtk_label_set_text (self->unknowns_label, unknowns);
  gtk_widget_set_visible (GTK_WIDGET (self->unknowns_label), *unknowns != '\0');
}

static void
compute_thread (GTask *task, gpointer source_object, gpointer task_data,
                GCancellable *cancellable)
{
  Request *request = task_data;
  if (g_task_return_error_if_cancelled (task))
    return;
  JvmsReportOptions options = {
    .from = request->from,
    .to = request->to,
    .samples_path = request->samples_path,
    .max_evidence = 5,
    .pid = MAX (request->pid, 0),
  };
  GError *error = NULL;
  JvmsReport *report = jvms_report_compute (request->history, &options, &error);
  if (report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, report, (GDestroyNotify) jvms_report_free);
}

static void start_computation (JvmsFindingsList *self);

static void
compute_done (GObject *object, GAsyncResult *result, gpointer user_data)
{
  JvmsFindingsList *self = JVMS_FINDINGS_LIST (object);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsReport) report = g_task_propagate_pointer (G_TASK (result), &error);

  g_clear_object (&self->cancellable);
  if (self->disposed)
    return;
  if (self->stale)
    {
      start_computation (self);
      return;
    }
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  if (report == NULL)
    {
      clear_rows (self);
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          /* Translators: %s says why the analysis failed. */
          g_autofree char *text = g_strdup_printf (_("Could not analyse this range: %s"),
                                                   error->message);
          set_status (self, text);
        }
      return;
    }
  show_report (self, g_task_get_task_data (G_TASK (result)), report);
}

static void
start_computation (JvmsFindingsList *self)
{
  self->stale = FALSE;
  JvmsHistory *history = self->session ? jvms_session_get_history (self->session) : NULL;
  gint64 from = 0, to = 0;
  gboolean selected = history && jvms_session_get_selection (self->session, &from, &to);
  if (history != NULL && !selected)
    jvms_session_get_visible (self->session, &from, &to);

  if (history == NULL || to <= from)
    {
      clear_rows (self);
      self->shown_from = self->shown_to = 0;
      gtk_label_set_text (self->unknowns_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->unknowns_label), FALSE);
      set_status (self, NULL);
      gtk_spinner_stop (self->spinner);
      gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
      return;
    }

  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  gtk_spinner_start (self->spinner);

  Request *request = g_new0 (Request, 1);
  request->history = jvms_history_ref (history);
  request->from = from;
  request->to = to;
  request->selected = selected;
  /* Read once here: the report and the list agree on the JVM even if it is chosen again meanwhile. */
  const char *pid = jvms_history_get_metadata (history, "jvm-pid");
  request->pid = pid != NULL && pid[0] != '\0' ? g_ascii_strtoll (pid, NULL, 10) : -1;
  request->samples_path = g_strdup (self->samples_path);

  self->cancellable = g_cancellable_new ();
  /* The task holds the list: its callback always runs, in this thread, after the worker. */
  g_autoptr(GTask) task = g_task_new (self, self->cancellable, compute_done, NULL);
  g_task_set_source_tag (task, start_computation);
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);
  g_task_run_in_thread (task, compute_thread);
}

static gboolean
debounce_done (gpointer user_data)
{
  JvmsFindingsList *self = user_data;
  self->debounce_id = 0;
  if (self->cancellable != NULL)
    {
      /* Its result would be for an old range; the newest starts when it ends. */
      g_cancellable_cancel (self->cancellable);
      self->stale = TRUE;
      return G_SOURCE_REMOVE;
    }
  start_computation (self);
  return G_SOURCE_REMOVE;
}

static void
range_changed (JvmsFindingsList *self)
{
  g_clear_handle_id (&self->debounce_id, g_source_remove);
  self->debounce_id = g_timeout_add (DEBOUNCE_MS, debounce_done, self);
}

static void
visible_changed (JvmsFindingsList *self)
{
  /* The visible range matters only when nothing is selected. */
  if (!jvms_session_get_has_selection (self->session))
    range_changed (self);
}

static void
history_grew (JvmsFindingsList *self)
{
  /* A pending look will see the growth too; don't postpone it. */
  if (self->debounce_id == 0)
    self->debounce_id = g_timeout_add (GROWTH_DEBOUNCE_MS, debounce_done, self);
}

GtkWidget *
jvms_findings_list_new (JvmsSession *session)
{
  g_return_val_if_fail (JVMS_IS_SESSION (session), NULL);

  JvmsFindingsList *self = g_object_new (JVMS_TYPE_FINDINGS_LIST, NULL);
  self->session = g_object_ref (session);
  static const char * const range_properties[] = {
    "notify::selection-start", "notify::selection-end", "notify::has-selection",
    "notify::history",
  };
  for (guint i = 0; i < G_N_ELEMENTS (range_properties); i++)
    g_signal_connect_object (session, range_properties[i], G_CALLBACK (range_changed), self,
                             G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::visible-start", G_CALLBACK (visible_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "notify::visible-end", G_CALLBACK (visible_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (session, "history-changed", G_CALLBACK (history_grew), self,
                           G_CONNECT_SWAPPED);
  /* The rows are made from the report: asking again rewrites them in the new unit. */
  g_signal_connect_object (session, "notify::time-unit", G_CALLBACK (range_changed), self,
                           G_CONNECT_SWAPPED);
  range_changed (self);
  return GTK_WIDGET (self);
}

void
jvms_findings_list_set_samples_path (JvmsFindingsList *self, const char *samples_path)
{
  g_return_if_fail (JVMS_IS_FINDINGS_LIST (self));
  if (g_strcmp0 (samples_path, self->samples_path) == 0)
    return;
  g_free (self->samples_path);
  self->samples_path = g_strdup (samples_path);
  range_changed (self);
}

guint
jvms_findings_list_get_n_findings (JvmsFindingsList *self)
{
  g_return_val_if_fail (JVMS_IS_FINDINGS_LIST (self), 0);
  return self->rows->len;
}

gboolean
jvms_findings_list_is_busy (JvmsFindingsList *self)
{
  g_return_val_if_fail (JVMS_IS_FINDINGS_LIST (self), FALSE);
  return self->cancellable != NULL || self->debounce_id != 0;
}

gboolean
jvms_findings_list_get_range (JvmsFindingsList *self, gint64 *from, gint64 *to)
{
  g_return_val_if_fail (JVMS_IS_FINDINGS_LIST (self), FALSE);
  if (from != NULL)
    *from = self->shown_from;
  if (to != NULL)
    *to = self->shown_to;
  return self->shown_selected;
}

GtkWidget *
jvms_findings_list_get_row (JvmsFindingsList *self, guint index)
{
  g_return_val_if_fail (JVMS_IS_FINDINGS_LIST (self), NULL);
  return index < self->rows->len ? g_ptr_array_index (self->rows, index) : NULL;
}

gint64
jvms_findings_list_get_jvm_pid (JvmsFindingsList *self)
{
  g_return_val_if_fail (JVMS_IS_FINDINGS_LIST (self), -1);
  return self->shown_pid;
}

gint64
jvms_findings_list_get_lost_ns (JvmsFindingsList *self, guint index)
{
  GtkWidget *row = jvms_findings_list_get_row (self, index);
  RowTarget *target = row != NULL ? g_object_get_data (G_OBJECT (row), "jvms-target") : NULL;
  return target != NULL ? target->lost_ns : -1;
}

void
jvms_findings_list_activate (JvmsFindingsList *self, guint index)
{
  g_return_if_fail (JVMS_IS_FINDINGS_LIST (self));
  g_return_if_fail (index < self->rows->len);
  g_signal_emit_by_name (g_ptr_array_index (self->rows, index), "activated");
}

static void
jvms_findings_list_dispose (GObject *object)
{
  JvmsFindingsList *self = JVMS_FINDINGS_LIST (object);

  self->disposed = TRUE;
  g_clear_handle_id (&self->debounce_id, g_source_remove);
  g_cancellable_cancel (self->cancellable);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  GtkWidget *child;
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  G_OBJECT_CLASS (jvms_findings_list_parent_class)->dispose (object);
}

static void
jvms_findings_list_finalize (GObject *object)
{
  JvmsFindingsList *self = JVMS_FINDINGS_LIST (object);

  g_clear_object (&self->cancellable);
  g_ptr_array_unref (self->rows);
  g_ptr_array_unref (self->link_rows);
  g_free (self->samples_path);
  G_OBJECT_CLASS (jvms_findings_list_parent_class)->finalize (object);
}

static void
jvms_findings_list_class_init (JvmsFindingsListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = jvms_findings_list_dispose;
  object_class->finalize = jvms_findings_list_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BOX_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "jvms-findings-list");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
jvms_findings_list_init (JvmsFindingsList *self)
{
  GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self));
  gtk_orientable_set_orientation (GTK_ORIENTABLE (layout), GTK_ORIENTATION_VERTICAL);
  gtk_box_layout_set_spacing (GTK_BOX_LAYOUT (layout), 6);

  self->rows = g_ptr_array_new ();
  self->link_rows = g_ptr_array_new ();

  self->group = ADW_PREFERENCES_GROUP (adw_preferences_group_new ());
  adw_preferences_group_set_title (self->group, _("Root Causes"));
  self->spinner = GTK_SPINNER (gtk_spinner_new ());
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  adw_preferences_group_set_header_suffix (self->group, GTK_WIDGET (self->spinner));
  gtk_widget_set_parent (GTK_WIDGET (self->group), GTK_WIDGET (self));

  self->status_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status_label, 0);
  gtk_label_set_wrap (self->status_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->status_label), FALSE);
  gtk_widget_set_parent (GTK_WIDGET (self->status_label), GTK_WIDGET (self));

  self->unknowns_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->unknowns_label, 0);
  gtk_label_set_wrap (self->unknowns_label, TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->unknowns_label), "caption");
  gtk_widget_add_css_class (GTK_WIDGET (self->unknowns_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->unknowns_label), FALSE);
  gtk_widget_set_parent (GTK_WIDGET (self->unknowns_label), GTK_WIDGET (self));
}
