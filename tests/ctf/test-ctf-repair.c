/* The repair's work is bounded by a count of babeltrace2 probes, not by time: hostile stream
 * files (packets declaring a size of 0 or of one byte, garbage with fake packet signatures
 * between packets, a size past the end of the file, packets babeltrace2 refuses though they are
 * well-formed) are salvaged within JVMS_CTF_REPAIR_MAX_PROBES probes, with babeltrace2's own
 * reading of the packets kept as the oracle. */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "ctf-synthetic.h"
#include "ctf-test-util.h"
#include "jvms-ctf-layout.h"
#include "jvms-ctf-repair.h"

/* babeltrace2 2.0.4 leaks on its error paths (its bugs, not ours): its TSDL parser on a syntax
 * error, its ctf source the event it was decoding when the data ran out. LeakSanitizer reads
 * this hook in sanitized builds; nothing of ours is allocated through the ctf plugin. */
const char *__lsan_default_suppressions (void);
const char *
__lsan_default_suppressions (void)
{
  return "leak:yyparse\n"
         "leak:babeltrace-plugin-ctf.so\n";
}

#define STREAM "channel0_0"
/* The written trace's packets: 4096 bytes; the context's u64s (after magic, uuid, stream id):
 * timestamp_begin at 24, content_size at 40, packet_size at 48. */
#define PACKET 4096
#define TS_BEGIN_AT 24
#define CONTENT_AT 40
#define SIZE_AT 48

typedef struct
{
  char       *tmp;
  GByteArray *a;   /* CPU 0's first packet */
  GByteArray *b;   /* CPU 0's second packet */
} Fixture;

