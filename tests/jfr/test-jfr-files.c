/* Tests of readers/jfr on real recordings given on the command line (plain or gzipped):
 *
 *   /jfr/files/read/N      time order across chunks, each event exactly once, every field of
 *                          every event readable, threads and class names well formed;
 *   /jfr/files/truncate/N  the file cut at many offsets: exactly the events of the records
 *                          that end before the cut, in file order, and a warning naming the
 *                          offset; or, before the metadata is complete, an error;
 *   /jfr/files/flip/N      random byte flips: no crash, no hang (the sanitized build watches).
 *
 * Usage: test-jfr-files [GTest options] FILE...
 */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "jvms-jfr.h"

typedef struct
{
  char   *name;
  GBytes *bytes;
} Input;

static GPtrArray *inputs;

static GBytes *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GInputStream) in = G_INPUT_STREAM (g_file_read (file, NULL, &error));
  g_assert_no_error (error);
  g_autoptr(GInputStream) stream = NULL;
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GZlibDecompressor) gz = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      stream = g_converter_input_stream_new (in, G_CONVERTER (gz));
    }
  else
    stream = g_object_ref (in);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  g_output_stream_splice (out, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error);
  g_assert_no_error (error);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* Record size at @offset: the first varint of the record. */
static guint64
record_size (const guint8 *data, gsize len, guint64 offset)
{
  guint64 v = 0;
  for (int i = 0; i < 9 && offset + i < len; i++)
    {
      guint8 b = data[offset + i];
      if (i == 8)
        return v | ((guint64) b << 56);
      v |= (guint64) (b & 0x7f) << (7 * i);
      if (b < 0x80)
        return v;
    }
  return v;
}

typedef struct
{
  guint64 offset;
  guint64 end;
} Rec;

/* Every event in file order, as (offset, end). */
static GArray *
file_order (JvmsJfrFile *file, const guint8 *data, gsize len)
{
  GArray *a = g_array_new (FALSE, FALSE, sizeof (Rec));
  g_autoptr(JvmsJfrReader) r = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_FILE);
  const JvmsJfrEvent *e;
  while ((e = jvms_jfr_reader_next (r)) != NULL)
    {
      Rec rec;
      rec.offset = jvms_jfr_event_get_file_offset (e);
      rec.end = rec.offset + record_size (data, len, rec.offset);
      g_array_append_val (a, rec);
    }
  return a;
}

