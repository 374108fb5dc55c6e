#include "jvms-ctf-repair.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "jvms-ctf-bt.h"
#include "jvms-ctf.h"
#include "jvms-ctf-layout.h"
#include "jvms-input-file.h"

/* CTF 1.8 packet header magic, in the file's byte order (either). */
#define CTF_MAGIC 0xC1FC1FC1u
#define CTF_UUID_LEN 16
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
      /* babeltrace2 passes over what is not a regular file; say so. */
      g_autoptr(GDir) d = g_dir_open (inputs[i], 0, NULL);
      const char *name;
      while (d != NULL && (name = g_dir_read_name (d)) != NULL)
        {
          if (name[0] == '.' || strcmp (name, "metadata") == 0)
            continue;
          g_autofree char *path = g_build_filename (inputs[i], name, NULL);
          GStatBuf st;
          if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode) && !S_ISDIR (st.st_mode))
            g_ptr_array_add (warnings,
                             g_strdup_printf ("%s is %s, not a file: not read as a stream file",
                                              path, jvms_input_file_kind (st.st_mode)));
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
    {
      /* Out of memory, with an error on the thread that the next call would abort on. */
      bt_current_thread_clear_error ();
      return NULL;
    }

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

/* ---- Reading stream files ---- */

/* Stream files are read with pread into one bounded window, never mapped: a file that shrinks
 * while it is read (a tracer still writing, a full disk being cleaned) only ends early. */
#define WINDOW_SIZE ((gsize) 1 << 20)

typedef struct
{
  int      fd;
  guint64  size;
  guint8  *buf;
  guint64  buf_off;
  gsize    buf_len;
} Source;

static gboolean
source_open (Source *s, const char *path, GError **error)
{
  struct stat st;
  g_autoptr(GError) open_error = NULL;
  s->fd = jvms_input_file_open (path, &st, &open_error);
  if (s->fd < 0)
    {
      g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_STREAM, "%s", open_error->message);
      return FALSE;
    }
  s->size = (guint64) st.st_size;
  s->buf = g_malloc (WINDOW_SIZE);
  s->buf_off = 0;
  s->buf_len = 0;
  return TRUE;
}

static void
source_close (Source *s)
{
  if (s->fd >= 0)
    close (s->fd);
  g_clear_pointer (&s->buf, g_free);
}

static gsize
pread_full (int fd, guint8 *buf, gsize len, guint64 off)
{
  gsize got = 0;
  while (got < len)
    {
      ssize_t n = pread (fd, buf + got, len - got, (off_t) (off + got));
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        break;
      got += (gsize) n;
    }
  return got;
}

/* What a miss reads at least: a packet's header and context, without reading the whole of
 * large packets when the walk only hops from header to header. */
#define READ_AHEAD ((gsize) 4096)

/* @len bytes at @off, or NULL when the file does not hold them (any more). */
static const guint8 *
source_at (Source *s, guint64 off, gsize len)
{
  if (len > WINDOW_SIZE || off > s->size || len > s->size - off)
    return NULL;
  if (off >= s->buf_off && off + len <= s->buf_off + s->buf_len)
    return s->buf + (off - s->buf_off);
  gsize want = (gsize) MIN ((guint64) MAX (len, READ_AHEAD), s->size - off);
  gsize got = pread_full (s->fd, s->buf, want, off);
  s->buf_off = off;
  s->buf_len = got;
  if (got < want)
    s->size = off + got;   /* it shrank */
  return got >= len ? s->buf : NULL;
}

typedef struct
{
  guint64 begin, end;
} Region;

