/* test-ctf-hostile.c: CTF traces with one extreme property each (issue 28): metadata declaring
 * tens of thousands of event classes. Each case runs in a subprocess (a signal fails the test;
 * the time limit only turns a hang into a failure); memory is the peak resident set, checked in
 * the plain build only (the sanitizers hold freed memory and add their shadow). The probes'
 * CPU-time budget is lifted (JVMS_CTF_PROBE_TIMEOUT_MS in meson.build): the result must not
 * depend on how much CPU babeltrace2 needs on this machine. */
#include <string.h>

#include "ctf-synthetic.h"
#include "ctf-test-util.h"
#include "hostile-util.h"
#include "jvms-ctf-layout.h"
#include "jvms-ctf-repair.h"

/* The synthetic trace (7 event classes) with extra classes no event uses, up to the limit: read
 * exactly as without them. babeltrace2 parses the metadata in the graph and again for the time
 * range; done one after the other, the two copies are never held at once. */
static void
test_classes_at_limit (void)
{
  HOSTILE_IN_SUBPROCESS ();
  g_autofree char *tmp = ctf_test_tmp_dir ();
  g_autofree char *plain = g_build_filename (tmp, "plain", NULL);
  g_autofree char *many = g_build_filename (tmp, "many", NULL);
  g_mkdir_with_parents (plain, 0755);
  g_mkdir_with_parents (many, 0755);
  ctf_synthetic_write (plain);
  ctf_synthetic_write_with_classes (many, JVMS_CTF_MAX_EVENT_CLASSES - 7);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) expected = ctf_test_read_all (plain, JVMS_CTF_READER_DEFAULT, NULL, &error);
  g_assert_no_error (error);
  g_autoptr(GPtrArray) events = ctf_test_read_all (many, JVMS_CTF_READER_DEFAULT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (events->len, ==, expected->len);
  for (guint i = 0; i < events->len; i++)
    {
      const OurEvent *a = g_ptr_array_index (events, i), *b = g_ptr_array_index (expected, i);
      g_assert_cmpstr (a->name, ==, b->name);
      g_assert_cmpint (a->event.time, ==, b->event.time);
    }
  ctf_test_rm_rf (tmp);
  hostile_assert_peak_rss (80, "8,192 event classes");
}

/* 20,000 event classes (1.8 MB of TSDL): babeltrace2 held about 230 MB for them (7 KB a class,
 * in each of its parses) and took seconds of CPU. Now they are counted in the text before
 * babeltrace2 sees it, and the open fails naming the file and the limit. */
static void
test_too_many_classes (void)
{
  HOSTILE_IN_SUBPROCESS ();
  g_autofree char *tmp = ctf_test_tmp_dir ();
  ctf_synthetic_write_with_classes (tmp, 20000);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) events = ctf_test_read_all (tmp, JVMS_CTF_READER_DEFAULT, NULL, &error);
  g_assert_null (events);
  g_assert_error (error, JVMS_CTF_ERROR, JVMS_CTF_ERROR_METADATA);
  g_printerr ("# %s\n", error->message);
  g_autofree char *expected = g_strdup_printf ("%s/metadata: the metadata declares 20007 event classes, more than the limit of 8192",
                                               tmp);
  g_assert_nonnull (strstr (error->message, expected));
  ctf_test_rm_rf (tmp);
  hostile_assert_peak_rss (64, "20,007 event classes");
}

/* The count skips what is not a top-level event block. */
static void
test_count_classes (void)
{
  g_assert_cmpuint (jvms_ctf_tsdl_event_classes (
    "/* event { } */ trace { event_header := struct { }; };\n"
    "// event {\n"
    "stream { event.header := struct { uint32_t id; }; };\n"
    "env { s = \"event {\"; };\n"
    "event { name = \"a\"; fields := struct { struct { } event; }; };\n"
    "event\n{ name = \"b\"; };\n"
    "events { };\n"), ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/ctf/hostile/count-classes", test_count_classes);
  g_test_add_func ("/ctf/hostile/classes-at-limit", test_classes_at_limit);
  g_test_add_func ("/ctf/hostile/too-many-classes", test_too_many_classes);
  return g_test_run ();
}
