/* jvms-compare-text.c: a comparison as text for people (`jvmscope-cli compare` without --json):
 * the two ranges, then each table's rows, largest change first, a significant change marked
 * with '*'. Trace strings are escaped as the report's text escapes them. */
#include "config.h"

#include "jvms-compare.h"

#include <glib/gi18n.h>
#include <math.h>

#include "jvms-report.h"

char *
jvms_compare_format_rate (const char *unit, double v)
{
  if (g_strcmp0 (unit, "ns") == 0)
    /* Translators: seconds of thread time per second of wall-clock time. */
    return g_strdup_printf (_("%.3f s/s"), v / 1e9);
  if (g_strcmp0 (unit, "bytes") == 0)
    /* Translators: megabytes per second. */
    return g_strdup_printf (_("%.2f MB/s"), v / 1e6);
  return g_strdup_printf ("%.2f/s", v);
}

char *
jvms_compare_format_change (const char *unit, double change, double uncertainty)
{
  g_autofree char *c = jvms_compare_format_rate (unit, change);
  g_autofree char *u = jvms_compare_format_rate (unit, uncertainty);
  return g_strdup_printf ("%s%s ± %s", change > 0 ? "+" : "", c, u);
}

char *
jvms_compare_format_share (double share)
{
  return g_strdup_printf ("%.1f %%", share * 100);
}

char *
jvms_compare_format_share_change (double change, double uncertainty)
{
  return g_strdup_printf ("%s%.1f ± %.1f %%", change > 0 ? "+" : "", change * 100, uncertainty * 100);
}

const char *
jvms_compare_table_title (JvmsCompareTable table)
{
  switch (table)
    {
    case JVMS_COMPARE_KINDS: return _("Lost time, by kind");
    case JVMS_COMPARE_MONITORS: return _("Blocked on monitors, by class");
    case JVMS_COMPARE_PARKED: return _("Parked or waiting, by what on");
    case JVMS_COMPARE_IO: return _("I/O, by target");
    case JVMS_COMPARE_THREAD_GROUPS: return _("Thread groups, time per state");
    case JVMS_COMPARE_METHODS: return _("CPU samples, by method on top of the stack");
    case JVMS_COMPARE_ALLOCATIONS: return _("Allocation, by class");
    case JVMS_COMPARE_GC: return _("Garbage collection");
    default: return "";
    }
}

static void
append_side (GString *out, const char *label, const char *trace, gint64 start, gint64 from,
             gint64 to, const char *why, guint slices)
{
  g_autofree char *shown = g_filename_display_name (trace ? trace : "");
  g_autofree char *escaped = jvms_report_escape_text (shown);
  /* Translators: "baseline: TRACE, 0.000 s to 3.000 s (3 slices)". */
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "%s: %s, %.3f s to %.3f s (%u slice)\n",
                                            "%s: %s, %.3f s to %.3f s (%u slices)\n", slices),
                          label, escaped, (from - start) / 1e9, (to - start) / 1e9, slices);
  if (why != NULL)
    g_string_append_printf (out, "  %s\n", why);
}

char *
jvms_comparison_to_text (const JvmsComparison *self, const char *baseline_trace,
                         const char *other_trace, guint limit)
{
  g_return_val_if_fail (self != NULL, NULL);

  GString *out = g_string_new (NULL);
  append_side (out, _("baseline"), baseline_trace, self->baseline_start, self->baseline_from,
               self->baseline_to, self->baseline_why, self->baseline_slices);
  append_side (out, _("other"), other_trace, self->other_start, self->other_from, self->other_to,
               self->other_why, self->other_slices);
  g_string_append_printf (out, _("Rates per second of each range; * marks a change larger than %.0f "
                                 "times its uncertainty and %.0f %% of the larger rate.\n"),
                          JVMS_COMPARE_SIGNIFICANCE, JVMS_COMPARE_MIN_RELATIVE * 100);

  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    {
      const GArray *rows = self->tables[t];
      if (rows->len == 0)
        continue;
      g_string_append_printf (out, "\n%s\n", jvms_compare_table_title (t));
      for (guint i = 0; i < rows->len && (limit == 0 || i < limit); i++)
        {
          const JvmsCompareRow *r = &g_array_index (rows, JvmsCompareRow, i);
          g_autofree char *name = jvms_report_escape_text (r->name);
          GString *label = g_string_new (name);
          if (r->thread_kind != NULL)
            g_string_append_printf (label, " (%s, %u → %u) %s", r->thread_kind, r->baseline_threads,
                                    r->other_threads, r->state);
          if (r->collector != NULL)
            {
              g_autofree char *collector = jvms_report_escape_text (r->collector);
              g_string_append_printf (label, " %s", collector);
            }
          g_autofree char *before = NULL, *after = NULL, *change = NULL;
          if (t == JVMS_COMPARE_METHODS)
            {
              before = jvms_compare_format_share (r->baseline_share);
              after = jvms_compare_format_share (r->other_share);
              change = jvms_compare_format_share_change (r->change_share, r->uncertainty_share);
            }
          else
            {
              before = jvms_compare_format_rate (r->unit, r->baseline_per_s);
              after = jvms_compare_format_rate (r->unit, r->other_per_s);
              change = jvms_compare_format_change (r->unit, r->change_per_s, r->uncertainty_per_s);
            }
          g_string_append_printf (out, "  %s %s: %s → %s, %s\n", r->significant ? "*" : " ",
                                  label->str, before, after, change);
          g_string_free (label, TRUE);
        }
      if (limit > 0 && rows->len > limit)
        g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, "    and %u more\n",
                                                  "    and %u more\n", rows->len - limit),
                                rows->len - limit);
    }
  return g_string_free (out, FALSE);
}