static gboolean
write_all (int fd, const guint8 *data, gsize len)
{
  while (len > 0)
    {
      ssize_t n = write (fd, data, len);
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

/* Writes the byte ranges @ranges of @from into a new file @path. */
static gboolean
copy_ranges (const char *from, const char *path, const GArray *ranges, GError **error)
{
  int in = g_open (from, O_RDONLY | O_CLOEXEC, 0);
  int out = g_open (path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  gboolean ok = in >= 0 && out >= 0;
  int saved = errno;
  g_autofree guint8 *buf = ok ? g_malloc (WINDOW_SIZE) : NULL;
  for (guint i = 0; ok && i < ranges->len; i++)
    {
      const Region *r = &g_array_index (ranges, Region, i);
      for (guint64 at = r->begin; ok && at < r->end;)
        {
          gsize want = (gsize) MIN ((guint64) WINDOW_SIZE, r->end - at);
          gsize got = pread_full (in, buf, want, at);
          ok = write_all (out, buf, got);
          saved = errno;
          if (got < want)
            break;   /* the file shrank: what is there is written */
          at += got;
        }
    }
  if (in >= 0)
    close (in);
  if (out >= 0)
    close (out);
  if (!ok)
    g_set_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_STREAM,
                 "%s: cannot write a repaired copy of %s: %s", path, from, g_strerror (saved));
  return ok;
}

/* ---- The metadata text, read here without babeltrace2 ---- */

#define METADATA_MAGIC 0x75D11D57u
#define METADATA_HEADER_SIZE 37   /* magic, uuid, checksum, content and packet size, 5 u8 */
#define MAX_METADATA_SIZE ((gsize) 64 << 20)

static guint32
u32_at (const guint8 *p, gboolean be)
{
  return (guint32) jvms_ctf_layout_read (p, 0, 32, be);
}

/* The TSDL text of @dir's metadata, plain or in metadata packets; NULL when it cannot be
 * read that way (babeltrace2 then decides alone). */
static char *
metadata_text (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "metadata", NULL);
  Source s = { -1 };
  if (!source_open (&s, path, NULL))
    return NULL;
  GString *text = NULL;
  const guint8 *head = source_at (&s, 0, 4);
  if (head != NULL && s.size <= MAX_METADATA_SIZE
      && (u32_at (head, FALSE) == METADATA_MAGIC || u32_at (head, TRUE) == METADATA_MAGIC))
    {
      gboolean be = u32_at (head, TRUE) == METADATA_MAGIC;
      text = g_string_new (NULL);
      guint64 pos = 0;
      while (pos < s.size)
        {
          const guint8 *h = source_at (&s, pos, METADATA_HEADER_SIZE);
          if (h == NULL || u32_at (h, be) != METADATA_MAGIC)
            break;
          guint64 content = u32_at (h + 24, be) / 8, packet = u32_at (h + 28, be) / 8;
          if (content < METADATA_HEADER_SIZE || content > packet || packet > s.size - pos
              || packet > WINDOW_SIZE)
            break;
          const guint8 *p = source_at (&s, pos, (gsize) packet);
          if (p == NULL)
            break;
          g_string_append_len (text, (const char *) p + METADATA_HEADER_SIZE,
                               (gssize) (content - METADATA_HEADER_SIZE));
          pos += packet;
        }
    }
  else if (head != NULL && s.size <= MAX_METADATA_SIZE)
    {
      text = g_string_sized_new ((gsize) s.size + 1);
      g_string_set_size (text, (gsize) s.size);
      g_string_set_size (text, pread_full (s.fd, (guint8 *) text->str, (gsize) s.size, 0));
    }
  source_close (&s);
  if (text == NULL)
    return NULL;
  /* A NUL in the text ends it, as for babeltrace2's parser. */
  return g_string_free (text, FALSE);
}

static JvmsCtfLayout *
trace_layout (const char *dir)
{
  g_autofree char *text = metadata_text (dir);
  return text != NULL ? jvms_ctf_layout_parse (text) : NULL;
}

/* ---- Finding packets ---- */

/* The bytes every packet holds at @at from its start: the magic, then the uuid when it
 * follows. */
typedef struct
{
  guint8 bytes[4 + CTF_UUID_LEN];
  gsize  len;
  gsize  at;
} Signature;

static gboolean
has_magic (const guint8 *data, gsize size)
{
  return size >= 4 && (u32_at (data, FALSE) == CTF_MAGIC || u32_at (data, TRUE) == CTF_MAGIC);
}

static void
layout_signature (const JvmsCtfLayout *layout, Signature *sig)
{
  sig->len = 0;
  sig->at = 0;
  if (layout->magic_bit == JVMS_CTF_LAYOUT_UNKNOWN)
    return;
  sig->at = (gsize) (layout->magic_bit / 8);
  guint32 m = layout->magic_be ? GUINT32_TO_BE (CTF_MAGIC) : GUINT32_TO_LE (CTF_MAGIC);
  memcpy (sig->bytes, &m, 4);
  sig->len = 4;
  if (layout->has_uuid && layout->uuid_bit == layout->magic_bit + 32)
    {
      memcpy (sig->bytes + 4, layout->uuid, CTF_UUID_LEN);
      sig->len += CTF_UUID_LEN;
    }
}

/* Without a layout: the first bytes of the first stream files, magic and uuid when two files
 * agree on them, else the magic alone in the byte order of the first file that has it. */
static void
sniffed_signature (const char *dir, GPtrArray *names, Signature *sig)
{
  sig->len = 0;
  sig->at = 0;
  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *path = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      struct stat st;
      int fd = jvms_input_file_open (path, &st, NULL);
      if (fd < 0)
        continue;
      guint8 head[4 + CTF_UUID_LEN];
      gsize n = pread_full (fd, head, sizeof head, 0);
      close (fd);
      if (!has_magic (head, n))
        continue;
      if (n == sizeof head)
        {
          if (sig->len == sizeof head && memcmp (sig->bytes, head, sizeof head) == 0)
            return;
          if (sig->len < 4)
            {
              memcpy (sig->bytes, head, sizeof head);
              sig->len = sizeof head;
              continue;
            }
        }
      if (sig->len == 0)
        {
          memcpy (sig->bytes, head, 4);
          sig->len = 4;
        }
    }
}

