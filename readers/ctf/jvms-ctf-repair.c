#include "jvms-ctf-repair.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jvms-ctf-bt.h"
#include "jvms-ctf.h"

/* CTF 1.8 packet header magic, in the file's byte order (either). */
#define CTF_MAGIC 0xC1FC1FC1u
#define CTF_UUID_LEN 16
/* Bounds on the work spent on one damaged trace: each probe parses the metadata again. */
#define MAX_PROBES 400
#define MAX_BAD_REGIONS_REPORTED 8

/* ---- Stream files ---- */

static gboolean
is_stream_file (const char *dir, const char *name)
{
  if (name[0] == '.' || strcmp (name, "metadata") == 0)
    return FALSE;
  g_autofree char *path = g_build_filename (dir, name, NULL);
  return g_file_test (path, G_FILE_TEST_IS_REGULAR);
}

static GPtrArray *
list_stream_files (const char *dir)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return names;
  const char *name;
  while ((name = g_dir_read_name (d)) != NULL)
    if (is_stream_file (dir, name))
      g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, (GCompareFunc) g_strcmp0);
  return names;
}

void
jvms_ctf_check_stream_files (const char * const *inputs, GPtrArray *warnings)
{
  for (guint i = 0; inputs[i] != NULL; i++)
    {
      g_autoptr(GPtrArray) names = list_stream_files (inputs[i]);
      for (guint j = 0; j < names->len; j++)
        {
          g_autofree char *path = g_build_filename (inputs[i], g_ptr_array_index (names, j), NULL);
          GStatBuf st;
          if (g_stat (path, &st) == 0 && st.st_size == 0)
            g_ptr_array_add (warnings,
                             g_strdup_printf ("%s: empty stream file (0 bytes): it holds no "
                                              "packet, so no event of its CPU", path));
        }
    }
}

/* The temporary folder holds folders of files and links, two levels, nothing deeper. */
void
jvms_ctf_repair_remove (const char *tmp_dir)
{
  g_autoptr(GDir) top = g_dir_open (tmp_dir, 0, NULL);
  const char *name;
  while (top != NULL && (name = g_dir_read_name (top)) != NULL)
    {
      g_autofree char *child = g_build_filename (tmp_dir, name, NULL);
      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        {
          g_autoptr(GDir) sub = g_dir_open (child, 0, NULL);
          const char *leaf;
          while (sub != NULL && (leaf = g_dir_read_name (sub)) != NULL)
            {
              g_autofree char *path = g_build_filename (child, leaf, NULL);
              g_unlink (path);
            }
          g_rmdir (child);
        }
      else
        g_unlink (child);
    }
  g_rmdir (tmp_dir);
}

/* ---- Metadata ---- */

/* babeltrace2 2.0 tells the TSDL line of a syntax error only in its log, on stderr: the log
 * is caught in a temporary file for the length of one failed source creation. */
static char *
parser_log_line (const char *trace_dir)
{
  const bt_component_class_source *cls = jvms_ctf_bt_source_class (NULL);
  if (cls == NULL)
    return NULL;

  g_autofree char *log_path = NULL;
  int log_fd = g_file_open_tmp ("jvmscope-ctf-log-XXXXXX", &log_path, NULL);
  if (log_fd < 0)
    return NULL;
  fflush (stderr);
  int saved = dup (STDERR_FILENO);
  if (saved < 0)
    {
      close (log_fd);
      g_unlink (log_path);
      return NULL;
    }
  dup2 (log_fd, STDERR_FILENO);

  const char *inputs[] = { trace_dir, NULL };
  bt_value *params = jvms_ctf_bt_inputs_params (inputs);
  bt_graph *graph = bt_graph_create (0);
  const bt_component_source *source = NULL;
  if (graph != NULL)
    bt_graph_add_source_component (graph, cls, "source", params, BT_LOGGING_LEVEL_ERROR, &source);
  bt_current_thread_clear_error ();
  bt_graph_put_ref (graph);
  bt_value_put_ref (params);

  fflush (stderr);
  dup2 (saved, STDERR_FILENO);
  close (saved);
  close (log_fd);

  g_autofree char *log = NULL;
  gsize len = 0;
  g_file_get_contents (log_path, &log, &len, NULL);
  g_unlink (log_path);
  if (log == NULL)
    return NULL;

  const char *at = strstr (log, "At line ");
  if (at == NULL)
    return NULL;
  const char *end = strchr (at, '\n');
  g_autofree char *line = g_strndup (at, end != NULL ? (gsize) (end - at) : strlen (at));
  /* "At line 72 in metadata stream: syntax error, ..." */
  guint64 number = g_ascii_strtoull (at + strlen ("At line "), NULL, 10);
  const char *colon = strstr (line, ": ");
  return g_strdup_printf ("TSDL line %" G_GUINT64_FORMAT ": %s", number,
                          colon != NULL ? colon + 2 : line);
}