static int
cmp_u64 (gconstpointer a, gconstpointer b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static guint64 touched;

static void
touch_value (const JvmsJfrValue *v, guint depth);

static void
touch_object (const JvmsJfrObject *o, guint depth)
{
  /* deeper levels repeat the same constants (class → package → module → loader…) */
  if (depth > 3)
    return;
  for (guint i = 0; i < jvms_jfr_type_get_n_fields (o->type); i++)
    {
      JvmsJfrValue v;
      if (jvms_jfr_object_get_value (o, jvms_jfr_type_get_field (o->type, i), &v))
        touch_value (&v, depth + 1);
    }
}

static void
touch_value (const JvmsJfrValue *v, guint depth)
{
  touched++;
  if (v->kind == JVMS_JFR_VALUE_OBJECT)
    touch_object (&v->object, depth);
  else if (v->kind == JVMS_JFR_VALUE_ARRAY)
    {
      JvmsJfrArrayIter it;
      JvmsJfrValue el;
      jvms_jfr_array_iter_init (&it, v);
      while (jvms_jfr_array_iter_next (&it, &el))
        touch_value (&el, depth + 1);
    }
  else if (v->kind == JVMS_JFR_VALUE_STRING)
    g_assert_true (g_utf8_validate (v->s, -1, NULL));
}

static void
test_read (gconstpointer data)
{
  const Input *input = data;
  gsize len;
  const guint8 *bytes = g_bytes_get_data (input->bytes, &len);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (input->bytes, input->name, &error);
  g_assert_no_error (error);
  gboolean clean = jvms_jfr_file_get_warnings (file)->len == 0;

  g_autoptr(GArray) in_file = file_order (file, bytes, len);
  g_assert_cmpuint (in_file->len, >, 0);

  g_autoptr(GArray) offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(JvmsJfrReader) r = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_TIME);
  const JvmsJfrEvent *e;
  gint64 last = G_MININT64;
  guint64 failed_fields = 0, threads = 0, stacks = 0, frames = 0;
  while ((e = jvms_jfr_reader_next (r)) != NULL)
    {
      gint64 start = jvms_jfr_event_get_start_ns (e);
      g_assert_cmpint (start, >=, last);
      last = start;
      g_assert_cmpint (jvms_jfr_event_get_end_ns (e), >=, start);
      guint64 off = jvms_jfr_event_get_file_offset (e);
      g_array_append_val (offsets, off);

      JvmsJfrObject o;
      jvms_jfr_event_get_object (e, &o);
      for (guint i = 0; i < jvms_jfr_type_get_n_fields (o.type); i++)
        {
          JvmsJfrValue v;
          if (!jvms_jfr_object_get_value (&o, jvms_jfr_type_get_field (o.type, i), &v))
            failed_fields++;
          else
            touch_value (&v, 0);
        }
      const JvmsJfrThread *t = jvms_jfr_event_get_thread (e);
      if (t != NULL)
        {
          threads++;
          g_assert_true (t->os_name != NULL || t->java_name != NULL);
        }
      const JvmsJfrStackTrace *st = jvms_jfr_event_get_stack_trace (e);
      if (st != NULL)
        {
          stacks++;
          for (guint f = 0; f < st->n_frames; f++)
            {
              frames++;
              if (st->frames[f].class_name != NULL)
                g_assert_null (strchr (st->frames[f].class_name, '/'));
            }
        }
    }
  if (clean)
    g_assert_cmpuint (failed_fields, ==, 0);

  /* each event once: the same multiset of records in both orders */
  g_assert_cmpuint (offsets->len, ==, in_file->len);
  g_autoptr(GArray) expected = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint i = 0; i < in_file->len; i++)
    g_array_append_val (expected, g_array_index (in_file, Rec, i).offset);
  g_array_sort (offsets, cmp_u64);
  g_array_sort (expected, cmp_u64);
  for (guint i = 0; i < offsets->len; i++)
    {
      g_assert_cmpuint (g_array_index (offsets, guint64, i), ==, g_array_index (expected, guint64, i));
      if (i > 0)
        g_assert_cmpuint (g_array_index (offsets, guint64, i), !=, g_array_index (offsets, guint64, i - 1));
    }
  g_test_message ("%s: %u events, %" G_GUINT64_FORMAT " values, %" G_GUINT64_FORMAT " with a thread, %" G_GUINT64_FORMAT " stack traces (%" G_GUINT64_FORMAT " frames), %u chunks",
                  input->name, offsets->len, touched, threads, stacks, frames,
                  jvms_jfr_file_get_n_chunks (file));
}

static void
assert_same_value (const JvmsJfrValue *a, const JvmsJfrValue *b)
{
  g_assert_cmpint (a->kind, ==, b->kind);
  /* two files: two sets of types, with the same names */
  g_assert_cmpstr (a->type ? jvms_jfr_type_get_name (a->type) : NULL, ==,
                   b->type ? jvms_jfr_type_get_name (b->type) : NULL);
  g_assert_cmpint (a->from_pool, ==, b->from_pool);
  g_assert_cmpuint (a->pool_key, ==, b->pool_key);
  switch (a->kind)
    {
    case JVMS_JFR_VALUE_BOOLEAN: g_assert_cmpint (a->b, ==, b->b); break;
    case JVMS_JFR_VALUE_INTEGER: g_assert_cmpuint (a->u, ==, b->u); g_assert_cmpint (a->i, ==, b->i); break;
    case JVMS_JFR_VALUE_FLOAT: g_assert_true (memcmp (&a->d, &b->d, sizeof a->d) == 0); break;
    case JVMS_JFR_VALUE_STRING: g_assert_cmpstr (a->s, ==, b->s); break;
    case JVMS_JFR_VALUE_ARRAY: g_assert_cmpuint (a->array.length, ==, b->array.length); break;
    case JVMS_JFR_VALUE_OBJECT:
      {
        const JvmsJfrThread *ta = NULL, *tb = NULL;
        const JvmsJfrStackTrace *sa = NULL, *sb = NULL;
        const char *na = NULL, *nb = NULL;
        g_assert_cmpint (jvms_jfr_value_get_thread (a, &ta), ==, jvms_jfr_value_get_thread (b, &tb));
        if (ta != NULL)
          {
            g_assert_cmpint (ta->os_thread_id, ==, tb->os_thread_id);
            g_assert_cmpstr (ta->java_name, ==, tb->java_name);
          }
        g_assert_cmpint (jvms_jfr_value_get_stack_trace (a, &sa), ==, jvms_jfr_value_get_stack_trace (b, &sb));
        if (sa != NULL)
          {
            g_assert_cmpuint (sa->n_frames, ==, sb->n_frames);
            for (guint f = 0; f < sa->n_frames; f++)
              {
                g_assert_cmpstr (sa->frames[f].method_name, ==, sb->frames[f].method_name);
                g_assert_cmpint (sa->frames[f].line_number, ==, sb->frames[f].line_number);
              }
          }
        g_assert_cmpint (jvms_jfr_value_get_class_name (a, &na), ==, jvms_jfr_value_get_class_name (b, &nb));
        g_assert_cmpstr (na, ==, nb);
        g_assert_cmpint (jvms_jfr_value_get_string (a, &na), ==, jvms_jfr_value_get_string (b, &nb));
        g_assert_cmpstr (na, ==, nb);
        break;
      }
    case JVMS_JFR_VALUE_NULL:
    default:
      break;
    }
}