/* The first packet start at or after @from whose signature is there; G_MAXUINT64 if none. */
static guint64
next_signature (Source *s, const Signature *sig, guint64 from)
{
  if (sig->len == 0)
    return G_MAXUINT64;
  guint64 p = from + sig->at;
  while (p < s->size && s->size - p >= sig->len)
    {
      gsize chunk = (gsize) MIN ((guint64) WINDOW_SIZE, s->size - p);
      const guint8 *w = source_at (s, p, chunk);
      if (w == NULL)
        break;
      const guint8 *hit = memmem (w, chunk, sig->bytes, sig->len);
      if (hit != NULL)
        return p + (guint64) (hit - w) - sig->at;
      if (chunk < WINDOW_SIZE)
        break;
      p += chunk - (sig->len - 1);
    }
  return G_MAXUINT64;
}

typedef enum
{
  PACKET_OK,
  PACKET_BAD,    /* its signature is there, what it declares is not possible */
  PACKET_NONE,   /* not the start of a packet at all */
} PacketState;

/* Whether a packet starts at @off, and how long it says it is: what babeltrace2 checks when
 * it indexes a stream file, and what it does not (a size under one byte, on which it loops). */
static PacketState
packet_at (Source *s, const JvmsCtfLayout *layout, const Signature *sig, guint64 off,
           guint64 *len)
{
  guint64 avail = s->size - off;
  gsize head_len = (gsize) MIN ((guint64) jvms_ctf_layout_head_bytes (layout), avail);
  const guint8 *h = source_at (s, off, head_len);
  if (h == NULL)
    return PACKET_NONE;
  if (sig->len > 0)
    {
      gsize sig_end = sig->at + sig->len;
      gsize cmp = (gsize) MIN ((guint64) sig_end, avail);
      if (cmp <= sig->at || memcmp (h + sig->at, sig->bytes, cmp - sig->at) != 0)
        return PACKET_NONE;
      if (cmp < sig_end)
        return PACKET_BAD;   /* a packet header cut short */
    }
  if (layout->has_uuid && layout->uuid_bit != JVMS_CTF_LAYOUT_UNKNOWN)
    {
      guint64 end = layout->uuid_bit / 8 + CTF_UUID_LEN;
      if (end > head_len)
        return PACKET_BAD;
      if (memcmp (h + layout->uuid_bit / 8, layout->uuid, CTF_UUID_LEN) != 0)
        return sig->len > 0 ? PACKET_BAD : PACKET_NONE;
    }
  const JvmsCtfStreamLayout *sl = &g_array_index (layout->streams, JvmsCtfStreamLayout, 0);
  if (layout->stream_id_bit != JVMS_CTF_LAYOUT_UNKNOWN)
    {
      if (layout->stream_id_bit + layout->stream_id_bits > 8 * (guint64) head_len)
        return PACKET_BAD;
      sl = jvms_ctf_layout_stream (layout, jvms_ctf_layout_read (h, layout->stream_id_bit,
                                                                 layout->stream_id_bits,
                                                                 layout->stream_id_be));
      if (sl == NULL)
        return PACKET_BAD;
    }
  if (sl->context_end_bit > 8 * (guint64) head_len)
    return PACKET_BAD;
  guint64 packet = jvms_ctf_layout_read (h, sl->packet_size_bit, sl->packet_size_bits,
                                         sl->packet_size_be);
  if (packet % 8 != 0 || packet < sl->context_end_bit || packet / 8 > avail)
    return PACKET_BAD;
  if (sl->content_size_bit != JVMS_CTF_LAYOUT_UNKNOWN)
    {
      guint64 content = jvms_ctf_layout_read (h, sl->content_size_bit, sl->content_size_bits,
                                              sl->content_size_be);
      if (content > packet || content < sl->context_end_bit)
        return PACKET_BAD;
    }
  *len = packet / 8;
  return PACKET_OK;
}