/* Bytes that cannot be TSDL text, for damage the parser does not reach (packet framing). */
static char *
text_damage (const char *trace_dir)
{
  const bt_component_class_source *cls = jvms_ctf_bt_source_class (NULL);
  if (cls == NULL)
    return NULL;
  bt_value *params = bt_value_map_create ();
  if (params == NULL || bt_value_map_insert_string_entry (params, "path", trace_dir)
                        != BT_VALUE_MAP_INSERT_ENTRY_STATUS_OK)
    g_error ("libbabeltrace2: out of memory");
  bt_query_executor *query =
    bt_query_executor_create (bt_component_class_source_as_component_class_const (cls),
                              "metadata-info", params);
  bt_value_put_ref (params);
  if (query == NULL)
    return NULL;

  char *found = NULL;
  const bt_value *result = NULL;
  if (bt_query_executor_query (query, &result) == BT_QUERY_EXECUTOR_QUERY_STATUS_OK)
    {
      const bt_value *text = bt_value_get_type (result) == BT_VALUE_TYPE_MAP
        ? bt_value_map_borrow_entry_value_const (result, "text") : NULL;
      if (text != NULL && bt_value_get_type (text) == BT_VALUE_TYPE_STRING)
        {
          const char *s = bt_value_string_get (text);
          guint line = 1;
          for (const char *p = s; *p != '\0'; p++)
            {
              guchar c = (guchar) *p;
              if (c == '\n')
                line++;
              else if ((c < 0x20 && c != '\t' && c != '\r') || c == 0x7f)
                {
                  found = g_strdup_printf ("TSDL line %u: byte 0x%02x is not text", line, c);
                  break;
                }
            }
        }
    }
  else
    {
      g_autofree char *why = jvms_ctf_bt_take_error_text ();
      found = g_strdup_printf ("its packets cannot be read: %s", why);
    }
  bt_value_put_ref (result);
  bt_query_executor_put_ref (query);
  return found;
}

char *
jvms_ctf_metadata_diagnosis (const char *trace_dir)
{
  char *line = parser_log_line (trace_dir);
  if (line != NULL)
    return line;
  return text_damage (trace_dir);
}

/* ---- Probing ---- */

typedef struct
{
  char  *dir;        /* a trace folder: metadata linked, one stream file "probe" */
  char  *stream;
  guint  n_probes;
} Probe;

static gboolean
write_all (int fd, const guint8 *data, gsize len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, MIN (len, (gsize) 1 << 24));
      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          return FALSE;
        }
      data += n;
      len -= (gsize) n;
    }
  return TRUE;
}

static gboolean
write_ranges (const char *path, const guint8 *data, const GArray *ranges, GError **error)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      int saved = errno;
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_STREAM,
                   "%s: cannot write a repaired copy: %s", path, g_strerror (saved));
      return FALSE;
    }
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < ranges->len; i += 2)
    {
      guint64 begin = g_array_index (ranges, guint64, i);
      guint64 end = g_array_index (ranges, guint64, i + 1);
      ok = write_all (fd, data + begin, end - begin);
    }
  int saved = errno;
  close (fd);
  if (!ok)
    g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_STREAM,
                 "%s: cannot write a repaired copy: %s", path, g_strerror (saved));
  return ok;
}

/* Whether babeltrace2 indexes the packets in bytes [begin, end) of @data as a stream file. */
static gboolean
probe_segment (Probe *probe, const guint8 *data, guint64 begin, guint64 end)
{
  probe->n_probes++;
  g_autoptr(GArray) range = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_array_append_val (range, begin);
  g_array_append_val (range, end);
  if (!write_ranges (probe->stream, data, range, NULL))
    return FALSE;
  const char *inputs[] = { probe->dir, NULL };
  return jvms_ctf_bt_probe_guarded (inputs) == JVMS_CTF_PROBE_OK;
}