/* The file read from disk (chunks copied into the reader's buffers) gives the same events as
 * the same bytes in memory, and jvms_jfr_event_get_values() the same values as one
 * jvms_jfr_object_get_value() call per field. */
static void
test_from_disk (gconstpointer data)
{
  const Input *input = data;
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("jvms-jfr-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *path = g_build_filename (dir, input->name, NULL);
  gsize len;
  const guint8 *bytes = g_bytes_get_data (input->bytes, &len);
  g_file_set_contents (path, (const char *) bytes, (gssize) len, &error);
  g_assert_no_error (error);

  g_autoptr(JvmsJfrFile) mem = jvms_jfr_file_open_bytes (input->bytes, input->name, &error);
  g_assert_no_error (error);
  g_autoptr(JvmsJfrFile) disk = jvms_jfr_file_open (path, &error);
  g_assert_no_error (error);
  g_autoptr(JvmsJfrReader) a = jvms_jfr_reader_new (mem, JVMS_JFR_ORDER_TIME);
  g_autoptr(JvmsJfrReader) b = jvms_jfr_reader_new (disk, JVMS_JFR_ORDER_TIME);
  const JvmsJfrEvent *ea, *eb;
  guint64 n = 0, values = 0;
  g_autofree JvmsJfrValue *vb = g_new0 (JvmsJfrValue, 1);
  guint vb_cap = 1;
  while ((ea = jvms_jfr_reader_next (a)) != NULL)
    {
      eb = jvms_jfr_reader_next (b);
      g_assert_nonnull (eb);
      g_assert_cmpuint (jvms_jfr_event_get_file_offset (ea), ==, jvms_jfr_event_get_file_offset (eb));
      g_assert_cmpint (jvms_jfr_event_get_start_ns (ea), ==, jvms_jfr_event_get_start_ns (eb));
      g_assert_cmpint (jvms_jfr_event_get_end_ns (ea), ==, jvms_jfr_event_get_end_ns (eb));
      g_assert_cmpstr (jvms_jfr_event_get_type_name (ea), ==, jvms_jfr_event_get_type_name (eb));
      const JvmsJfrType *type = jvms_jfr_event_get_type (ea);
      guint nf = jvms_jfr_type_get_n_fields (type);
      if (nf > vb_cap)
        {
          vb_cap = nf;
          vb = g_renew (JvmsJfrValue, vb, vb_cap);
        }
      guint good = jvms_jfr_event_get_values (eb, vb, nf);
      JvmsJfrObject o;
      jvms_jfr_event_get_object (ea, &o);
      for (guint i = 0; i < nf; i++)
        {
          JvmsJfrValue va;
          gboolean ok = jvms_jfr_object_get_value (&o, jvms_jfr_type_get_field (o.type, i), &va);
          g_assert_cmpint (ok, ==, i < good);
          if (ok)
            assert_same_value (&va, &vb[i]);
          else
            g_assert_cmpint (vb[i].kind, ==, JVMS_JFR_VALUE_NULL);
          values++;
        }
      n++;
    }
  g_assert_null (jvms_jfr_reader_next (b));
  g_assert_cmpuint (jvms_jfr_file_get_warnings (mem)->len, ==, jvms_jfr_file_get_warnings (disk)->len);
  g_unlink (path);
  g_rmdir (dir);
  g_test_message ("%s: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT " values equal from disk and from memory",
                  input->name, n, values);
}

static gboolean
warning_names (JvmsJfrFile *file, guint64 offset)
{
  g_autofree char *needle = g_strdup_printf ("ends at %" G_GUINT64_FORMAT, offset);
  const GPtrArray *w = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < w->len; i++)
    if (strstr (((const JvmsJfrWarning *) g_ptr_array_index (w, i))->message, needle) != NULL)
      return TRUE;
  return FALSE;
}