static void
add_region (GArray *regions, guint64 begin, guint64 end)
{
  if (begin >= end)
    return;
  if (regions->len > 0)
    {
      Region *last = &g_array_index (regions, Region, regions->len - 1);
      if (last->end == begin)
        {
          last->end = end;
          return;
        }
    }
  Region r = { begin, end };
  g_array_append_val (regions, r);
}

/* Walks the packets of a stream file by their declared sizes. Where the walk meets bytes that
 * do not start a packet, the packet before them goes too: damage rarely ends on a packet
 * boundary, and that packet's size still reads fine when only its tail was hit. The walk goes
 * on at the next signature that starts a well-formed packet. */
static void
scan_with_layout (Source *s, const JvmsCtfLayout *layout, const Signature *sig,
                  GArray *units, GArray *bad)
{
  guint64 pos = 0;
  while (pos < s->size)
    {
      guint64 len = 0;
      PacketState state = packet_at (s, layout, sig, pos, &len);
      if (state == PACKET_OK)
        {
          Region r = { pos, pos + len };
          g_array_append_val (units, r);
          pos += len;
          continue;
        }
      guint64 bad_begin = pos;
      if (state == PACKET_NONE && units->len > 0
          && g_array_index (units, Region, units->len - 1).end == pos)
        {
          bad_begin = g_array_index (units, Region, units->len - 1).begin;
          g_array_set_size (units, units->len - 1);
        }
      guint64 next = pos;
      for (;;)
        {
          next = next_signature (s, sig, next + 1);
          if (next == G_MAXUINT64)
            {
              next = s->size;
              break;
            }
          if (packet_at (s, layout, sig, next, &len) == PACKET_OK)
            break;
        }
      add_region (bad, bad_begin, next);
      pos = next;
    }
}

/* Without a layout the file is cut at each signature, and babeltrace2 judges the pieces. */
static void
scan_with_signature (Source *s, const Signature *sig, GArray *units, GArray *bad)
{
  guint64 start = next_signature (s, sig, 0);
  if (start == G_MAXUINT64)
    {
      add_region (bad, 0, s->size);
      return;
    }
  add_region (bad, 0, start);
  while (start < s->size)
    {
      guint64 next = next_signature (s, sig, start + 1);
      Region r = { start, MIN (next, s->size) };
      g_array_append_val (units, r);
      start = r.end;
    }
}

/* ---- One trace's stream files ---- */