static void
fixture_setup (Fixture *f, gconstpointer data)
{
  f->tmp = ctf_test_tmp_dir ();
  g_autofree char *written = g_build_filename (f->tmp, "written", NULL);
  g_mkdir (written, 0700);
  ctf_synthetic_write (written);
  g_autofree char *stream = g_build_filename (written, STREAM, NULL);
  g_autofree char *contents = NULL;
  gsize len = 0;
  g_autoptr(GError) error = NULL;
  g_file_get_contents (stream, &contents, &len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (len, ==, 2 * PACKET);
  f->a = g_byte_array_new ();
  f->b = g_byte_array_new ();
  g_byte_array_append (f->a, (const guint8 *) contents, PACKET);
  g_byte_array_append (f->b, (const guint8 *) contents + PACKET, PACKET);
}

static void
fixture_teardown (Fixture *f, gconstpointer data)
{
  ctf_test_rm_rf (f->tmp);
  g_free (f->tmp);
  g_byte_array_unref (f->a);
  g_byte_array_unref (f->b);
}

static void
put64 (GByteArray *bytes, gsize at, guint64 v)
{
  guint64 le = GUINT64_TO_LE (v);
  memcpy (bytes->data + at, &le, 8);
}

/* A trace folder @name holding the synthetic metadata and @stream as CPU 0's only file. */
static char *
make_trace (Fixture *f, const char *name, GByteArray *stream)
{
  char *dir = g_build_filename (f->tmp, name, NULL);
  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  ctf_synthetic_write (dir);
  g_autofree char *other = g_build_filename (dir, "channel0_1", NULL);
  g_unlink (other);
  g_autofree char *path = g_build_filename (dir, STREAM, NULL);
  g_autoptr(GError) error = NULL;
  g_file_set_contents (path, (const char *) stream->data, (gssize) stream->len, &error);
  g_assert_no_error (error);
  return dir;
}

static void
append (GByteArray *to, GByteArray *packet)
{
  g_byte_array_append (to, packet->data, packet->len);
}

/* A packet header and context of @packet that declares @size_bits (content as much). */
static void
append_header_sized (GByteArray *to, GByteArray *packet, guint64 size_bits)
{
  g_autoptr(GByteArray) h = g_byte_array_new ();
  g_byte_array_append (h, packet->data, 64);
  put64 (h, CONTENT_AT, size_bits);
  put64 (h, SIZE_AT, size_bits);
  append (to, h);
}

/* Bytes that are no packet, with the packet signature (magic and uuid) inside. */
static void
append_garbage (GByteArray *to, GByteArray *packet, gsize len, guint32 seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  gsize start = to->len;
  for (gsize i = 0; i < len; i++)
    {
      guint8 c = (guint8) g_rand_int (rand);
      g_byte_array_append (to, &c, 1);
    }
  if (len >= 40)
    {
      memcpy (to->data + start + 8, packet->data, 20);   /* a fake signature... */
      memset (to->data + start + 28, 0xff, len - 28 > 12 ? 12 : len - 28); /* ...going nowhere */
    }
}

static void
assert_same_lines (GPtrArray *ours, GPtrArray *bt)
{
  g_assert_cmpuint (ours->len, ==, bt->len);
  for (guint i = 0; i < bt->len; i++)
    {
      const BtLine *o = g_ptr_array_index (ours, i);
      const BtLine *b = g_ptr_array_index (bt, i);
      g_assert_cmpstr (o->name, ==, b->name);
      g_assert_cmpint (o->time, ==, b->time);
    }
}

static gboolean
any_contains (GPtrArray *warnings, const char *text)
{
  for (guint i = 0; i < warnings->len; i++)
    if (strstr (g_ptr_array_index (warnings, i), text) != NULL)
      return TRUE;
  return FALSE;
}

typedef struct
{
  char      *tmp_dir;
  GStrv      repaired;
  GPtrArray *warnings;
  guint      n_probes;
} Repair;

static void
repair_clear (Repair *r)
{
  if (r->tmp_dir != NULL)
    jvms_ctf_repair_remove (r->tmp_dir);
  g_free (r->tmp_dir);
  g_strfreev (r->repaired);
  g_ptr_array_unref (r->warnings);
}

static void
repair (const char *trace, Repair *r)
{
  memset (r, 0, sizeof *r);
  r->warnings = g_ptr_array_new_with_free_func (g_free);
  const char *inputs[] = { trace, NULL };
  g_autoptr(GError) error = NULL;
  gboolean ok = jvms_ctf_repair_traces (inputs, "test", &r->tmp_dir, &r->repaired, r->warnings,
                                        &r->n_probes, &error);
  g_assert_no_error (error);
  g_assert_true (ok);
  g_assert_nonnull (r->repaired[0]);
}

/* Zero-size and one-byte packets (babeltrace2 would index them for ever), garbage holding fake
 * signatures, a size past the end: the walk drops all of it and babeltrace2 is asked once. */
static void
test_malformed_packets (Fixture *f, gconstpointer data)
{
  g_autoptr(GByteArray) s = g_byte_array_new ();
  append_garbage (s, f->a, 100, 1);
  append (s, f->a);
  for (guint i = 0; i < 50; i++)
    {
      append_header_sized (s, f->a, 0);
      append_header_sized (s, f->a, 8);
      append_garbage (s, f->a, 40 + i, i + 2);
    }
  append_garbage (s, f->a, 3000, 99);
  append (s, f->b);
  append_header_sized (s, f->b, (guint64) 1 << 40);
  g_autofree char *trace = make_trace (f, "damaged", s);

  g_autoptr(GByteArray) good = g_byte_array_new ();
  append (good, f->a);
  append (good, f->b);
  g_autofree char *oracle = make_trace (f, "oracle", good);
  int status = -1;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (oracle, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (bt->len, >, 0);

  /* Our walk sees the damage before babeltrace2 is shown the file. */
  const char *inputs[] = { trace, NULL };
  g_autofree char *damage = jvms_ctf_scan_damage (inputs);
  g_assert_nonnull (damage);
  g_assert_nonnull (strstr (damage, trace));

  Repair r;
  repair (trace, &r);
  /* The metadata alone, then every well-formed packet at once. */
  g_assert_cmpuint (r.n_probes, <=, 2);
  g_autoptr(GPtrArray) repaired = ctf_test_babeltrace_events (r.repaired[0], &status);
  g_assert_cmpint (status, ==, 0);
  assert_same_lines (repaired, bt);
  g_autofree char *first = g_strdup_printf ("[0, 100), [%u, ", 100 + PACKET);
  g_assert_true (any_contains (r.warnings, first));
  repair_clear (&r);

  /* And the reader as a whole, against babeltrace2's CLI (which goes through the muxer, as the
   * reader does). */
  g_autoptr(GPtrArray) cli = ctf_test_babeltrace_cli (oracle, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) warnings = NULL;
  g_autoptr(GPtrArray) ours = ctf_test_read_all (trace, JVMS_CTF_READER_NAMES_ONLY, &warnings,
                                                 &error);
  g_assert_no_error (error);
  /* The reader also delivers the second packet's discarded events, as one LOST event. */
  guint n_lost = 0, j = 0;
  for (guint i = 0; i < ours->len; i++)
    {
      const OurEvent *o = g_ptr_array_index (ours, i);
      if (o->event.type == JVMS_KERNEL_EVENT_LOST)
        {
          n_lost++;
          continue;
        }
      g_assert_cmpuint (j, <, cli->len);
      const BtLine *b = g_ptr_array_index (cli, j++);
      g_assert_cmpstr (o->name, ==, b->name);
      g_assert_cmpint (o->event.time, ==, b->time);
    }
  g_assert_cmpuint (j, ==, cli->len);
  g_assert_cmpuint (n_lost, ==, 1);
}

/* A packet whose timestamp_begin overflows the clock: well-formed, but babeltrace2 refuses to
 * index it. One such packet between good ones is found by bisection; the good ones stay. */
static void
test_refused_packet (Fixture *f, gconstpointer data)
{
  g_autoptr(GByteArray) refused = g_byte_array_new ();
  append (refused, f->a);
  put64 (refused, TS_BEGIN_AT, G_MAXUINT64 - 15);
  g_autoptr(GByteArray) s = g_byte_array_new ();
  append (s, f->a);
  append (s, refused);
  append (s, f->b);
  g_autofree char *trace = make_trace (f, "damaged", s);
  int status = 0;
  g_autoptr(GPtrArray) none = ctf_test_babeltrace_events (trace, &status);
  g_assert_cmpint (status, !=, 0);

  g_autoptr(GByteArray) good = g_byte_array_new ();
  append (good, f->a);
  append (good, f->b);
  g_autofree char *oracle = make_trace (f, "oracle", good);
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (oracle, &status);
  g_assert_cmpint (status, ==, 0);

  Repair r;
  repair (trace, &r);
  g_assert_cmpuint (r.n_probes, <=, 1 + JVMS_CTF_REPAIR_MAX_PROBES);
  g_autoptr(GPtrArray) repaired = ctf_test_babeltrace_events (r.repaired[0], &status);
  g_assert_cmpint (status, ==, 0);
  assert_same_lines (repaired, bt);
  g_autofree char *range = g_strdup_printf ("[%u, %u)", PACKET, 2 * PACKET);
  g_assert_true (any_contains (r.warnings, range));
  repair_clear (&r);
}

/* Sixty refused packets: more than the probes allow. The repair stops at its bound, keeps the
 * packets it checked, says what it dropped unchecked, and does the same on every run. */
static void
test_probe_bound (Fixture *f, gconstpointer data)
{
  g_autoptr(GByteArray) refused = g_byte_array_new ();
  append (refused, f->a);
  put64 (refused, TS_BEGIN_AT, G_MAXUINT64 - 15);
  g_autoptr(GByteArray) s = g_byte_array_new ();
  append (s, f->a);
  for (guint i = 0; i < 60; i++)
    append (s, refused);
  append (s, f->b);
  g_autofree char *trace = make_trace (f, "damaged", s);

  g_autoptr(GByteArray) good = g_byte_array_new ();
  append (good, f->a);
  g_autofree char *oracle = make_trace (f, "oracle", good);
  int status = -1;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (oracle, &status);
  g_assert_cmpint (status, ==, 0);

  Repair r1, r2;
  repair (trace, &r1);
  repair (trace, &r2);
  g_test_message ("%u babeltrace2 probes", r1.n_probes);
  g_assert_cmpuint (r1.n_probes, <=, 1 + JVMS_CTF_REPAIR_MAX_PROBES);
  g_assert_cmpuint (r1.n_probes, ==, r2.n_probes);
  g_assert_cmpuint (r1.warnings->len, ==, r2.warnings->len);
  for (guint i = 0; i < r1.warnings->len; i++)
    {
      /* The same words about the same bytes (the paths differ only in the temporary folder). */
      const char *w1 = strstr (g_ptr_array_index (r1.warnings, i), ": damaged");
      const char *w2 = strstr (g_ptr_array_index (r2.warnings, i), ": damaged");
      g_assert_cmpstr (w1, ==, w2);
    }
  g_assert_true (any_contains (r1.warnings, "dropped unchecked"));
  /* What was kept is what babeltrace2 reads of the packets before the first refused one. */
  g_autoptr(GPtrArray) repaired = ctf_test_babeltrace_events (r1.repaired[0], &status);
  g_assert_cmpint (status, ==, 0);
  assert_same_lines (repaired, bt);
  repair_clear (&r1);
  repair_clear (&r2);
}

/* The synthetic packet @p with a 4-byte float inserted in its context after timestamp_end (at
 * 40): content_size and packet_size move to 44 and 52. */
static GByteArray *
with_float (const guint8 *p, gsize len)
{
  GByteArray *n = g_byte_array_new ();
  static const guint8 one[4] = { 0, 0, 0x80, 0x3f };
  g_byte_array_append (n, p, 40);
  g_byte_array_append (n, one, 4);
  g_byte_array_append (n, p + 40, (guint) (len - 40));
  guint64 content;
  memcpy (&content, n->data + 44, 8);
  put64 (n, 44, GUINT64_FROM_LE (content) + 32);
  put64 (n, 52, (guint64) n->len * 8);
  return n;
}

/* Metadata whose packet context the layout reader cannot size (a float before the sizes):
 * the repair cuts at the magic and lets babeltrace2 judge, and packets declaring a size of 0
 * make its probes time out. The repair stops after MAX_HUNG_PROBES such probes instead of
 * waiting out each probe of the bisection. */
static void
test_no_layout_hangs (Fixture *f, gconstpointer data)
{
  g_autoptr(GByteArray) a = with_float (f->a->data, f->a->len);
  g_autoptr(GByteArray) b = with_float (f->b->data, f->b->len);
  g_autoptr(GByteArray) zero = g_byte_array_new ();
  g_byte_array_append (zero, a->data, 72);
  put64 (zero, 44, 0);
  put64 (zero, 52, 0);
  g_autoptr(GByteArray) s = g_byte_array_new ();
  append (s, a);
  append (s, zero);
  append (s, b);
  append (s, zero);
  g_autofree char *trace = make_trace (f, "damaged", s);
  g_autofree char *oracle = make_trace (f, "oracle", a);

  g_autofree char *metadata_path = g_build_filename (trace, "metadata", NULL);
  g_autofree char *metadata = NULL;
  g_autoptr(GError) error = NULL;
  g_file_get_contents (metadata_path, &metadata, NULL, &error);
  g_assert_no_error (error);
  const char *at = "uint64_clock_t timestamp_end;";
  char *end = strstr (metadata, at);
  g_assert_nonnull (end);
  end += strlen (at);
  g_autofree char *patched = g_strdup_printf ("%.*s floating_point { exp_dig = 8; mant_dig = 24; "
                                              "align = 8; } load;%s", (int) (end - metadata),
                                              metadata, end);
  g_assert_null (jvms_ctf_layout_parse (patched));
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *dir = g_build_filename (f->tmp, i == 0 ? "damaged" : "oracle", "metadata", NULL);
      g_file_set_contents (dir, patched, -1, &error);
      g_assert_no_error (error);
    }
  int status = -1;
  g_autoptr(GPtrArray) bt = ctf_test_babeltrace_events (oracle, &status);
  g_assert_cmpint (status, ==, 0);
  g_assert_cmpuint (bt->len, >, 0);

  Repair r;
  repair (trace, &r);
  /* The metadata; then A+Z (hangs), A (good), B+Z (hangs): the end. */
  g_assert_cmpuint (r.n_probes, <=, 4);
  g_autoptr(GPtrArray) repaired = ctf_test_babeltrace_events (r.repaired[0], &status);
  g_assert_cmpint (status, ==, 0);
  assert_same_lines (repaired, bt);
  g_assert_true (any_contains (r.warnings, "did not finish indexing 2 times"));
  repair_clear (&r);
}

/* The layout read from the real LTTng metadata walks its stream files to their ends: no
 * damage seen in the intact trace, and a cut copy's damage named with its file. */
static void
test_walk_real_trace (void)
{
  const char *inputs[] = { ctf_test_trace_dir ("scp_src"), NULL };
  g_autofree char *damage = jvms_ctf_scan_damage (inputs);
  g_assert_null (damage);

  g_autofree char *tmp = ctf_test_tmp_dir ();
  g_autofree char *copy = ctf_test_copy_trace (inputs[0], tmp, "trace");
  g_autofree char *stream = g_build_filename (copy, STREAM, NULL);
  g_autoptr(GArray) starts = ctf_test_packet_starts (stream);
  g_assert_cmpuint (starts->len, >=, 3);
  gsize cut = g_array_index (starts, gsize, 2) + 100;
  g_assert_cmpint (truncate (stream, (off_t) cut), ==, 0);
  const char *cut_inputs[] = { copy, NULL };
  g_autofree char *cut_damage = jvms_ctf_scan_damage (cut_inputs);
  g_assert_nonnull (cut_damage);
  g_autofree char *range = g_strdup_printf ("%s: bytes [%" G_GSIZE_FORMAT ", %" G_GSIZE_FORMAT ")",
                                            stream, g_array_index (starts, gsize, 2), cut);
  g_assert_nonnull (strstr (cut_damage, range));
  ctf_test_rm_rf (tmp);
}

/* TSDL the walk must not misread: a field it cannot size before packet_size leaves the layout
 * unknown rather than wrong. */
static void
test_layout_unknown (void)
{
  static const char tsdl[] =
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
    "trace { major = 1; minor = 8; byte_order = le;\n"
    "  packet.header := struct { uint32_t magic; uint32_t stream_id; }; };\n"
    "stream { id = 0; packet.context := struct { string name; uint64_t content_size;\n"
    "  uint64_t packet_size; }; };\n";
  JvmsCtfLayout *layout = jvms_ctf_layout_parse (tsdl);
  g_assert_null (layout);

  static const char sized[] =
    "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
    "typealias integer { size = 64; align = 32; signed = false; byte_order = be; } := uint64_t;\n"
    "trace { major = 1; minor = 8; byte_order = le;\n"
    "  packet.header := struct { uint32_t magic; integer { size = 3; } bits; }; };\n"
    "stream { packet.context := struct { uint64_t content_size; uint64_t packet_size; }; };\n";
  layout = jvms_ctf_layout_parse (sized);
  g_assert_nonnull (layout);
  const JvmsCtfStreamLayout *s = jvms_ctf_layout_stream (layout, 0);
  g_assert_nonnull (s);
  /* 32 bits of magic, 3 of bits, then aligned to 32 for the big-endian u64s. */
  g_assert_cmpuint (s->content_size_bit, ==, 64);
  g_assert_cmpuint (s->packet_size_bit, ==, 128);
  g_assert_true (s->packet_size_be);
  g_assert_false (layout->magic_be);
  jvms_ctf_layout_free (layout);
}

/* Hostile TSDL: the layout reader runs before babeltrace2 has seen the metadata, so deep
 * nesting must not recurse without end, huge arrays must not overflow, and text with too many
 * tokens is left to babeltrace2 instead of tokenized into unbounded memory. */
static void
test_layout_hostile (void)
{
  static const char head[] =
    "typealias integer { size = 8; align = 8; signed = false; } := u8;\n"
    "typealias integer { size = 64; align = 8; signed = false; } := u64;\n"
    "trace { byte_order = le; packet.header := struct { u8 magic; }; };\n";
  GString *deep = g_string_new (head);
  for (guint i = 0; i < 20000; i++)
    g_string_append (deep, "struct { ");
  g_string_append (deep, "u8 x; ");
  for (guint i = 0; i < 20000; i++)
    g_string_append (deep, "} f; ");
  for (guint i = 0; i < 20000; i++)
    g_string_append (deep, "enum : ");
  g_string_append (deep, "u8 { a }; stream { packet.context := struct { u64 content_size; "
                         "u64 packet_size; }; };\n");
  JvmsCtfLayout *layout = jvms_ctf_layout_parse (deep->str);
  /* Whatever it makes of the nesting, the stream's sizes after it are where they are. */
  g_assert_nonnull (layout);
  g_assert_cmpuint (jvms_ctf_layout_stream (layout, 0)->packet_size_bit, ==, 8 + 64);
  jvms_ctf_layout_free (layout);
  g_string_free (deep, TRUE);

  g_autofree char *arrays = g_strdup_printf ("%s stream { packet.context := struct { "
                                             "u64 a[1048576][1048576][1048576][1048576]; "
                                             "u64 content_size; u64 packet_size; }; };", head);
  g_assert_null (jvms_ctf_layout_parse (arrays));

  GString *many = g_string_new (head);
  for (guint i = 0; i < 300000; i++)
    g_string_append (many, "; ;");
  g_string_append (many, "stream { packet.context := struct { u64 content_size; u64 packet_size; }; };");
  g_assert_null (jvms_ctf_layout_parse (many->str));
  g_string_free (many, TRUE);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, fn) g_test_add (path, Fixture, NULL, fixture_setup, fn, fixture_teardown)
  ADD ("/ctf/repair/malformed-packets", test_malformed_packets);
  ADD ("/ctf/repair/refused-packet", test_refused_packet);
  ADD ("/ctf/repair/probe-bound", test_probe_bound);
  ADD ("/ctf/repair/no-layout-hangs", test_no_layout_hangs);
#undef ADD
  g_test_add_func ("/ctf/repair/walk-real-trace", test_walk_real_trace);
  g_test_add_func ("/ctf/repair/layout-unknown", test_layout_unknown);
  g_test_add_func ("/ctf/repair/layout-hostile", test_layout_hostile);
  return g_test_run ();
}
