/* jvms-recorder-cgroup.c: the JVM's own cgroup for per-event perf filtering. */
#include "config.h"

#include "jvms-recorder-cgroup-private.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

struct _JvmsCgroup
{
  char *dir;         /* absolute path of the cgroup folder */
  char *perf_name;   /* path below the mount, as perf -G wants it */
  char *procs;       /* dir/cgroup.procs */
};

/* The cgroup2 mount point, or NULL; *v1_perf_event says whether a v1 hierarchy owns the
 * perf_event controller, in which case perf would look there and not in cgroup2. */
static char *
find_cgroup2_mount (gboolean *v1_perf_event)
{
  g_autofree char *info = NULL;
  *v1_perf_event = FALSE;
  if (!g_file_get_contents ("/proc/self/mountinfo", &info, NULL, NULL))
    return NULL;
  char *mount = NULL;
  g_auto(GStrv) lines = g_strsplit (info, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      /* id parent major:minor root mountpoint options... - fstype source superoptions */
      g_auto(GStrv) f = g_strsplit (lines[i], " ", -1);
      guint n = g_strv_length (f);
      guint dash = 0;
      for (guint j = 0; j < n; j++)
        if (strcmp (f[j], "-") == 0)
          {
            dash = j;
            break;
          }
      if (dash < 5 || dash + 3 > n)
        continue;
      if (strcmp (f[dash + 1], "cgroup2") == 0 && mount == NULL)
        mount = g_strdup (f[4]);
      else if (strcmp (f[dash + 1], "cgroup") == 0 && strstr (f[dash + 3], "perf_event") != NULL)
        *v1_perf_event = TRUE;
    }
  return mount;
}

static char *
own_cgroup2_path (void)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents ("/proc/self/cgroup", &text, NULL, NULL))
    return NULL;
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "0::"))
      return g_strdup (lines[i] + 3);
  return NULL;
}

JvmsCgroup *
jvms_cgroup_create (GError **error)
{
  gboolean v1_perf_event;
  g_autofree char *mount = find_cgroup2_mount (&v1_perf_event);
  if (mount == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "no cgroup2 file system is mounted");
      return NULL;
    }
  if (v1_perf_event)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "the perf_event controller belongs to a cgroup v1 hierarchy");
      return NULL;
    }
  g_autofree char *own = own_cgroup2_path ();
  if (own == NULL)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND, "/proc/self/cgroup names no cgroup2 path");
      return NULL;
    }
  g_autoptr(JvmsCgroup) cgroup = g_new0 (JvmsCgroup, 1);
  g_autofree char *leaf = g_strdup_printf ("jvmscope-%d", (int) getpid ());
  cgroup->perf_name = g_build_filename (own, leaf, NULL);
  cgroup->dir = g_build_filename (mount, cgroup->perf_name, NULL);
  cgroup->procs = g_build_filename (cgroup->dir, "cgroup.procs", NULL);
  if (g_mkdir (cgroup->dir, 0755) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), "cannot create the cgroup %s: %s",
                   cgroup->dir, g_strerror (e));
      g_clear_pointer (&cgroup->dir, g_free);
      return NULL;
    }
  return g_steal_pointer (&cgroup);
}

const char *
jvms_cgroup_perf_name (JvmsCgroup *cgroup)
{
  return cgroup->perf_name;
}

void
jvms_cgroup_join_child_setup (gpointer data)
{
  JvmsCgroup *cgroup = data;
  /* "0" names the writing process. A failure leaves the JVM where it was; the parent checks. */
  int fd = open (cgroup->procs, O_WRONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      if (write (fd, "0", 1) < 0)
        {
          /* nothing more can be done safely here */
        }
      close (fd);
    }
}

gboolean
jvms_cgroup_contains (JvmsCgroup *cgroup, GPid pid)
{
  g_autofree char *text = NULL;
  if (!g_file_get_contents (cgroup->procs, &text, NULL, NULL))
    return FALSE;
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0' && g_ascii_strtoll (lines[i], NULL, 10) == pid)
      return TRUE;
  return FALSE;
}

gboolean
jvms_cgroup_remove (JvmsCgroup *cgroup, GError **error)
{
  if (cgroup->dir == NULL)
    return TRUE;
  if (g_rmdir (cgroup->dir) != 0)
    {
      int e = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e), _("cannot remove the cgroup %s: %s"),
                   cgroup->dir, g_strerror (e));
      return FALSE;
    }
  g_clear_pointer (&cgroup->dir, g_free);
  return TRUE;
}

void
jvms_cgroup_free (JvmsCgroup *cgroup)
{
  if (cgroup == NULL)
    return;
  if (cgroup->dir != NULL)
    g_rmdir (cgroup->dir);
  g_free (cgroup->dir);
  g_free (cgroup->perf_name);
  g_free (cgroup->procs);
  g_free (cgroup);
}
