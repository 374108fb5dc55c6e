/* jvms-state-names.c: display names of the documented states. */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "jvms-state-names.h"

static const char *const user_names[] = {
  N_("Running"), N_("Blocked"), N_("Waiting"), N_("Parked"), N_("Sleeping"),
  N_("Socket I/O"), N_("File I/O"), N_("Safepoint"), N_("Native"), N_("Not recorded"),
};
G_STATIC_ASSERT (G_N_ELEMENTS (user_names) == JVMS_USER_STATE_N);

static const char *const kernel_names[] = {
  N_("On CPU"), N_("Runnable"), N_("System call"), N_("Off CPU"), N_("Disk wait"),
  N_("Exited"), N_("Lost events"),
};
G_STATIC_ASSERT (G_N_ELEMENTS (kernel_names) == JVMS_KERNEL_STATE_N);

static const char *const kind_names[] = {
  N_("Java"), N_("GC"), N_("JIT"), N_("VM"), N_("JFR"), N_("Other processes"),
};
G_STATIC_ASSERT (G_N_ELEMENTS (kind_names) == JVMS_THREAD_KIND_N);

const char *
jvms_user_state_display_name (gint64 state)
{
  if (state < 0 || state >= JVMS_USER_STATE_N)
    return _("Unknown state");
  return _(user_names[state]);
}

static const char *const sampled_names[] = {
  N_("On CPU"), N_("Running"), N_("Sleeping"), N_("Parked"), N_("Waiting"), N_("Blocked"),
  N_("Socket I/O"), N_("File I/O"), N_("Native"), N_("Off CPU"), N_("State not sampled"),
  N_("Allocation"), N_("Lock"), N_("Exception"),
};
G_STATIC_ASSERT (G_N_ELEMENTS (sampled_names) == JVMS_SAMPLED_N);

const char *
jvms_sampled_display_name (gint64 sampled)
{
  if (sampled < 0 || sampled >= JVMS_SAMPLED_N)
    return _("Unknown state");
  return _(sampled_names[sampled]);
}

const char *
jvms_kernel_state_display_name (gint64 state)
{
  if (state < 0 || state >= JVMS_KERNEL_STATE_N)
    return _("Unknown state");
  return _(kernel_names[state]);
}

const char *
jvms_thread_kind_display_name (gint64 kind)
{
  if (kind < 0 || kind >= JVMS_THREAD_KIND_N)
    return _("Other threads");
  return _(kind_names[kind]);
}