typedef enum
{
  UNIT_UNKNOWN,
  UNIT_GOOD,
  UNIT_BAD,
} UnitVerdict;

typedef struct
{
  char    *name;
  char    *path;
  guint64  size;
  GArray  *units;     /* Region: the packets (or pieces) babeltrace2 is asked about */
  GArray  *verdicts;  /* UnitVerdict, one per unit */
  GArray  *bad;       /* Region: bytes dropped before babeltrace2 is asked */
} Stream;

static void
stream_clear (gpointer p)
{
  Stream *s = p;
  g_free (s->name);
  g_free (s->path);
  g_array_unref (s->units);
  g_array_unref (s->verdicts);
  g_array_unref (s->bad);
}

/* Scans every stream file of @dir; @layout may be NULL. */
static GArray *
scan_trace (const char *dir, const JvmsCtfLayout *layout, GPtrArray *warnings)
{
  GArray *streams = g_array_new (FALSE, TRUE, sizeof (Stream));
  g_array_set_clear_func (streams, stream_clear);
  g_autoptr(GPtrArray) names = list_stream_files (dir);
  Signature sig;
  if (layout != NULL)
    layout_signature (layout, &sig);
  else
    sniffed_signature (dir, names, &sig);
  for (guint i = 0; i < names->len; i++)
    {
      Stream st = { 0 };
      st.name = g_strdup (g_ptr_array_index (names, i));
      st.path = g_build_filename (dir, st.name, NULL);
      st.units = g_array_new (FALSE, FALSE, sizeof (Region));
      st.verdicts = g_array_new (FALSE, TRUE, sizeof (UnitVerdict));
      st.bad = g_array_new (FALSE, FALSE, sizeof (Region));
      g_autoptr(GError) error = NULL;
      Source s = { -1 };
      if (source_open (&s, st.path, &error))
        {
          if (layout != NULL)
            scan_with_layout (&s, layout, &sig, st.units, st.bad);
          else
            scan_with_signature (&s, &sig, st.units, st.bad);
          st.size = s.size;
          source_close (&s);
        }
      else if (warnings != NULL)
        g_ptr_array_add (warnings, g_strdup_printf ("cannot read the stream file: %s",
                                                    error->message));
      g_array_set_size (st.verdicts, st.units->len);
      g_array_append_val (streams, st);
    }
  return streams;
}

char *
jvms_ctf_metadata_too_large (const char * const *inputs)
{
  for (guint t = 0; inputs[t] != NULL; t++)
    {
      g_autofree char *text = metadata_text (inputs[t]);
      guint64 n = text != NULL ? jvms_ctf_tsdl_event_classes (text) : 0;
      if (n > JVMS_CTF_MAX_EVENT_CLASSES)
        return g_strdup_printf ("%s/metadata: the metadata declares %" G_GUINT64_FORMAT
                                " event classes, more than the limit of %u (babeltrace2 needs "
                                "about 7 KB of memory for each, in each of its three parses)",
                                inputs[t], n, JVMS_CTF_MAX_EVENT_CLASSES);
    }
  return NULL;
}

char *
jvms_ctf_scan_damage (const char * const *inputs)
{
  for (guint t = 0; inputs[t] != NULL; t++)
    {
      g_autoptr(JvmsCtfLayout) layout = trace_layout (inputs[t]);
      if (layout == NULL)
        continue;
      g_autoptr(GArray) streams = scan_trace (inputs[t], layout, NULL);
      for (guint i = 0; i < streams->len; i++)
        {
          const Stream *st = &g_array_index (streams, Stream, i);
          if (st->bad->len > 0)
            {
              const Region *r = &g_array_index (st->bad, Region, 0);
              return g_strdup_printf ("%s: bytes [%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT
                                      ") do not hold well-formed packets", st->path,
                                      r->begin, r->end);
            }
        }
    }
  return NULL;
}

/* ---- Asking babeltrace2 ---- */

/* Probes babeltrace2 did not finish before one repair stops probing. Without a layout (TSDL
 * this does not understand) a packet declaring a size of 0 reaches babeltrace2, and every
 * probe holding it waits out the probe's time limit (2 s and more): bounded by count too. */