/* Offsets where a packet header may start: the magic, then the uuid the file's first packet
 * (or another stream file of the trace) carries. */
static GArray *
packet_starts (const guint8 *data, gsize size, const guint8 *signature, gsize signature_len)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (guint64));
  const guint8 *p = data;
  const guint8 *end = data + size;
  while (p + signature_len <= end)
    {
      const guint8 *hit = memmem (p, (gsize) (end - p), signature, signature_len);
      if (hit == NULL)
        break;
      guint64 offset = (guint64) (hit - data);
      g_array_append_val (starts, offset);
      p = hit + 1;
    }
  return starts;
}

static gboolean
has_magic (const guint8 *data, gsize size)
{
  if (size < 4)
    return FALSE;
  guint32 le = (guint32) data[0] | (guint32) data[1] << 8 | (guint32) data[2] << 16 | (guint32) data[3] << 24;
  guint32 be = (guint32) data[3] | (guint32) data[2] << 8 | (guint32) data[1] << 16 | (guint32) data[0] << 24;
  return le == CTF_MAGIC || be == CTF_MAGIC;
}

/* The first bytes every packet of the trace begins with. With no uuid to go by only the magic
 * is known, in the byte order of the first file that has it. */
static gsize
trace_signature (const char *dir, GPtrArray *names, guint8 signature[4 + CTF_UUID_LEN])
{
  gsize best = 0;
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      int fd = g_open (path, O_RDONLY | O_CLOEXEC, 0);
      if (fd < 0)
        continue;
      guint8 head[4 + CTF_UUID_LEN];
      ssize_t n = read (fd, head, sizeof head);
      close (fd);
      if (n < 4 || !has_magic (head, (gsize) n))
        continue;
      if (n == (ssize_t) sizeof head)
        {
          /* Two files agreeing on the 20 bytes: magic and uuid. */
          if (best == sizeof head && memcmp (signature, head, sizeof head) == 0)
            return best;
          if (best < 4)
            {
              memcpy (signature, head, sizeof head);
              best = sizeof head;
              continue;
            }
        }
      if (best == 0)
        {
          memcpy (signature, head, 4);
          best = 4;
        }
    }
  return best;
}

typedef struct
{
  guint64 begin, end;
} Region;

/* Splits @data at the packet starts and keeps the packets babeltrace2 accepts: it finds the
 * first bad packet by bisection (packets are indexed independently, so a run of good packets
 * is good as a whole), skips it and goes on after it. */
static GArray *
good_ranges (Probe *probe, const guint8 *data, gsize size, GArray *starts, GArray *bad)
{
  GArray *good = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint k = starts->len;
  if (k == 0)
    {
      Region r = { 0, size };
      if (size > 0)
        g_array_append_val (bad, r);
      return good;
    }
#define UNIT_BEGIN(i) g_array_index (starts, guint64, (i))
#define UNIT_END(i) ((i) + 1 < k ? g_array_index (starts, guint64, (i) + 1) : (guint64) size)

  if (UNIT_BEGIN (0) > 0)
    {
      Region r = { 0, UNIT_BEGIN (0) };
      g_array_append_val (bad, r);
    }

  guint pos = 0;
  while (pos < k)
    {
      if (probe->n_probes >= MAX_PROBES)
        {
          Region r = { UNIT_BEGIN (pos), size };
          g_array_append_val (bad, r);
          break;
        }
      /* The whole file is known bad: that is why it is being repaired. */
      gboolean whole = pos == 0 && UNIT_BEGIN (0) == 0;
      if (!whole && probe_segment (probe, data, UNIT_BEGIN (pos), size))
        {
          guint64 b = UNIT_BEGIN (pos), e = size;
          g_array_append_val (good, b);
          g_array_append_val (good, e);
          break;
        }
      /* [pos, lo) is good, [lo, hi) holds a bad unit. */
      guint lo = pos, hi = k;
      while (hi - lo > 1 && probe->n_probes < MAX_PROBES)
        {
          guint mid = lo + (hi - lo) / 2;
          if (probe_segment (probe, data, UNIT_BEGIN (lo), UNIT_BEGIN (mid)))
            lo = mid;
          else
            hi = mid;
        }
      if (hi - lo > 1)
        {
          /* Out of probes: keep what is known good and drop the rest. */
          if (lo > pos)
            {
              guint64 b = UNIT_BEGIN (pos), e = UNIT_BEGIN (lo);
              g_array_append_val (good, b);
              g_array_append_val (good, e);
            }
          Region r = { UNIT_BEGIN (lo), size };
          g_array_append_val (bad, r);
          break;
        }
      if (lo > pos)
        {
          guint64 b = UNIT_BEGIN (pos), e = UNIT_BEGIN (lo);
          g_array_append_val (good, b);
          g_array_append_val (good, e);
        }
      Region r = { UNIT_BEGIN (lo), UNIT_END (lo) };
      if (bad->len > 0 && g_array_index (bad, Region, bad->len - 1).end == r.begin)
        g_array_index (bad, Region, bad->len - 1).end = r.end;
      else
        g_array_append_val (bad, r);
      pos = lo + 1;
    }
#undef UNIT_BEGIN
#undef UNIT_END
  return good;
}

