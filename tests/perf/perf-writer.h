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

G_END_DECLS