#define MAX_HUNG_PROBES 2

typedef struct
{
  char  *dir;       /* a trace folder: the metadata linked, the stream files of one probe */
  guint  n_probes;  /* every probe of this repair */
  guint  left;      /* stream probes left (JVMS_CTF_REPAIR_MAX_PROBES in all) */
  guint  n_hung;
  JvmsCtfProber *prober;
} Probe;

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

/* Puts the units of @st that @take says into @dir/@name: a link when that is the whole file,
 * nothing when it is no unit. */
static gboolean
place_stream (const Stream *st, const char *dir, gboolean (*take) (const Stream *, guint, gpointer),
              gpointer data, guint64 *kept, GError **error)
{
  g_autofree char *out = g_build_filename (dir, st->name, NULL);
  g_unlink (out);
  g_autoptr(GArray) ranges = g_array_new (FALSE, FALSE, sizeof (Region));
  for (guint u = 0; u < st->units->len; u++)
    if (take (st, u, data))
      {
        const Region *r = &g_array_index (st->units, Region, u);
        add_region (ranges, r->begin, r->end);
      }
  guint64 total = 0;
  for (guint i = 0; i < ranges->len; i++)
    total += g_array_index (ranges, Region, i).end - g_array_index (ranges, Region, i).begin;
  if (kept != NULL)
    *kept = total;
  if (ranges->len == 0)
    return TRUE;
  if (ranges->len == 1 && total == st->size && st->bad->len == 0)
    return link_into (st->path, out, error);
  return copy_ranges (st->path, out, ranges, error);
}

typedef struct
{
  guint first, last;   /* global unit indexes [first, last) */
  guint base;          /* the global index of the stream's first unit */
} Span;

static gboolean
take_span (const Stream *st, guint u, gpointer data)
{
  const Span *span = data;
  guint g = span->base + u;
  return g >= span->first && g < span->last;
}

/* Whether babeltrace2 indexes units [first, last) of the trace's streams, all together. */
static gboolean
probe_units (Probe *probe, GArray *streams, guint first, guint last)
{
  g_assert (probe->left > 0);
  probe->left--;
  probe->n_probes++;
  gboolean ok = TRUE;
  Span span = { first, last, 0 };
  for (guint i = 0; ok && i < streams->len; i++)
    {
      const Stream *st = &g_array_index (streams, Stream, i);
      ok = place_stream (st, probe->dir, take_span, &span, NULL, NULL);
      span.base += st->units->len;
    }
  if (!ok)
    return FALSE;
  const char *inputs[] = { probe->dir, NULL };
  JvmsCtfProbeResult result = jvms_ctf_prober_probe (probe->prober, inputs);
  if (result == JVMS_CTF_PROBE_HUNG && ++probe->n_hung >= MAX_HUNG_PROBES)
    probe->left = 0;
  return result == JVMS_CTF_PROBE_OK;
}

static UnitVerdict *
verdict (GArray *streams, guint g)
{
  for (guint i = 0; i < streams->len; i++)
    {
      Stream *st = &g_array_index (streams, Stream, i);
      if (g < st->units->len)
        return &g_array_index (st->verdicts, UnitVerdict, g);
      g -= st->units->len;
    }
  g_assert_not_reached ();
}

static void
set_verdicts (GArray *streams, guint first, guint last, UnitVerdict v)
{
  for (guint g = first; g < last; g++)
    *verdict (streams, g) = v;
}

/* Which units babeltrace2 accepts. Packets are indexed one by one, so a set of units is
 * accepted when each of them is: one probe of everything usually settles it; otherwise the
 * first refused unit is found by bisection, dropped, and the rest probed again. Units left
 * when the probes run out stay UNIT_UNKNOWN and are dropped. */