/* Where the first chunk's metadata event ends: before it nothing is decodable, so a cut there
 * may fail to open. The chunk header holds the metadata offset (big-endian u64 at 24); the
 * event starts with its size as a compressed integer (7 bits a byte, low first). */
static guint64
first_metadata_end (const Input *input, guint64 chunk_offset)
{
  gsize len;
  const guint8 *data = g_bytes_get_data (input->bytes, &len);
  if (chunk_offset + 32 > len)
    return len;
  guint64 meta = 0;
  for (guint i = 0; i < 8; i++)
    meta = meta << 8 | data[chunk_offset + 24 + i];
  guint64 at = chunk_offset + meta, size = 0;
  for (guint i = 0; i < 9 && at + i < len; i++)
    {
      guint8 b = data[at + i];
      if (i == 8)
        {
          size |= (guint64) b << 56;
          break;
        }
      size |= (guint64) (b & 0x7f) << (7 * i);
      if ((b & 0x80) == 0)
        break;
    }
  return MIN (at + size, (guint64) len);
}

static void
check_cut (const Input *input, JvmsJfrFile *full, GArray *all, guint64 cut, guint *failed_opens)
{
  gsize len;
  const guint8 *bytes = g_bytes_get_data (input->bytes, &len);
  g_autoptr(GBytes) prefix = g_bytes_new_from_bytes (input->bytes, 0, cut);
  g_autofree char *name = g_strdup_printf ("%s[cut %" G_GUINT64_FORMAT "]", input->name, cut);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (prefix, name, &error);

  /* where the cut falls: inside chunk k, or exactly at its end */
  gboolean at_boundary = FALSE;
  const JvmsJfrChunkInfo *first = jvms_jfr_file_get_chunk (full, 0);
  for (guint c = 0; c < jvms_jfr_file_get_n_chunks (full); c++)
    {
      const JvmsJfrChunkInfo *info = jvms_jfr_file_get_chunk (full, c);
      if (info->file_offset + info->size == cut)
        at_boundary = TRUE;
    }

  if (file == NULL)
    {
      /* only allowed while the first chunk's metadata is incomplete */
      g_assert_nonnull (error);
      g_assert_true (error->domain == JVMS_JFR_ERROR);
      g_assert_nonnull (strstr (error->message, input->name));
      if (cut >= first_metadata_end (input, first->file_offset))
        g_error ("%s: cut at %" G_GUINT64_FORMAT " (chunk of %" G_GUINT64_FORMAT " bytes) fails: %s",
                 input->name, cut, first->size, error->message);
      (*failed_opens)++;
      return;
    }

  g_autoptr(GArray) got = file_order (file, g_bytes_get_data (prefix, NULL), cut);
  guint n_expected = 0;
  for (guint i = 0; i < all->len; i++)
    if (g_array_index (all, Rec, i).end <= cut)
      n_expected++;
  /* a prefix of the full read: exactly the complete records, in the same order */
  g_assert_cmpuint (got->len, ==, n_expected);
  for (guint i = 0, k = 0; i < all->len; i++)
    {
      const Rec *r = &g_array_index (all, Rec, i);
      if (r->end > cut)
        continue;
      g_assert_cmpuint (g_array_index (got, Rec, k).offset, ==, r->offset);
      k++;
    }
  if (!at_boundary && cut < len)
    {
      if (!warning_names (file, cut))
        {
          const GPtrArray *w = jvms_jfr_file_get_warnings (file);
          for (guint i = 0; i < w->len; i++)
            g_printerr ("%s\n", ((const JvmsJfrWarning *) g_ptr_array_index (w, i))->message);
          g_error ("%s: no warning names the cut at %" G_GUINT64_FORMAT, input->name, cut);
        }
    }
  (void) bytes;
}

