/* jvms-object-age-samples.c: reading the old-object samples of a sample store (see the header). */
#include "jvms-object-age-samples.h"

#include "jvms-samples.h"

/* Index of the first entry with time > @t. */
static gsize
upper_bound (const gint64 *times,
             gsize         n,
             gint64        t)
{
  gsize lo = 0, hi = n;
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;
      if (times[mid] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

gint64
jvms_object_age_bytes_between (const gint64  *times,
                               const guint64 *cumulative,
                               gsize          n,
                               gint64         from,
                               gint64         to)
{
  gsize a, b;
  guint64 before, upto;

  if (n == 0)
    return -1;
  if (to <= from)
    return 0;
  a = upper_bound (times, n, from);
  b = upper_bound (times, n, to);
  before = a > 0 ? cumulative[a - 1] : 0;
  upto = b > 0 ? cumulative[b - 1] : 0;
  return (gint64) (upto - before);
}

typedef struct
{
  gint64  time;
  guint64 weight;
} Allocation;

static int
compare_allocation (gconstpointer a,
                    gconstpointer b)
{
  const Allocation *x = a, *y = b;
  return x->time < y->time ? -1 : x->time > y->time;
}

GArray *
jvms_object_age_samples_read (const char    *samples_path,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(JvmsSamplesReader) reader = NULL;
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (JvmsObjectAgeSample));
  g_autoptr(GArray) allocations = g_array_new (FALSE, FALSE, sizeof (Allocation));
  g_autofree gint64 *times = NULL;
  g_autofree guint64 *cumulative = NULL;
  g_autoptr(GError) local = NULL;
  JvmsSample sample;
  guint64 seen = 0, sum = 0;

  g_return_val_if_fail (samples_path != NULL, NULL);

  reader = jvms_samples_reader_open (samples_path, error);
  if (reader == NULL)
    return NULL;
  while (jvms_samples_reader_next (reader, &sample, &local))
    {
      /* Stores hold millions of execution samples: look at the cancellable now and then. */
      if (++seen % 65536 == 0 && g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      if (sample.kind == JVMS_SAMPLE_ALLOCATION)
        {
          Allocation a = { sample.time, sample.weight };
          g_array_append_val (allocations, a);
        }
      else if (sample.kind == JVMS_SAMPLE_OLD_OBJECT)
        {
          JvmsObjectAgeSample s = {
            .time = sample.time,
            .allocation_time = sample.allocation_time != 0
                                 ? sample.allocation_time
                                 : sample.time - (gint64) sample.object_age,
            .bytes_since = -1,
            .class_name = g_intern_string (sample.class_name),
            .site = sample.n_frames > 0 ? g_intern_string (sample.frames[0].method) : NULL,
            .count = 1,
          };
          g_array_append_val (out, s);
        }
    }
  if (local != NULL)
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), "%s: ", samples_path);
      return NULL;
    }

  g_array_sort (allocations, compare_allocation);
  times = g_new (gint64, MAX (allocations->len, 1));
  cumulative = g_new (guint64, MAX (allocations->len, 1));
  for (guint i = 0; i < allocations->len; i++)
    {
      sum += g_array_index (allocations, Allocation, i).weight;
      times[i] = g_array_index (allocations, Allocation, i).time;
      cumulative[i] = sum;
    }
  for (guint i = 0; i < out->len; i++)
    {
      JvmsObjectAgeSample *s = &g_array_index (out, JvmsObjectAgeSample, i);
      s->bytes_since = jvms_object_age_bytes_between (times, cumulative, allocations->len,
                                                      s->allocation_time, s->time);
    }
  return g_steal_pointer (&out);
}