static void
judge_units (Probe *probe, GArray *streams, gboolean whole_known_bad)
{
  guint n = 0;
  for (guint i = 0; i < streams->len; i++)
    n += g_array_index (streams, Stream, i).units->len;
  guint pos = 0;
  gboolean rest_fails;
  if (n == 0)
    return;
  if (whole_known_bad)
    rest_fails = TRUE;
  else if (probe->left > 0)
    rest_fails = !probe_units (probe, streams, 0, n);
  else
    return;
  while (pos < n)
    {
      if (!rest_fails)
        {
          set_verdicts (streams, pos, n, UNIT_GOOD);
          return;
        }
      /* [pos, lo) is good, [pos, hi) is not. */
      guint lo = pos, hi = n;
      while (hi - lo > 1 && probe->left > 0)
        {
          guint mid = lo + (hi - lo) / 2;
          if (probe_units (probe, streams, pos, mid))
            lo = mid;
          else
            hi = mid;
        }
      set_verdicts (streams, pos, lo, UNIT_GOOD);
      if (hi - lo > 1)
        return;
      *verdict (streams, lo) = UNIT_BAD;
      pos = lo + 1;
      if (pos >= n || probe->left == 0)
        return;
      rest_fails = !probe_units (probe, streams, pos, n);
    }
}

/* ---- Results ---- */

static gboolean
take_good (const Stream *st, guint u, gpointer data)
{
  return g_array_index (st->verdicts, UnitVerdict, u) == UNIT_GOOD;
}

static gint
region_cmp (gconstpointer a, gconstpointer b)
{
  const Region *x = a, *y = b;
  return x->begin < y->begin ? -1 : x->begin > y->begin;
}

static char *
describe_bad (const Stream *st, guint64 kept, guint64 unchecked_from, const Probe *probe)
{
  g_autoptr(GArray) bad = g_array_new (FALSE, FALSE, sizeof (Region));
  g_array_append_vals (bad, st->bad->data, st->bad->len);
  for (guint u = 0; u < st->units->len; u++)
    if (g_array_index (st->verdicts, UnitVerdict, u) != UNIT_GOOD)
      g_array_append_val (bad, g_array_index (st->units, Region, u));
  g_array_sort (bad, region_cmp);
  g_autoptr(GArray) merged = g_array_new (FALSE, FALSE, sizeof (Region));
  for (guint i = 0; i < bad->len; i++)
    add_region (merged, g_array_index (bad, Region, i).begin, g_array_index (bad, Region, i).end);

  GString *s = g_string_new (NULL);
  g_string_append_printf (s, "%s: damaged stream file (%" G_GUINT64_FORMAT " bytes): no packet "
                          "babeltrace2 can index in bytes ", st->path, st->size);
  guint64 dropped = 0;
  for (guint i = 0; i < merged->len; i++)
    {
      const Region *r = &g_array_index (merged, Region, i);
      dropped += r->end - r->begin;
      if (i < MAX_BAD_REGIONS_REPORTED)
        g_string_append_printf (s, "%s[%" G_GUINT64_FORMAT ", %" G_GUINT64_FORMAT ")",
                                i > 0 ? ", " : "", r->begin, r->end);
    }
  if (merged->len > MAX_BAD_REGIONS_REPORTED)
    g_string_append_printf (s, " and %u more ranges", merged->len - MAX_BAD_REGIONS_REPORTED);
  g_string_append_printf (s, "; %" G_GUINT64_FORMAT " bytes dropped%s, the %" G_GUINT64_FORMAT
                          " bytes of whole packets around them kept",
                          dropped, st->size > 0 && dropped == st->size ? " (the whole file)" : "",
                          kept);
  if (unchecked_from != G_MAXUINT64 && probe->n_hung >= MAX_HUNG_PROBES)
    g_string_append_printf (s, "; the packets from byte %" G_GUINT64_FORMAT " on were dropped "
                            "unchecked: babeltrace2 did not finish indexing %u times (a packet "
                            "that declares a size of 0?), and the repair stops there",
                            unchecked_from, probe->n_hung);
  else if (unchecked_from != G_MAXUINT64)
    g_string_append_printf (s, "; the packets from byte %" G_GUINT64_FORMAT " on were dropped "
                            "unchecked: the repair asks babeltrace2 at most %u times",
                            unchecked_from, JVMS_CTF_REPAIR_MAX_PROBES);
  return g_string_free (s, FALSE);
}

