/* jvms-profile-format.h: how the profiler's views write weights and shares: in the call tree's
 * unit (samples, bytes, ns, events), translated, as the flame graph's tooltips, the call tree's
 * and the method table's cells and the pane's header all write them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "1,234 samples", "12.5 MB", "3.250 ms", "7 events" for @unit (jvms_call_tree_get_unit). */
char *jvms_profile_format_weight (const char *unit,
                                  guint64     value);
/* The number alone, without the unit's word: "1,234", "12.5 MB", "3.250 ms". */
char *jvms_profile_format_value  (const char *unit,
                                  guint64     value);
/* "12.3 %" (0 of 0 is "0.0 %"). */
char *jvms_profile_format_share  (guint64     part,
                                  guint64     whole);

G_END_DECLS
