/* fuzz-jfr: the JFR reader (readers/jfr) as a libFuzzer target.
 *
 * With -Dfuzzing=true (clang) this is a libFuzzer binary:
 *   fuzz-jfr --write-corpus DIR FILE.jfr[.gz]...   is not available there; make the seed
 *   corpus with the regression build below (fuzz-jfr-regress --write-corpus DIR FILES…).
 * Without it, the same entry point is linked with a small driver (fuzz-jfr-regress) that the
 * test suite runs on mutated and truncated seeds, so the target keeps working and the inputs
 * that once crashed stay covered.
 */
#include <gio/gio.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "jfr-mutator.h"
#include "jfr-shapes.h"
#include "jfr-writer.h"
#include "jvms-jfr.h"

static void touch_value (const JvmsJfrValue *v, guint depth);

static void
touch_object (const JvmsJfrObject *o, guint depth)
{
  /* constants nest deeply (stack trace → frames → method → class → package → module →
   * loader → class…): a shallow walk keeps each input fast, the reader's own decoding of
   * threads and stack traces below covers the deep ones */
  if (depth > 2)
    return;
  for (guint i = 0; i < jvms_jfr_type_get_n_fields (o->type); i++)
    {
      const JvmsJfrField *f = jvms_jfr_type_get_field (o->type, i);
      JvmsJfrValue v;
      const char *s;
      gint64 ns;
      const JvmsJfrThread *t;
      const JvmsJfrStackTrace *st;
      if (jvms_jfr_object_get_value (o, f, &v))
        touch_value (&v, depth + 1);
      jvms_jfr_object_get_string (o, f, &s);
      jvms_jfr_object_get_class_name (o, f, &s);
      jvms_jfr_object_get_time_ns (o, f, &ns);
      jvms_jfr_object_get_thread (o, f, &t);
      jvms_jfr_object_get_stack_trace (o, f, &st);
    }
}

static void
touch_value (const JvmsJfrValue *v, guint depth)
{
  if (v->kind == JVMS_JFR_VALUE_OBJECT)
    touch_object (&v->object, depth);
  else if (v->kind == JVMS_JFR_VALUE_ARRAY)
    {
      JvmsJfrArrayIter it;
      JvmsJfrValue el;
      guint n = 0;
      jvms_jfr_array_iter_init (&it, v);
      while (n++ < 64 && jvms_jfr_array_iter_next (&it, &el))
        touch_value (&el, depth + 1);
    }
  else if (v->kind == JVMS_JFR_VALUE_STRING && !g_utf8_validate (v->s, -1, NULL))
    g_error ("invalid UTF-8 from the reader");
}

int LLVMFuzzerTestOneInput (const guint8 *data, size_t size);

int
LLVMFuzzerTestOneInput (const guint8 *data, size_t size)
{
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "fuzz.jfr", NULL);
  if (file == NULL)
    return 0;
  for (guint c = 0; c < jvms_jfr_file_get_n_chunks (file); c++)
    for (guint i = 0; i < jvms_jfr_file_get_n_types (file, c); i++)
      {
        const JvmsJfrType *t = jvms_jfr_file_get_type (file, c, i);
        jvms_jfr_type_get_label (t);
        jvms_jfr_type_get_category (t);
      }
  for (int order = 0; order < 2; order++)
    {
      g_autoptr(JvmsJfrReader) r = jvms_jfr_reader_new (file, order ? JVMS_JFR_ORDER_FILE : JVMS_JFR_ORDER_TIME);
      const JvmsJfrEvent *e;
      while ((e = jvms_jfr_reader_next (r)) != NULL)
        {
          JvmsJfrObject o;
          jvms_jfr_event_get_object (e, &o);
          if (order == 0)
            touch_object (&o, 0);
          jvms_jfr_event_get_thread (e);
          jvms_jfr_event_get_stack_trace (e);
          jvms_jfr_event_get_end_ns (e);
        }
    }
  return 0;
}

#ifdef JVMS_LIBFUZZER

size_t LLVMFuzzerMutate (uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed);

/* Half of the mutations libFuzzer's own, half structural (jfr-mutator.c): well-formed files
 * with one extreme property are what random bytes rarely make. */
size_t
LLVMFuzzerCustomMutator (uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
  if (seed % 2 == 0)
    return LLVMFuzzerMutate (data, size, max_size);
  return jfr_mutate (data, size, max_size, seed / 2, LLVMFuzzerMutate);
}

#else

