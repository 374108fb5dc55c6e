/* Tests of readers/jfr on well-formed files with one extreme property each (issue 28), built
 * byte by byte by jfr-shapes.c: a file that shrinks while it is read, inline classes that
 * form a DAG, many chunks, metadata of millions of tiny elements. Each case runs in a
 * subprocess, so that a signal fails the test instead of ending the program; the subprocess's
 * time limit only turns a hang into a failure. Work is counted with the reader's own count of
 * decoding steps (jvms_jfr_work_steps); memory with the peak resident set, in the plain build
 * only (sanitizers keep freed memory in quarantine). */
#include <string.h>
#include <unistd.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "hostile-util.h"
#include "jfr-shapes.h"
#include "jvms-jfr.h"

static gboolean
any_warning_contains (JvmsJfrFile *file, const char *needle, const char *also)
{
  const GPtrArray *w = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < w->len; i++)
    {
      const char *m = ((const JvmsJfrWarning *) g_ptr_array_index (w, i))->message;
      if (strstr (m, needle) != NULL && (also == NULL || strstr (m, also) != NULL))
        return TRUE;
    }
  return FALSE;
}

static void
print_warnings (JvmsJfrFile *file)
{
  const GPtrArray *w = jvms_jfr_file_get_warnings (file);
  for (guint i = 0; i < w->len; i++)
    g_printerr ("# warning: %s\n", ((const JvmsJfrWarning *) g_ptr_array_index (w, i))->message);
}

/* ---- 2: a file that shrinks while it is read ---- */

#define SHRINK_CHUNKS 4
#define SHRINK_EVENTS 2000

/* Reads the first event, cuts the file inside chunk 1, reads on. Before the fix, the load of
 * chunk 1 fell back to the mapping after its short read and touched pages past the new end
 * (SIGBUS). Now: every event of chunk 0, none of the chunks that are gone, and a warning that
 * names the file and says it shrank. */
static void
shrink_case (JvmsJfrOrder order)
{
  g_autoptr(GBytes) bytes = jfr_shape_plain (SHRINK_CHUNKS, SHRINK_EVENTS);
  g_autofree char *path = hostile_write_temp (bytes, "shrinking.jfr");
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (jvms_jfr_file_get_n_chunks (file), ==, SHRINK_CHUNKS);
  guint64 chunk1 = jvms_jfr_file_get_chunk (file, 1)->file_offset;
  g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, order);
  const JvmsJfrEvent *e = jvms_jfr_reader_next (reader);
  g_assert_nonnull (e);
  g_assert_cmpuint (jvms_jfr_event_get_chunk (e)->index, ==, 0);
  /* cut 100 bytes into chunk 1: its metadata record is cut, no event of it is whole */
  g_assert_cmpint (truncate (path, (off_t) chunk1 + 100), ==, 0);
  guint per_chunk[SHRINK_CHUNKS] = { 1 };
  while ((e = jvms_jfr_reader_next (reader)) != NULL)
    per_chunk[jvms_jfr_event_get_chunk (e)->index]++;
  print_warnings (file);
  g_assert_cmpuint (per_chunk[0], ==, SHRINK_EVENTS);
  for (guint k = 1; k < SHRINK_CHUNKS; k++)
    g_assert_cmpuint (per_chunk[k], ==, 0);
  g_assert_true (any_warning_contains (file, path, "the file shrank while being read"));
  g_assert_false (jvms_jfr_file_get_chunk (file, 1)->complete);
  hostile_remove_temp (path);
}

static void
test_shrink (void)
{
  HOSTILE_IN_SUBPROCESS ();
  shrink_case (JVMS_JFR_ORDER_FILE);
  shrink_case (JVMS_JFR_ORDER_TIME);
}

/* ---- reading everything ---- */

/* Every event in @order, each field read, its thread and stack resolved; returns the number of
 * events, and of those of type @name in *n_named. */
static guint64
read_all (JvmsJfrFile *file, JvmsJfrOrder order, const char *name, guint64 *n_named)
{
  g_autoptr(JvmsJfrReader) reader = jvms_jfr_reader_new (file, order);
  const JvmsJfrEvent *e;
  guint64 n = 0;
  *n_named = 0;
  while ((e = jvms_jfr_reader_next (reader)) != NULL)
    {
      n++;
      const JvmsJfrType *type = jvms_jfr_event_get_type (e);
      if (strcmp (jvms_jfr_type_get_name (type), name) == 0)
        (*n_named)++;
      guint nf = jvms_jfr_type_get_n_fields (type);
      g_autofree JvmsJfrValue *values = g_new (JvmsJfrValue, MAX (nf, 1));
      jvms_jfr_event_get_values (e, values, nf);
      JvmsJfrObject o;
      jvms_jfr_event_get_object (e, &o);
      for (guint i = 0; i < nf; i++)
        {
          JvmsJfrValue v;
          if (jvms_jfr_object_get_value (&o, jvms_jfr_type_get_field (type, i), &v)
              && v.kind == JVMS_JFR_VALUE_OBJECT)
            for (guint k = 0; k < jvms_jfr_type_get_n_fields (v.type); k++)
              {
                JvmsJfrValue inner;
                jvms_jfr_object_get_value (&v.object, jvms_jfr_type_get_field (v.type, k), &inner);
              }
        }
      jvms_jfr_event_get_thread (e);
      jvms_jfr_event_get_stack_trace (e);
    }
  return n;
}

