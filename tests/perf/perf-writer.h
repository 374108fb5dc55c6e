/* perf-writer.h: perf.data files built byte by byte (file mode, little-endian), for tests and
 * fuzz seeds that need one extreme property in an otherwise well-formed file. Layouts as in
 * readers/perf/perf-file.h. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @n_attrs software attributes (cpu-clock; sample_type TID, TIME, ID, CPU, PERIOD), whose id
 * sections all lie in one table of @n_ids ids (0 … n_ids-1): every attr points at the whole
 * table when @shift is 0, else attr i at the table shifted by i ids (sections overlapping,
 * each distinct). Then @n_samples samples, sample k with id k % n_ids. No feature section. */
GBytes *perf_shape_shared_ids (guint n_attrs, guint n_ids, gboolean shift, guint n_samples);

/* One value of each counter of a group read. */
typedef struct
{
  guint64 leader;
  guint64 member;
} PerfGroupRead;

/* A group led by sched:sched_switch (attr 0: PERF_TYPE_TRACEPOINT, id 1) reading one software
 * counter (attr 1: page-faults, id 2), as `perf record -e '{sched:sched_switch,page-faults}:S'`
 * writes it: sample_type IDENTIFIER, TID, TIME, CPU, PERIOD, READ, RAW; read_format GROUP, ID;
 * a TRACING_DATA feature with sched_switch's format (this machine's fields, a shorter print
 * format), so that perf script reads the file too. Then one sample of the leader per element of
 * @reads, a switch from tid 101 to 0, sample k at 1 s + k µs unless @reads[k] equals
 * @reads[k - 1]: then the record is the one before, byte for byte, as perf record wrote a
 * sched_switch twice. */
GBytes *perf_shape_group_reads (const PerfGroupRead *reads, guint n_reads);

G_END_DECLS