static GBytes *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) f = g_file_new_for_path (path);
  g_autoptr(GInputStream) in = G_INPUT_STREAM (g_file_read (f, NULL, &error));
  if (in == NULL)
    g_error ("%s", error->message);
  g_autoptr(GInputStream) stream = NULL;
  if (g_str_has_suffix (path, ".gz"))
    {
      g_autoptr(GZlibDecompressor) gz = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP);
      stream = g_converter_input_stream_new (in, G_CONVERTER (gz));
    }
  else
    stream = g_object_ref (in);
  g_autoptr(GOutputStream) out = g_memory_output_stream_new_resizable ();
  if (g_output_stream_splice (out, stream, G_OUTPUT_STREAM_SPLICE_CLOSE_TARGET, NULL, &error) < 0)
    g_error ("%s", error->message);
  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (out));
}

/* The shapes of issue 28 (jfr-shapes.c), small enough for the fuzzer's 1 MiB inputs. */
typedef struct
{
  const char *name;
  GBytes     *bytes;
} Shape;

static void
shape_free (gpointer p)
{
  Shape *sh = p;
  g_bytes_unref (sh->bytes);
  g_free (sh);
}

static void
add_shape (GPtrArray *list, const char *name, GBytes *bytes)
{
  Shape *sh = g_new (Shape, 1);
  sh->name = name;
  sh->bytes = bytes;
  g_ptr_array_add (list, sh);
}

static GPtrArray *
shapes (void)
{
  GPtrArray *list = g_ptr_array_new_with_free_func (shape_free);
  add_shape (list, "shape-dag-empty.jfr", jfr_shape_dag (25, 3, FALSE, FALSE, TRUE, TRUE, 3));
  add_shape (list, "shape-dag-int.jfr", jfr_shape_dag (25, 3, TRUE, FALSE, TRUE, TRUE, 3));
  add_shape (list, "shape-dag-reversed.jfr", jfr_shape_dag (25, 3, FALSE, TRUE, TRUE, TRUE, 3));
  add_shape (list, "shape-chain-33.jfr", jfr_shape_dag (33, 1, TRUE, TRUE, FALSE, TRUE, 3));
  add_shape (list, "shape-self-reference.jfr", jfr_shape_constants (3, 0, 3));
  add_shape (list, "shape-constant-dag.jfr", jfr_shape_constants (3, 31, 3));
  add_shape (list, "shape-many-chunks.jfr", jfr_shape_many_chunks (1000, FALSE, FALSE));
  add_shape (list, "shape-distinct-metadata.jfr", jfr_shape_many_chunks (400, TRUE, TRUE));
  add_shape (list, "shape-tiny-elements.jfr", jfr_shape_tiny_elements (100000, 3));
  add_shape (list, "shape-plain.jfr", jfr_shape_plain (3, 50));
  return list;
}

/* A byte mutator for the structural mutator outside libFuzzer: a few random bytes changed. */
static GRand *flip_rand;

static gsize
flip_bytes (guint8 *data, gsize size, gsize max_size)
{
  guint flips = 1 + (guint) g_rand_int_range (flip_rand, 0, 8);
  for (guint f = 0; f < flips && size > 0; f++)
    data[g_rand_int_range (flip_rand, 0, (gint32) MIN (size, (gsize) G_MAXINT32))] = (guint8) g_rand_int_range (flip_rand, 0, 256);
  return size;
}

/* @data and 40 structural mutations of it, each from the one before, through the entry point. */
static guint
run_mutated (const guint8 *data, gsize size)
{
  gsize max = MAX (size * 2, (gsize) 4096);
  guint8 *buf = g_malloc (max);
  memcpy (buf, data, size);
  gsize len = size;
  for (guint k = 0; k < 40; k++)
    {
      len = jfr_mutate (buf, len, max, (guint) g_rand_int (flip_rand), flip_bytes);
      LLVMFuzzerTestOneInput (buf, len);
    }
  g_free (buf);
  return 40;
}

/* fuzz-jfr-regress FILE…: each file whole, cut at 40 offsets, with 40 sets of random byte
 * flips and 40 structural mutations (jfr-mutator.c; fixed seeds), through the fuzz entry point;
 * then the shapes of issue 28 and their mutations. Prints TAP.
 * fuzz-jfr-regress --write-corpus DIR FILE…: writes the decompressed files and the shapes as
 * seeds. */
