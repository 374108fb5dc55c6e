/* jvms-state-names.h: translated display names of the values analysis/jvms-states.h
 * declares (docs/attributes.md), for legends and tooltips. */
#pragma once

#include <glib.h>

#include "jvms-states.h"

G_BEGIN_DECLS

/* Translated display names; a generic name for values outside the enums. */
const char *jvms_user_state_display_name   (gint64 state);
const char *jvms_kernel_state_display_name (gint64 state);
const char *jvms_thread_kind_display_name         (gint64 kind);
/* A kind of sample (JvmsSampled): "On CPU", "Sleeping", "Allocation" ... */
const char *jvms_sampled_display_name      (gint64 sampled);

G_END_DECLS
