/* jvms-view-values.h: the value of slowly changing attributes (classes of monitors), for views
 * that label rows with them. Threads are listed by analysis/jvms-thread-list.h. */
#pragma once

#include <glib.h>

#include "jvms-history.h"

G_BEGIN_DECLS

/* The value of slowly changing attributes (names, kinds, classes): the value at the end of the
 * history, else at its start, middle or quarters; @found[i] FALSE when none held one there.
 * A handful of point queries whatever @n_attributes: cheap on any size of history. */
void jvms_view_attribute_values (JvmsHistory         *history,
                                 const JvmsAttribute *attributes,
                                 guint                n_attributes,
                                 JvmsValue           *out,
                                 gboolean            *found);

G_END_DECLS
