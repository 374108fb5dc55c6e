/* jvms-number-format.c: counts with their digits grouped as the locale groups them. */
#include "config.h"

#include "jvms-number-format.h"

char *
jvms_number_format_count (guint64 value)
{
  /* The ' flag is POSIX printf's grouping by LC_NUMERIC; GLib hands the format to the C
   * library's vsnprintf, which knows it. */
  return g_strdup_printf ("%'" G_GUINT64_FORMAT, value);
}