int
main (int argc, char **argv)
{
  flip_rand = g_rand_new_with_seed (20261128);
  if (argc > 2 && strcmp (argv[1], "--write-corpus") == 0)
    {
      g_mkdir_with_parents (argv[2], 0755);
      g_autoptr(GPtrArray) list = shapes ();
      for (guint i = 0; i < list->len; i++)
        {
          const Shape *sh = g_ptr_array_index (list, i);
          g_autofree char *out = g_build_filename (argv[2], sh->name, NULL);
          g_autoptr(GError) error = NULL;
          if (!g_file_set_contents (out, g_bytes_get_data (sh->bytes, NULL), (gssize) g_bytes_get_size (sh->bytes), &error))
            g_error ("%s", error->message);
        }
      for (int i = 3; i < argc; i++)
        {
          g_autoptr(GBytes) b = load (argv[i]);
          g_autofree char *base = g_path_get_basename (argv[i]);
          if (g_str_has_suffix (base, ".gz"))
            base[strlen (base) - 3] = '\0';
          g_autofree char *out = g_build_filename (argv[2], base, NULL);
          g_autoptr(GError) error = NULL;
          if (!g_file_set_contents (out, g_bytes_get_data (b, NULL), (gssize) g_bytes_get_size (b), &error))
            g_error ("%s", error->message);
        }
      return 0;
    }
  GRand *rand = g_rand_new_with_seed (20261124);
  printf ("1..%d\n", argc);
  for (int i = 1; i < argc; i++)
    {
      g_autoptr(GBytes) b = load (argv[i]);
      gsize size;
      const guint8 *data = g_bytes_get_data (b, &size);
      guint runs = 0;
      LLVMFuzzerTestOneInput (data, size);
      runs++;
      for (guint k = 1; k <= 40; k++)
        {
          LLVMFuzzerTestOneInput (data, size * k / 41);
          runs++;
        }
      for (guint k = 0; k < 40; k++)
        {
          guint8 *copy = g_memdup2 (data, size);
          guint flips = 1 + g_rand_int_range (rand, 0, 32);
          for (guint f = 0; f < flips && size > 0; f++)
            copy[g_rand_int_range (rand, 0, (gint32) MIN (size, (gsize) G_MAXINT32))] = (guint8) g_rand_int_range (rand, 0, 256);
          LLVMFuzzerTestOneInput (copy, size);
          g_free (copy);
          runs++;
        }
      runs += run_mutated (data, size);
      printf ("ok %d - %s: %u inputs through the fuzz entry point\n", i, argv[i], runs);
    }
  g_autoptr(GPtrArray) list = shapes ();
  guint runs = 0;
  for (guint i = 0; i < list->len; i++)
    {
      const Shape *sh = g_ptr_array_index (list, i);
      gsize size;
      const guint8 *data = g_bytes_get_data (sh->bytes, &size);
      LLVMFuzzerTestOneInput (data, size);
      runs += 1 + run_mutated (data, size);
    }
  /* records without payload (a metadata record among them): on one, the mutator itself once
   * did arithmetic on a NULL pointer (found by fuzz-jfr under UBSan) */
  {
    guint8 empty[68 + 6] = { 'F', 'L', 'R', 0, 0, 2, 0, 1 };
    empty[15] = sizeof empty;                      /* chunk size */
    empty[31] = 68;                                /* metadata offset */
    empty[63] = 1;                                 /* 1 tick per second */
    const guint8 records[6] = { 2, 0, 2, 1, 2, 20 };   /* metadata, checkpoint, event: size 2 */
    memcpy (empty + 68, records, sizeof records);
    runs += run_mutated (empty, sizeof empty);
  }
  /* an attribute naming a string beyond the table: the mutator's lookups once read past it
   * (found by fuzz-jfr under ASan) */
  {
    JfrW md = { g_byte_array_new () };
    jfrw_varint (&md, 0);
    jfrw_varint (&md, 0);
    jfrw_varint (&md, 1);              /* startTime, duration, metadataId */
    jfrw_varint (&md, 3);
    jfrw_utf8 (&md, "root");
    jfrw_utf8 (&md, "metadata");
    jfrw_utf8 (&md, "class");
    jfrw_varint (&md, 0); jfrw_varint (&md, 0); jfrw_varint (&md, 1);      /* root */
    jfrw_varint (&md, 1); jfrw_varint (&md, 0); jfrw_varint (&md, 1);      /* metadata */
    jfrw_varint (&md, 2); jfrw_varint (&md, 1);                            /* class, */
    jfrw_varint (&md, 999); jfrw_varint (&md, 999); jfrw_varint (&md, 0);  /* key 999 */
    JfrW w = { g_byte_array_new () };
    JfrChunkW c = { .start_nanos = 1, .start_ticks = 1 };
    jfrw_chunk_begin (&w, &c);
    jfrw_chunk_record (&w, &c, 0, md.b);
    jfrw_chunk_end (&w, &c);
    runs += run_mutated (w.b->data, w.b->len);
    g_byte_array_unref (md.b);
    g_byte_array_unref (w.b);
  }
  printf ("ok %d - the %u shapes of issue 28, records without payload, an attribute beyond the strings: %u inputs through the fuzz entry point\n",
          argc, list->len, runs);
  g_rand_free (rand);
  g_rand_free (flip_rand);
  return 0;
}

#endif
