/* test-json-numbers.c: every double the JSON outputs write (jvms_json_add_double) comes back
 * from a JSON parser as the number it was, within one unit in its last place. json-glib's
 * generator turned a value printed as one digit and an exponent into "6e-09.0", and the whole
 * document could not be read: a critical path's share of 27 ns in 4.5 s did that in CI. */
#include <json-glib/json-glib.h>
#include <math.h>

#include "jvms-json.h"

/* @values written as the members of one object and as an array, generated pretty as the CLI
 * does, then parsed back: the document parses, and each number is the one written. */
static void
check_round_trip (const double *values, guint n_values)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  for (guint i = 0; i < n_values; i++)
    {
      g_autofree char *name = g_strdup_printf ("v%u", i);
      jvms_json_member_double (b, name, values[i]);
    }
  json_builder_set_member_name (b, "all");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_values; i++)
    jvms_json_add_double (b, values[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);

  g_autoptr(JsonNode) root = json_builder_get_root (b);
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  json_generator_set_root (gen, root);
  g_autofree char *text = json_generator_to_data (gen, NULL);

  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  gboolean parsed = json_parser_load_from_data (parser, text, -1, &error);
  if (!parsed)
    g_test_message ("unreadable document: %s", error->message);
  g_assert_no_error (error);
  g_assert_true (parsed);

  JsonObject *object = json_node_get_object (json_parser_get_root (parser));
  JsonArray *all = json_object_get_array_member (object, "all");
  g_assert_cmpuint (json_array_get_length (all), ==, n_values);
  for (guint i = 0; i < n_values; i++)
    {
      g_autofree char *name = g_strdup_printf ("v%u", i);
      double expected = isfinite (values[i]) ? values[i] : 0;
      double read = json_object_get_double_member (object, name);
      /* One unit in the last place: the neighbour a one-digit value is written as. */
      double tolerance = fabs (expected) * 2.3e-16;
      if (fabs (read - expected) > tolerance)
        g_test_message ("v%u: wrote %.17g, read %.17g", i, expected, read);
      g_assert_cmpfloat (fabs (read - expected), <=, tolerance);
      g_assert_cmpfloat (json_array_get_double_element (all, i), ==, read);
    }
}

/* The values whose text json-glib broke, and the ordinary ones beside them. */
static void
test_one_digit_exponents (void)
{
  const double values[] = {
    27.0 / 4500000000.0,  /* exactly "6e-09": the share CI met */
    1e17, -2e18, 3e20,    /* integers too large for %.17g's plain form */
    5e-324,               /* the smallest subnormal: its neighbour toward zero is 0 */
    0, -0.0, 0.5, 1, 2.0 / 3.0, 1e-05, 123456.75,
    NAN, INFINITY, -INFINITY,
  };
  check_round_trip (values, G_N_ELEMENTS (values));
}

/* Shares of ranges the way the critical path and the report compute them, k ns of a few
 * seconds: about one in a few hundred thousand prints as one digit and an exponent. */
static void
test_shares (void)
{
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  for (gint64 total = 4500000000; total < 4500000000 + 700; total += 7)
    for (gint64 k = 1; k < 20000; k += 13)
      {
        double share = (double) k / (double) total;
        g_array_append_val (values, share);
      }
  check_round_trip ((const double *) values->data, values->len);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Analysis/json/one-digit-exponents", test_one_digit_exponents);
  g_test_add_func ("/Analysis/json/shares", test_shares);
  return g_test_run ();
}
