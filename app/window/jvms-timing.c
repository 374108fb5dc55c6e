/* jvms-timing.c: launch-to-first-frame marks (see the header). */
#include "config.h"

#include "jvms-timing.h"

#include <string.h>
#include <time.h>
#include <unistd.h>

gboolean
jvms_timing_enabled (void)
{
  static gsize once = 0;
  static gboolean enabled;
  if (g_once_init_enter (&once))
    {
      enabled = g_getenv ("JVMSCOPE_DEBUG_TIMING") != NULL;
      g_once_init_leave (&once, 1);
    }
  return enabled;
}

/* Seconds since exec: field 22 of /proc/self/stat is the start time in clock ticks since boot,
 * the clock CLOCK_BOOTTIME reads. */
static double
seconds_since_launch (void)
{
  g_autofree char *stat = NULL;
  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL))
    return -1;
  const char *p = strrchr (stat, ')'); /* the command, field 2, may hold spaces */
  for (int field = 2; field < 22 && p != NULL; field++)
    p = strchr (p + 1, ' ');
  if (p == NULL)
    return -1;
  struct timespec now;
  clock_gettime (CLOCK_BOOTTIME, &now);
  return now.tv_sec + now.tv_nsec / 1e9
         - (double) g_ascii_strtoull (p + 1, NULL, 10) / (double) sysconf (_SC_CLK_TCK);
}

void
jvms_timing_mark (const char *what)
{
  if (jvms_timing_enabled ())
    g_printerr ("timing: %.3f s %s\n", seconds_since_launch (), what);
}
