/* jvms-recorder-losses.c: counts what perf lost, with the project's perf reader. */
#include "config.h"

#include "jvms-recorder-losses-private.h"

#include "jvms-perf.h"

#define MAX_NAMES 64

static JvmsPerfCpuLosses *
cpu_losses (JvmsPerfLosses *out, gint32 cpu)
{
  /* A damaged CPU number must not grow the array without bound. */
  if (cpu < 0 || cpu >= 4096)
    return NULL;
  if ((guint) cpu >= out->cpus->len)
    g_array_set_size (out->cpus, cpu + 1);
  return &g_array_index (out->cpus, JvmsPerfCpuLosses, cpu);
}

gboolean
jvms_perf_losses_read (const char *path, JvmsPerfLosses *out, GError **error)
{
  jvms_perf_losses_clear (out);
  out->cpus = g_array_new (FALSE, TRUE, sizeof (JvmsPerfCpuLosses));
  /* In time order, as perf script reads: a sample of a sched_switch's counter group that repeats
   * the one before is a duplicate perf wrote, which is skipped only in that order. */
  g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open (path, JVMS_PERF_READER_DEFAULT, error);
  if (reader == NULL)
    return FALSE;
  out->switch_gaps_after = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* The thread each CPU's last switch put on it, tid -1 before its first. */
  typedef struct { gint32 tid; gboolean lost_since; char comm[JVMS_KERNEL_COMM_LEN]; } Current;
  g_autoptr(GArray) current = g_array_new (FALSE, TRUE, sizeof (Current));
  JvmsKernelEvent ev;
  g_autoptr(GError) local_error = NULL;
  while (jvms_perf_reader_next (reader, &ev, &local_error))
    {
      JvmsPerfCpuLosses *c = cpu_losses (out, ev.cpu);
      if (ev.type == JVMS_KERNEL_EVENT_LOST)
        {
          out->total.lost_events += ev.lost.lost;
          out->total.lost_records++;
          if (c != NULL)
            {
              c->lost_events += ev.lost.lost;
              c->lost_records++;
            }
          for (guint i = 0; i < current->len; i++)
            if (ev.cpu < 0 || (guint) ev.cpu == i)
              g_array_index (current, Current, i).lost_since = TRUE;
        }
      else if (ev.type == JVMS_KERNEL_EVENT_SCHED_SWITCH && c != NULL)
        {
          while (current->len <= (guint) ev.cpu)
            {
              Current none = { .tid = -1 };
              g_array_append_val (current, none);
            }
          Current *cur = &g_array_index (current, Current, ev.cpu);
          c->switches++;
          out->total.switches++;
          if (cur->tid >= 0 && cur->tid != ev.sched_switch.prev_tid)
            {
              c->switch_gaps++;
              out->total.switch_gaps++;
              if (cur->lost_since)
                {
                  c->switch_gaps_in_lost++;
                  out->total.switch_gaps_in_lost++;
                }
              if (cur->tid == 0)
                {
                  c->switch_gaps_after_idle++;
                  out->total.switch_gaps_after_idle++;
                }
              if (!cur->lost_since)
                {
                  /* At most MAX_NAMES names: a machine of many short-lived threads must not
                   * grow it. */
                  const char *name = cur->tid == 0 ? "swapper" : cur->comm;
                  if (g_hash_table_size (out->switch_gaps_after) >= MAX_NAMES
                      && !g_hash_table_contains (out->switch_gaps_after, name))
                    name = "(others)";
                  gpointer n = g_hash_table_lookup (out->switch_gaps_after, name);
                  g_hash_table_insert (out->switch_gaps_after, g_strdup (name),
                                       GUINT_TO_POINTER (GPOINTER_TO_UINT (n) + 1));
                }
            }
          cur->tid = ev.sched_switch.next_tid;
          cur->lost_since = FALSE;
          g_strlcpy (cur->comm, ev.sched_switch.next_comm, sizeof cur->comm);
        }
    }
  out->lost_samples = jvms_perf_reader_get_lost_samples (reader);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  return TRUE;
}

void
jvms_perf_losses_clear (JvmsPerfLosses *losses)
{
  g_clear_pointer (&losses->cpus, g_array_unref);
  g_clear_pointer (&losses->switch_gaps_after, g_hash_table_unref);
  *losses = (JvmsPerfLosses) { 0 };
}