/* ---- 4: inline classes that form a DAG ---- */

/* Decoding steps allowed per byte of input: a decode walks each byte at most once per level of
 * inline nesting (32), plus the metadata's strings and elements. */
#define STEPS_PER_BYTE 64

static void
assert_steps_per_byte (guint64 before, gsize size, guint per_byte, const char *what)
{
  guint64 steps = jvms_jfr_work_steps () - before;
  /* on stderr: a subprocess's test messages are not shown */
  g_printerr ("# %s: %" G_GUINT64_FORMAT " decoding steps for %" G_GSIZE_FORMAT " bytes\n",
              what, steps, size);
  g_assert_cmpuint (steps, <=, (guint64) per_byte * size);
}

static void
assert_steps (guint64 before, gsize size, const char *what)
{
  assert_steps_per_byte (before, size, STEPS_PER_BYTE, what);
}

/* 25 levels of classes, each holding three of the next inline, the last holding nothing: a
 * value of the top class takes no byte and 3^24 steps to skip. In a constant pool and before
 * an event's startTime it hung open, summary, print, index and analyze. Now the metadata is
 * refused, naming the field; in either order of declaration. */
static void
test_dag_empty (void)
{
  HOSTILE_IN_SUBPROCESS ();
  for (int reversed = 0; reversed < 2; reversed++)
    {
      g_autoptr(GBytes) bytes = jfr_shape_dag (25, 3, FALSE, reversed, TRUE, TRUE, 3);
      guint64 before = jvms_jfr_work_steps ();
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "dag.jfr", &error);
      g_assert_null (file);
      g_assert_error (error, JVMS_JFR_ERROR, JVMS_JFR_ERROR_CORRUPT);
      g_printerr ("# %s\n", error->message);
      g_assert_nonnull (strstr (error->message, "dag.jfr: chunk 0: metadata record at offset"));
      g_assert_nonnull (strstr (error->message, "holds class test.D0 inline, which takes no byte"));
      assert_steps (before, g_bytes_get_size (bytes), "empty DAG");
    }
}

/* The same DAG with an int in the last class: a value of the top class would take 3^24 bytes.
 * The file opens; the constant of that class is cut short (warned), the events holding it are
 * shorter than their type and skipped with a warning, the plain events are all read; work in
 * proportion to the bytes. Before, the test.Dag events were delivered, each a damaged read. */
static void
test_dag_bytes (void)
{
  HOSTILE_IN_SUBPROCESS ();
  g_autoptr(GBytes) bytes = jfr_shape_dag (25, 3, TRUE, FALSE, TRUE, TRUE, 3);
  guint64 before = jvms_jfr_work_steps ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "dag-int.jfr", &error);
  g_assert_no_error (error);
  for (int order = 0; order < 2; order++)
    {
      guint64 n_dag;
      guint64 n = read_all (file, order ? JVMS_JFR_ORDER_FILE : JVMS_JFR_ORDER_TIME, "test.Dag", &n_dag);
      g_assert_cmpuint (n_dag, ==, 0);
      g_assert_cmpuint (n, ==, 3);
    }
  print_warnings (file);
  g_assert_true (any_warning_contains (file, "dag-int.jfr: chunk 0: event at offset",
                                       "3 records of test.Dag (this one first) are shorter than the 282429536482 bytes"));
  g_assert_true (any_warning_contains (file, "dag-int.jfr", "in the test.D24 pool is cut short or damaged"));
  assert_steps (before, g_bytes_get_size (bytes), "DAG with bytes");
}

/* Inline nesting deeper than 32 levels is refused whatever the order the classes are declared
 * in. Declared bottom-up (the event class last), a chain of 33 passed: each class's height was
 * remembered from the first visit and never checked again. */
