/* jvms-trace-detect.c: what a path holds, from its bytes and its folder's entries. */
#include "jvms-trace-detect.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jvms-ctf.h"
#include "jvms-input-file.h"

G_DEFINE_QUARK (jvms-analysis-error-quark, jvms_analysis_error)

char *
jvms_trace_bundle_part (const char *bundle_dir, const char *name)
{
  g_autofree char *path = g_build_filename (bundle_dir, name, NULL);
  GStatBuf st;
  return g_lstat (path, &st) == 0 ? g_steal_pointer (&path) : NULL;
}

static gboolean
is_bundle (const char *dir)
{
  const char *names[] = { JVMS_BUNDLE_MANIFEST, JVMS_BUNDLE_JFR, JVMS_BUNDLE_KERNEL };
  for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *part = jvms_trace_bundle_part (dir, names[i]);
      if (part != NULL)
        return TRUE;
    }
  return FALSE;
}

static gboolean
detect_file (const char *path, JvmsTraceKind *kind, GError **error)
{
  struct stat st;
  g_autoptr(GError) open_error = NULL;
  int fd = jvms_input_file_open (path, &st, &open_error);
  if (fd < 0)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT, "%s",
                   open_error->message);
      return FALSE;
    }
  guint8 magic[8] = { 0 };
  ssize_t n;
  do
    n = pread (fd, magic, sizeof magic, 0);
  while (n < 0 && errno == EINTR);
  int saved = errno;
  close (fd);

  if (n < 0)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT, "%s: %s",
                   path, g_strerror (saved));
      return FALSE;
    }
  if (n == 0)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT,
                   "%s: empty file", path);
      return FALSE;
    }
  if (n >= 4 && memcmp (magic, "FLR\0", 4) == 0)
    {
      *kind = JVMS_TRACE_KIND_JFR;
      return TRUE;
    }
  if (n == 8 && memcmp (magic, "PERFILE2", 8) == 0)
    {
      *kind = JVMS_TRACE_KIND_PERF;
      return TRUE;
    }
  if (n == 8 && memcmp (magic, "2ELIFREP", 8) == 0)
    {
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT,
                   "%s: big-endian perf.data is not supported", path);
      return FALSE;
    }
  g_autoptr(GString) hex = g_string_new (NULL);
  for (ssize_t i = 0; i < n; i++)
    g_string_append_printf (hex, "%s%02X", i ? " " : "", magic[i]);
  g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT,
               "%s: not a trace Jvmscope reads: magic at offset 0 is %s "
               "(expected JFR \"FLR\\0\" or perf \"PERFILE2\")", path, hex->str);
  return FALSE;
}

gboolean
jvms_trace_detect (const char *path, JvmsTraceKind *kind, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (kind != NULL, FALSE);

  GStatBuf st;
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      g_set_error (error, JVMS_ANALYSIS_ERROR,
                   saved == ENOENT || saved == ENOTDIR ? JVMS_ANALYSIS_ERROR_NOT_FOUND
                                                       : JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT,
                   saved == ENOENT ? "%s: no such file or folder" : "%s: %s", path,
                   g_strerror (saved));
      return FALSE;
    }
  if (S_ISDIR (st.st_mode))
    {
      if (is_bundle (path))
        {
          *kind = JVMS_TRACE_KIND_BUNDLE;
          return TRUE;
        }
      g_autoptr(GPtrArray) traces = jvms_ctf_find_traces (path);
      if (traces->len > 0)
        {
          *kind = JVMS_TRACE_KIND_CTF;
          return TRUE;
        }
      g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT,
                   "%s: a folder holding neither a bundle (bundle.json, recording.jfr or "
                   "kernel.perf.data) nor an LTTng trace (a CTF metadata file, in it or up to "
                   "three levels below)", path);
      return FALSE;
    }
  return detect_file (path, kind, error);
}

const char *
jvms_trace_kind_name (JvmsTraceKind kind)
{
  switch (kind)
    {
    case JVMS_TRACE_KIND_BUNDLE: return "bundle";
    case JVMS_TRACE_KIND_JFR: return "jfr";
    case JVMS_TRACE_KIND_PERF: return "perf";
    case JVMS_TRACE_KIND_CTF: return "ctf";
    default: return "unknown";
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Inputs */

static gboolean
is_regular (const char *path)
{
  GStatBuf st;
  return g_stat (path, &st) == 0 && S_ISREG (st.st_mode);
}

/* The files babeltrace2 reads of a trace folder: every regular file in it but hidden ones. */
static gboolean
add_ctf_folder (GPtrArray *inputs, const char *dir, const char *trace, GError **error)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return TRUE;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    {
      if (name[0] == '.')
        continue;
      if (inputs->len + names->len >= JVMS_TRACE_MAX_INPUTS)
        {
          g_set_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT,
                       "%s: more than %d files in the trace's folders; an LTTng trace holds "
                       "one stream file per CPU and channel", trace, JVMS_TRACE_MAX_INPUTS);
          return FALSE;
        }
      g_ptr_array_add (names, g_strdup (name));
    }
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *child = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      if (is_regular (child))
        g_ptr_array_add (inputs, g_steal_pointer (&child));
    }
  return TRUE;
}

GPtrArray *
jvms_trace_list_inputs (const char *path, JvmsTraceKind kind, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);
  g_autoptr(GPtrArray) inputs = g_ptr_array_new_with_free_func (g_free);
  switch (kind)
    {
    case JVMS_TRACE_KIND_BUNDLE:
      {
        const char *names[] = { JVMS_BUNDLE_MANIFEST, JVMS_BUNDLE_JFR, JVMS_BUNDLE_KERNEL,
                                JVMS_BUNDLE_CLOCK_LOG };
        for (gsize i = 0; i < G_N_ELEMENTS (names); i++)
          {
            g_autofree char *p = g_build_filename (path, names[i], NULL);
            if (is_regular (p))
              g_ptr_array_add (inputs, g_steal_pointer (&p));
          }
      }
      break;
    case JVMS_TRACE_KIND_CTF:
      {
        /* The folders the reader reads, found as it finds them. */
        g_autoptr(GPtrArray) traces = jvms_ctf_find_traces (path);
        for (guint i = 0; i < traces->len; i++)
          if (!add_ctf_folder (inputs, g_ptr_array_index (traces, i), path, error))
            return NULL;
      }
      break;
    case JVMS_TRACE_KIND_JFR:
    case JVMS_TRACE_KIND_PERF:
    default:
      if (is_regular (path))
        g_ptr_array_add (inputs, g_strdup (path));
      break;
    }
  return g_steal_pointer (&inputs);
}
