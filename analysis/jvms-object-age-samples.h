/* jvms-object-age-samples.h: the old-object samples of an index's sample store
 * (docs/analysis.md, "Point samples") as the object age view (widgets/) takes them. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One sample, as the analysis keeps them beside the history (docs/attributes.md, "Point
 * samples"). */
typedef struct
{
  gint64      time;            /* when the sample was taken, on the history's axis */
  gint64      allocation_time; /* when the object was allocated */
  gint64      bytes_since;     /* bytes allocated between allocation and sample; -1 unknown */
  const char *class_name;
  const char *site;            /* allocation site ("Class.method"), or NULL */
  guint       count;           /* samples this one stands for (>= 1) */
} JvmsObjectAgeSample;

/* Reads @samples_path (jvms_trace_index_get_samples_path): every old-object sample becomes a
 * JvmsObjectAgeSample (strings interned: they live as long as the process), its site the top
 * frame; bytes_since is the sum of allocation-sample weights between the object's allocation
 * and the sample (-1 when the store has no allocation samples). Blocking: call it from a
 * worker thread. Returns a GArray of JvmsObjectAgeSample, or NULL with @error set. */
GArray *jvms_object_age_samples_read (const char    *samples_path,
                                      GCancellable  *cancellable,
                                      GError       **error);

/* Bytes allocated in (@from, @to] given allocation samples sorted by time with their
 * cumulative weights: exposed for tests. @times and @cumulative have @n entries. */
gint64  jvms_object_age_bytes_between (const gint64  *times,
                                       const guint64 *cumulative,
                                       gsize          n,
                                       gint64         from,
                                       gint64         to);

G_END_DECLS