static void
test_nesting_order (void)
{
  for (int reversed = 0; reversed < 2; reversed++)
    for (guint levels = 32; levels <= 33; levels++)
      {
        g_autoptr(GBytes) bytes = jfr_shape_dag (levels, 1, TRUE, reversed, FALSE, TRUE, 3);
        g_autoptr(GError) error = NULL;
        g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "chain.jfr", &error);
        g_test_message ("%u levels, %s: %s", levels, reversed ? "bottom-up" : "top-down",
                        error ? error->message : "opens");
        if (levels <= 32)
          {
            g_assert_no_error (error);
            guint64 n_dag;
            g_assert_cmpuint (read_all (file, JVMS_JFR_ORDER_TIME, "test.Dag", &n_dag), ==, 6);
            g_assert_cmpuint (n_dag, ==, 3);
          }
        else
          {
            g_assert_null (file);
            g_assert_nonnull (strstr (error->message, "chain.jfr: chunk 0: metadata record"));
            g_assert_nonnull (strstr (error->message, "nests too deeply"));
          }
      }
}

/* ---- 6: many chunks ---- */

/* 20,000 chunks, sharing one metadata or each with its own: duplicate chunks and shared metadata
 * are found by hash, so the work (chunk and metadata keys compared included) grows with the
 * chunks, not with their square (before, 2·10^8 comparisons of chunk keys). */
static void
test_many_chunks (void)
{
  HOSTILE_IN_SUBPROCESS ();
  for (int distinct = 0; distinct < 2; distinct++)
    {
      guint n_chunks = 20000;
      g_autoptr(GBytes) bytes = jfr_shape_many_chunks (n_chunks, distinct, FALSE);
      guint64 before = jvms_jfr_work_steps ();
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open_bytes (bytes, "chunks.jfr", &error);
      g_assert_no_error (error);
      g_assert_cmpuint (jvms_jfr_file_get_n_chunks (file), ==, n_chunks);
      guint64 n_plain;
      g_assert_cmpuint (read_all (file, JVMS_JFR_ORDER_FILE, "test.Plain", &n_plain), ==, n_chunks);
      g_assert_cmpuint (read_all (file, JVMS_JFR_ORDER_TIME, "test.Plain", &n_plain), ==, n_chunks);
      g_assert_cmpuint (jvms_jfr_file_get_warnings (file)->len, ==, 0);
      /* about a step per 8 bytes here; a comparison with every earlier chunk would be 10^4
       * per chunk */
      assert_steps_per_byte (before, g_bytes_get_size (bytes), 1,
                             distinct ? "distinct metadata" : "shared metadata");
    }
}

/* A class id of 65000 in each of 2,000 distinct metadata records: the table of ids below 65536
 * stays in proportion to the classes (before, 512 KiB per record: 1 GiB). */
static void
test_high_class_ids (void)
{
  HOSTILE_IN_SUBPROCESS ();
  g_autoptr(GBytes) bytes = jfr_shape_many_chunks (2000, TRUE, TRUE);
  g_autofree char *path = hostile_write_temp (bytes, "high-ids.jfr");
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open (path, &error);
  g_assert_no_error (error);
  guint64 n_plain;
  g_assert_cmpuint (read_all (file, JVMS_JFR_ORDER_TIME, "test.Plain", &n_plain), ==, 2000);
  hostile_remove_temp (path);
  hostile_assert_peak_rss (256, "2,000 metadata records with a class id of 65000");
}

/* ---- 10: memory of metadata ---- */

/* 2 million elements of three bytes beside a valid type table (6 MB): only the elements the
 * format gives a meaning are kept, in a flat array, so the peak stays near the file's size
 * (before: 298 MB, three allocations per element). The limits on classes and elements refuse
 * what would cost more, naming the limit. */
static void
test_tiny_elements (void)
{
  HOSTILE_IN_SUBPROCESS ();
  g_autoptr(GBytes) bytes = jfr_shape_tiny_elements (2000000, 3);
  g_autofree char *path = hostile_write_temp (bytes, "tiny.jfr");
  g_clear_pointer (&bytes, g_bytes_unref);
  guint64 before = jvms_jfr_work_steps ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsJfrFile) file = jvms_jfr_file_open (path, &error);
  g_assert_no_error (error);
  guint64 n_plain;
  g_assert_cmpuint (read_all (file, JVMS_JFR_ORDER_TIME, "test.Plain", &n_plain), ==, 3);
  g_assert_cmpuint (n_plain, ==, 3);
  assert_steps (before, 6000000, "tiny elements");
  hostile_remove_temp (path);
  hostile_assert_peak_rss (64, "2 million tiny metadata elements (6 MB)");
}

/* ---- 5: print --json of constants that refer to each other ---- */

/* Output of `jvmscope-cli print --json` beyond this fails the test (and stops the program). */
#define PRINT_CAP ((gsize) 128 << 20)

typedef struct
{
  GByteArray *out;
  char       *err;
  int         status;
} CliRun;