static void
test_truncate (gconstpointer data)
{
  const Input *input = data;
  gsize len;
  const guint8 *bytes = g_bytes_get_data (input->bytes, &len);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) full = jvms_jfr_file_open_bytes (input->bytes, input->name, &error);
  g_assert_no_error (error);
  g_autoptr(GArray) all = file_order (full, bytes, len);

  /* evenly spread cuts, the first and last bytes, and cuts right before and after the end
   * of some records */
  guint failed_opens = 0, cuts = 0;
  /* fewer cuts on big files: each cut reads the whole prefix again */
  const guint n_even = len > 1024 * 1024 ? 16 : 40;
  for (guint i = 1; i <= n_even; i++)
    {
      check_cut (input, full, all, (guint64) len * i / (n_even + 1), &failed_opens);
      cuts++;
    }
  guint64 edge[] = { 1, 4, 67, 68, 69, len - 1 };
  for (gsize i = 0; i < G_N_ELEMENTS (edge); i++)
    if (edge[i] > 0 && edge[i] < len)
      {
        check_cut (input, full, all, edge[i], &failed_opens);
        cuts++;
      }
  for (guint i = 0; i < all->len; i += MAX (1, all->len / (len > 1024 * 1024 ? 6 : 15)))
    {
      const Rec *r = &g_array_index (all, Rec, i);
      check_cut (input, full, all, r->end, &failed_opens);
      check_cut (input, full, all, r->end - 1, &failed_opens);
      cuts += 2;
    }
  g_test_message ("%s: %u cuts, %u before the metadata was complete", input->name, cuts, failed_opens);
}

static void
test_flip (gconstpointer data)
{
  const Input *input = data;
  gsize len;
  const guint8 *bytes = g_bytes_get_data (input->bytes, &len);
  /* big inputs cost time under the sanitizers: flip within the first 2 MB */
  gsize span = MIN (len, (gsize) 2 * 1024 * 1024);
  GRand *rand = g_rand_new_with_seed (0x4a4652);
  guint iterations = len > 1024 * 1024 ? 12 : 40, opened = 0;
  for (guint it = 0; it < iterations; it++)
    {
      guint8 *copy = g_memdup2 (bytes, span);
      guint flips = 1 + g_rand_int_range (rand, 0, 16);
      for (guint f = 0; f < flips; f++)
        copy[g_rand_int_range (rand, 0, (gint32) span)] ^= (guint8) (1 + g_rand_int_range (rand, 0, 255));
      g_autoptr(GBytes) b = g_bytes_new_take (copy, span);
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (b, input->name, &error);
      if (file == NULL)
        {
          g_assert_nonnull (error);
          continue;
        }
      opened++;
      g_autoptr(JvmsJfrReader) r = jvms_jfr_reader_new (file, JVMS_JFR_ORDER_TIME);
      const JvmsJfrEvent *e;
      while ((e = jvms_jfr_reader_next (r)) != NULL)
        {
          JvmsJfrObject o;
          jvms_jfr_event_get_object (e, &o);
          touch_object (&o, 0);
          jvms_jfr_event_get_thread (e);
          jvms_jfr_event_get_stack_trace (e);
        }
    }
  g_rand_free (rand);
  g_test_message ("%s: %u flipped copies, %u opened", input->name, iterations, opened);
}

static void
input_free (gpointer p)
{
  Input *in = p;
  g_free (in->name);
  g_bytes_unref (in->bytes);
  g_free (in);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  inputs = g_ptr_array_new_with_free_func (input_free);
  for (int i = 1; i < argc; i++)
    {
      Input *in = g_new0 (Input, 1);
      in->name = g_path_get_basename (argv[i]);
      in->bytes = load (argv[i]);
      g_ptr_array_add (inputs, in);
      g_autofree char *p1 = g_strdup_printf ("/jfr/files/read/%s", in->name);
      g_autofree char *p2 = g_strdup_printf ("/jfr/files/truncate/%s", in->name);
      g_autofree char *p3 = g_strdup_printf ("/jfr/files/flip/%s", in->name);
      g_autofree char *p4 = g_strdup_printf ("/jfr/files/disk/%s", in->name);
      g_test_add_data_func (p1, in, test_read);
      g_test_add_data_func (p2, in, test_truncate);
      g_test_add_data_func (p3, in, test_flip);
      g_test_add_data_func (p4, in, test_from_disk);
    }
  if (inputs->len == 0)
    {
      g_printerr ("usage: test-jfr-files [GTest options] FILE...\n");
      return 2;
    }
  int status = g_test_run ();
  g_ptr_array_unref (inputs);
  return status;
}
