#include "trace-format.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* LTTng writes the metadata file one or two folders down (kernel/, ust/uid/...): look a few
 * levels deep, no further, so a stray folder of unrelated files is not walked whole. */
static gboolean
folder_holds_ctf_metadata (const char *dir, guint depth)
{
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  if (g_file_test (metadata, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  if (depth == 0)
    return FALSE;

  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return FALSE;
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *child = g_build_filename (dir, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && folder_holds_ctf_metadata (child, depth - 1))
        return TRUE;
    }
  return FALSE;
}

JvmsTraceFormat
jvms_trace_format_detect (const char *path, GError **error)
{
  struct stat st;
  if (stat (path, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: %s", path, g_strerror (saved));
      return JVMS_TRACE_FORMAT_UNKNOWN;
    }

  if (S_ISDIR (st.st_mode))
    {
      g_autofree char *bundle = g_build_filename (path, "bundle.json", NULL);
      if (g_file_test (bundle, G_FILE_TEST_IS_REGULAR))
        return JVMS_TRACE_FORMAT_BUNDLE;
      if (folder_holds_ctf_metadata (path, 3))
        return JVMS_TRACE_FORMAT_CTF;
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: a folder with neither bundle.json nor an LTTng (CTF) metadata file", path);
      return JVMS_TRACE_FORMAT_UNKNOWN;
    }

  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved),
                   "%s: %s", path, g_strerror (saved));
      return JVMS_TRACE_FORMAT_UNKNOWN;
    }
  guint8 magic[8] = { 0 };
  ssize_t n = read (fd, magic, sizeof magic);
  close (fd);

  if (n == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s: empty file", path);
      return JVMS_TRACE_FORMAT_UNKNOWN;
    }
  if (n >= 4 && memcmp (magic, "FLR\0", 4) == 0)
    return JVMS_TRACE_FORMAT_JFR;
  if (n >= 8 && memcmp (magic, "PERFILE2", 8) == 0)
    return JVMS_TRACE_FORMAT_PERF;
  if (n >= 8 && memcmp (magic, "2ELIFREP", 8) == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   "%s: big-endian perf.data is not supported", path);
      return JVMS_TRACE_FORMAT_UNKNOWN;
    }

  g_autoptr(GString) hex = g_string_new (NULL);
  for (ssize_t i = 0; i < n; i++)
    g_string_append_printf (hex, "%s%02X", i ? " " : "", magic[i]);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
               "%s: not a trace Jvmscope reads: magic at offset 0 is %s "
               "(expected JFR \"FLR\\0\" or perf \"PERFILE2\")", path, hex->str);
  return JVMS_TRACE_FORMAT_UNKNOWN;
}

const char *
jvms_trace_format_name (JvmsTraceFormat format)
{
  switch (format)
    {
    case JVMS_TRACE_FORMAT_JFR: return "jfr";
    case JVMS_TRACE_FORMAT_PERF: return "perf";
    case JVMS_TRACE_FORMAT_CTF: return "ctf";
    case JVMS_TRACE_FORMAT_BUNDLE: return "bundle";
    case JVMS_TRACE_FORMAT_UNKNOWN:
    default: return "unknown";
    }
}