static void
cli_run_clear (CliRun *run)
{
  g_clear_pointer (&run->out, g_byte_array_unref);
  g_clear_pointer (&run->err, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliRun, cli_run_clear)

/* Runs the command-line program (JVMS_CLI, set by meson) on @path; its output is read as it
 * comes and the program killed when it passes PRINT_CAP. */
static void
print_json (const char *path, CliRun *run)
{
  const char *cli = g_getenv ("JVMS_CLI");
  g_assert_nonnull (cli);
  g_autoptr(GError) error = NULL;
  g_autoptr(GSubprocess) proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                                  &error, cli, "print", "--json", path, NULL);
  g_assert_no_error (error);
  GInputStream *out = g_subprocess_get_stdout_pipe (proc);
  run->out = g_byte_array_new ();
  guint8 buffer[65536];
  gssize n;
  while ((n = g_input_stream_read (out, buffer, sizeof buffer, NULL, &error)) > 0)
    {
      g_byte_array_append (run->out, buffer, (guint) n);
      if (run->out->len > PRINT_CAP)
        {
          g_subprocess_force_exit (proc);
          g_error ("print --json %s: more than %zu bytes of output", path, PRINT_CAP);
        }
    }
  g_assert_no_error (error);
  g_autoptr(GBytes) err = NULL;
  g_subprocess_communicate (proc, NULL, NULL, NULL, &err, &error);
  g_assert_no_error (error);
  run->err = g_bytes_get_size (err) > 0 ? g_strndup (g_bytes_get_data (err, NULL), g_bytes_get_size (err))
                                         : g_strdup ("");
  g_assert_true (g_subprocess_get_if_exited (proc));
  run->status = g_subprocess_get_exit_status (proc);
  g_printerr ("# print --json %s: exit %d, %u bytes, stderr: %s\n", path, run->status,
              run->out->len, run->err);
}

/* The events of a print --json output, checked to be valid JSON. */
static JsonArray *
json_events (JsonParser *parser, const CliRun *run)
{
  g_autoptr(GError) error = NULL;
  json_parser_load_from_data (parser, (const char *) run->out->data, run->out->len, &error);
  g_assert_no_error (error);
  JsonObject *recording = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                                         "recording");
  return json_object_get_array_member (recording, "events");
}

/* A constant whose three fields all refer to itself: the JDK prints the inner references as
 * null (a cycle); so does print now, instead of 3^32 values. Constants 1 … 31, each referring
 * three times to the one below: no cycle, 3^31 values in full (gigabytes before); now each
 * event stops at the limit of values per event, with a warning naming the file, the limit and
 * the events cut, and exit status 3. */
static void
test_print_bound (void)
{
  HOSTILE_IN_SUBPROCESS ();
  {
    g_autoptr(GBytes) bytes = jfr_shape_constants (3, 0, 3);
    g_autofree char *path = hostile_write_temp (bytes, "cycle.jfr");
    g_auto(CliRun) run = { 0 };
    print_json (path, &run);
    g_assert_cmpint (run.status, ==, 0);
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonArray *events = json_events (parser, &run);
    g_assert_cmpuint (json_array_get_length (events), ==, 3);
    for (guint i = 0; i < 3; i++)
      {
        JsonObject *node = json_object_get_object_member (
          json_object_get_object_member (json_array_get_object_element (events, i), "values"), "node");
        g_assert_cmpuint (json_object_get_size (node), ==, 3);
        g_assert_true (json_object_get_null_member (node, "n0"));
        g_assert_true (json_object_get_null_member (node, "n2"));
      }
    hostile_remove_temp (path);
  }
  {
    g_autoptr(GBytes) bytes = jfr_shape_constants (3, 31, 3);
    g_autofree char *path = hostile_write_temp (bytes, "constant-dag.jfr");
    g_auto(CliRun) run = { 0 };
    print_json (path, &run);
    g_assert_cmpint (run.status, ==, 3);
    g_assert_nonnull (strstr (run.err, "constant-dag.jfr: 3 events printed only their first 100000 values"));
    g_assert_nonnull (strstr (run.err, "test.Ref at offset"));
    /* 100,000 values of about 100 bytes (the indentation of 32 levels) per event */
    g_assert_cmpuint (run.out->len, <=, (gsize) 3 * (16 << 20));
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_assert_cmpuint (json_array_get_length (json_events (parser, &run)), ==, 3);
    hostile_remove_temp (path);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/jfr/hostile/shrink", test_shrink);
  g_test_add_func ("/jfr/hostile/dag-empty", test_dag_empty);
  g_test_add_func ("/jfr/hostile/dag-bytes", test_dag_bytes);
  g_test_add_func ("/jfr/hostile/nesting-order", test_nesting_order);
  g_test_add_func ("/jfr/hostile/many-chunks", test_many_chunks);
  g_test_add_func ("/jfr/hostile/high-class-ids", test_high_class_ids);
  g_test_add_func ("/jfr/hostile/tiny-elements", test_tiny_elements);
  g_test_add_func ("/jfr/hostile/print-bound", test_print_bound);
  return g_test_run ();
}
