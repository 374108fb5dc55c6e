/* hostile-util.c: see hostile-util.h. */
#include "hostile-util.h"

#include <glib/gstdio.h>
#include <sys/resource.h>

gboolean
hostile_plain_build (void)
{
#if defined(__SANITIZE_ADDRESS__)
  return FALSE;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return FALSE;
#else
  return TRUE;
#endif
#else
  return TRUE;
#endif
}

void
hostile_assert_peak_rss (guint64 limit_mib, const char *what)
{
  struct rusage ru;
  g_assert_cmpint (getrusage (RUSAGE_SELF, &ru), ==, 0);
  g_printerr ("# %s: peak resident set %ld KiB\n", what, ru.ru_maxrss);
  if (hostile_plain_build ())
    g_assert_cmpuint ((guint64) ru.ru_maxrss, <=, limit_mib * 1024);
}

char *
hostile_write_temp (GBytes *bytes, const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-hostile-XXXXXX", &error);
  g_assert_no_error (error);
  char *path = g_build_filename (dir, name, NULL);
  g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error);
  g_assert_no_error (error);
  return path;
}

void
hostile_remove_temp (const char *path)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_unlink (path);
  g_rmdir (dir);
}
