/* jvms-recorder-cgroup-private.h: a cgroup (v2) holding only the launched JVM, so that perf can record
 * the system calls and counter samples of all its threads, even those started later, while
 * recording scheduling on every CPU (`perf record -a ... -G <cgroup>` per event). A filter on
 * common_pid cannot do that: it names threads, and a JVM starts threads all the time. */
#pragma once

#include <glib.h>

typedef struct _JvmsCgroup JvmsCgroup;

/* Creates <our cgroup>/jvmscope-<pid>; NULL with the reason when cgroups v2 cannot be used. */
JvmsCgroup *jvms_cgroup_create (GError **error);

/* The name to give perf -G: the path below the cgroup2 mount. */
const char *jvms_cgroup_perf_name (JvmsCgroup *cgroup);

/* For a GSubprocess child setup: moves the calling (child) process into the cgroup. Only
 * async-signal-safe calls. */
void jvms_cgroup_join_child_setup (gpointer cgroup);

/* Whether the process pid is in the cgroup. */
gboolean jvms_cgroup_contains (JvmsCgroup *cgroup, GPid pid);

/* Removes the cgroup (it must be empty by then); the error says why it could not. */
gboolean jvms_cgroup_remove (JvmsCgroup *cgroup, GError **error);

/* Removes the cgroup if it is still there (silently) and frees. */
void jvms_cgroup_free (JvmsCgroup *cgroup);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (JvmsCgroup, jvms_cgroup_free)