static char *
describe_bad (const char *path, gsize size, GArray *bad, guint64 kept)
{
  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s: damaged stream file (%" G_GSIZE_FORMAT " bytes): babeltrace2 "
                          "cannot index the packets in bytes ", path, size);
  guint64 dropped = 0;
  for (guint i = 0; i < bad->len; i++)
    {
      Region *r = &g_array_index (bad, Region, i);
      dropped += r->end - r->begin;
      if (i < MAX_BAD_REGIONS_REPORTED)
        g_string_append_printf (s, "%s[%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ")",
                                i > 0 ? ", " : "", r->begin, r->end);
    }
  if (bad->len > MAX_BAD_REGIONS_REPORTED)
    g_string_append_printf (s, " and %u more ranges", bad->len - MAX_BAD_REGIONS_REPORTED);
  g_string_append_printf (s, "; %" G_GUINT64_FORMAT " bytes dropped%s, the %" G_GUINT64_FORMAT
                          " bytes of whole packets around them kept",
                          dropped, size > 0 && dropped == size ? " (the whole file)" : "", kept);
  return g_string_free (s, FALSE);
}

/* Replaces the stream file @name of @dir, already linked into @out_dir, by its good packets. */
static gboolean
repair_stream (const char *dir, const char *name, const char *out_dir, const guint8 *signature,
               gsize signature_len, Probe *probe, GPtrArray *warnings, GError **error)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autofree char *out = g_build_filename (out_dir, name, NULL);
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GMappedFile) mapped = g_mapped_file_new (path, FALSE, &local_error);
  if (mapped == NULL)
    {
      g_ptr_array_add (warnings, g_strdup_printf ("%s: cannot read the stream file: %s",
                                                  path, local_error->message));
      g_unlink (out);
      return TRUE;
    }
  const guint8 *data = (const guint8 *) g_mapped_file_get_contents (mapped);
  gsize size = g_mapped_file_get_length (mapped);

  g_autoptr(GArray) starts = signature_len > 0 ? packet_starts (data, size, signature, signature_len)
                                               : g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) bad = g_array_new (FALSE, FALSE, sizeof (Region));
  g_autoptr(GArray) good = good_ranges (probe, data, size, starts, bad);

  guint64 kept = 0;
  for (guint i = 0; i < good->len; i += 2)
    kept += g_array_index (good, guint64, i + 1) - g_array_index (good, guint64, i);
  g_ptr_array_add (warnings, describe_bad (path, size, bad, kept));

  g_unlink (out);
  if (kept == 0)
    return TRUE;
  return write_ranges (out, data, good, error);
}

static gboolean
link_into (const char *target, const char *link, GError **error)
{
  g_autofree char *absolute = g_canonicalize_filename (target, NULL);
  if (symlink (absolute, link) != 0)
    {
      int saved = errno;
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_STREAM,
                   "%s: cannot link %s there: %s", link, absolute, g_strerror (saved));
      return FALSE;
    }
  return TRUE;
}

