/* jvms-number-format.h: how the views write counts, the one place that groups digits. Counts
 * of rows, samples and events run to millions, so the views group their digits as the user's
 * locale does ("1,234,567" in English, "1 234 567" in French); the CLI writes plain digits for
 * scripts and does not come here. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* @value with its digits grouped by thousands as LC_NUMERIC groups them. Free with g_free(). */
char *jvms_number_format_count (guint64 value);

G_END_DECLS