/* Links trace @t's metadata and stream files into @root/trace<t>, damaged ones replaced by
 * their good packets; the folder goes to @outs. */
static gboolean
repair_one_trace (const char *dir, guint t, const char *why, const char *root, Probe *probe,
                  GStrvBuilder *outs, guint *n_damaged, GPtrArray *warnings, GError **error)
{
  g_autofree char *metadata = g_build_filename (dir, "metadata", NULL);
  char name_buf[32];

  g_snprintf (name_buf, sizeof name_buf, "probe%u", t);
  g_autofree char *probe_dir = g_build_filename (root, name_buf, NULL);
  probe->dir = probe_dir;
  g_autofree char *probe_metadata = g_build_filename (probe_dir, "metadata", NULL);
  if (g_mkdir (probe_dir, 0700) != 0 || !link_into (metadata, probe_metadata, error))
    return FALSE;

  /* The metadata alone first: if babeltrace2 refuses it, nothing can be salvaged. */
  const char *alone[] = { probe_dir, NULL };
  probe->n_probes++;
  JvmsCtfProbeResult metadata_result = jvms_ctf_prober_probe (probe->prober, alone);
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

  g_autoptr(JvmsCtfLayout) layout = trace_layout (dir);
  g_autoptr(GArray) streams = scan_trace (dir, layout, warnings);
  /* Without a layout, nothing was dropped yet: the same files babeltrace2 already refused. */
  gboolean dropped = FALSE;
  for (guint i = 0; i < streams->len; i++)
    dropped |= g_array_index (streams, Stream, i).bad->len > 0;
  judge_units (probe, streams, layout == NULL && !dropped);

  gboolean ok = TRUE;
  for (guint i = 0; ok && i < streams->len; i++)
    {
      const Stream *st = &g_array_index (streams, Stream, i);
      guint64 kept = 0, unchecked_from = G_MAXUINT64;
      gboolean damaged = st->bad->len > 0;
      for (guint u = 0; u < st->units->len; u++)
        {
          UnitVerdict v = g_array_index (st->verdicts, UnitVerdict, u);
          damaged |= v != UNIT_GOOD;
          if (v == UNIT_UNKNOWN && unchecked_from == G_MAXUINT64)
            unchecked_from = g_array_index (st->units, Region, u).begin;
        }
      ok = place_stream (st, out_dir, take_good, NULL, &kept, error);
      if (ok && damaged)
        {
          (*n_damaged)++;
          g_ptr_array_add (warnings, describe_bad (st, kept, unchecked_from, probe));
        }
      g_autofree char *in_probe = g_build_filename (probe_dir, st->name, NULL);
      g_unlink (in_probe);
    }
  if (ok)
    g_strv_builder_add (outs, out_dir);
  return ok;
}

gboolean
jvms_ctf_repair_traces (const char * const *inputs, const char *why, char **tmp_dir,
                        GStrv *repaired_inputs, GPtrArray *warnings, guint *n_probes,
                        GError **error)
{
  g_autofree char *root = g_dir_make_tmp ("jvmscope-ctf-XXXXXX", NULL);
  if (root == NULL)
    return FALSE;
  g_autoptr(GStrvBuilder) outs = g_strv_builder_new ();
  gboolean ok = TRUE;
  guint n_damaged = 0;
  Probe probe = { NULL, 0, JVMS_CTF_REPAIR_MAX_PROBES, 0, jvms_ctf_prober_new () };

  for (guint t = 0; ok && inputs[t] != NULL; t++)
    ok = repair_one_trace (inputs[t], t, why, root, &probe, outs, &n_damaged, warnings, error);
  jvms_ctf_prober_free (probe.prober);
  if (n_probes != NULL)
    *n_probes = probe.n_probes;

  if (ok && n_damaged == 0)
    {
      /* Every packet is fine, yet babeltrace2 refused the files together (streams that do
       * not fit one another): nothing to salvage here. */
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