static gboolean
stream_alone_is_good (Probe *probe, const char *path)
{
  g_unlink (probe->stream);
  if (!link_into (path, probe->stream, NULL))
    return FALSE;
  probe->n_probes++;
  const char *inputs[] = { probe->dir, NULL };
  gboolean ok = jvms_ctf_bt_probe_guarded (inputs) == JVMS_CTF_PROBE_OK;
  g_unlink (probe->stream);
  return ok;
}

/* Links trace @t's metadata and stream files into @root/trace<t>, repairing the damaged ones;
 * the folder goes to @outs. */
static gboolean
repair_one_trace (const char *dir, guint t, const char *why, const char *root,
                  GStrvBuilder *outs, guint *n_damaged, GPtrArray *warnings, GError **error)
{
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  char name_buf[32];

  g_snprintf (name_buf, sizeof name_buf, "probe%u", t);
  g_autofree char *probe_dir = g_build_filename (root, name_buf, NULL);
  g_autofree char *probe_stream = g_build_filename (probe_dir, "stream", NULL);
  Probe probe = { probe_dir, probe_stream, 0 };
  g_autofree char *probe_metadata = g_build_filename (probe.dir, "metadata", NULL);
  if (g_mkdir (probe.dir, 0700) != 0 || !link_into (metadata, probe_metadata, error))
    return FALSE;

  /* The metadata alone first: if babeltrace2 refuses it, nothing can be salvaged. */
  const char *alone[] = { probe.dir, NULL };
  JvmsCtfProbeResult metadata_result = jvms_ctf_bt_probe_guarded (alone);
  if (metadata_result != JVMS_CTF_PROBE_OK)
    {
      /* The diagnosis parses the metadata again, in this process: only when that is known to
       * end. */
      g_autofree char *where = metadata_result == JVMS_CTF_PROBE_FAILED
                             ? jvms_ctf_metadata_diagnosis (dir)
                             : g_strdup ("babeltrace2 did not finish parsing it");
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_METADATA,
                   "%s: the metadata file cannot be parsed%s%s (babeltrace2: %s)", metadata,
                   where != NULL ? ": " : "", where != NULL ? where : "", why);
      return FALSE;
    }

  g_snprintf (name_buf, sizeof name_buf, "trace%u", t);
  g_autofree char *out_dir = g_build_filename (root, name_buf, NULL);
  g_autofree char *out_metadata = g_build_filename (out_dir, "metadata", NULL);
  if (g_mkdir (out_dir, 0700) != 0 || !link_into (metadata, out_metadata, error))
    return FALSE;

  g_autoptr(GPtrArray) names = list_stream_files (dir);
  guint8 signature[4 + CTF_UUID_LEN];
  gsize signature_len = trace_signature (dir, names, signature);
  gboolean ok = TRUE;
  for (guint i = 0; ok && i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *out = g_build_filename (out_dir, name, NULL);
      ok = link_into (path, out, error);
      if (ok && !stream_alone_is_good (&probe, path))
        {
          (*n_damaged)++;
          ok = repair_stream (dir, name, out_dir, signature, signature_len, &probe,
                              warnings, error);
        }
    }
  g_unlink (probe.stream);
  if (ok)
    g_strv_builder_add (outs, out_dir);
  return ok;
}

gboolean
jvms_ctf_repair_traces (const char * const *inputs, const char *why, char **tmp_dir,
                        GStrv *repaired_inputs, GPtrArray *warnings, GError **error)
{
  g_autofree char *root = g_dir_make_tmp ("jvmscope-ctf-XXXXXX", NULL);
  if (root == NULL)
    return FALSE;
  g_autoptr(GStrvBuilder) outs = g_strv_builder_new ();
  gboolean ok = TRUE;
  guint n_damaged = 0;

  for (guint t = 0; ok && inputs[t] != NULL; t++)
    ok = repair_one_trace (inputs[t], t, why, root, outs, &n_damaged, warnings, error);

  if (ok && n_damaged == 0)
    {
      /* Every file is fine alone, yet babeltrace2 refused them together (streams that do not
       * fit one another): nothing to salvage here. */
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_STREAM,
                   "%s: babeltrace2 cannot open the trace: %s", inputs[0], why);
      ok = FALSE;
    }
  if (!ok)
    {
      jvms_ctf_repair_remove (root);
      return FALSE;
    }
  *tmp_dir = g_steal_pointer (&root);
  *repaired_inputs = g_strv_builder_end (outs);
  return TRUE;
}
