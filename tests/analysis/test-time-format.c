/* Tests of analysis/jvms-time-format: the one writer of times.
 *
 * Before it, five copies wrote times, and they disagreed on the same value: 999,999,999 ns in
 * the automatic unit was "1.000 s" in the views, "1000.000 ms" in the side panel and the
 * findings, and "1000 ms" in the index's notes; an instant 500 ms after the trace start was
 * "0.500000 s" in a tooltip and "+500.000 ms" in the panel. The cases below are those. */
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gio.h>
#include <gio/gsettingsbackend.h>
#include <locale.h>

#include "jvms-time-format.h"

#define MS G_GINT64_CONSTANT (1000000)
#define SECOND G_GINT64_CONSTANT (1000000000)
/* 2023-11-14 22:13:20 UTC */
#define EPOCH_T (G_GINT64_CONSTANT (1700000000) * SECOND)

static void
check_duration (gint64 ns, JvmsTimeUnit unit, const char *want)
{
  g_autofree char *got = jvms_time_format_duration (ns, unit);
  g_assert_cmpstr (got, ==, want);
}

static void
check_instant (gint64 time, gint64 start, JvmsTimeUnit unit, JvmsTimeOrigin origin,
               gint64 resolution, gboolean sign, const char *want)
{
  g_autofree char *got = jvms_time_format_instant (time, start, unit, origin, resolution, sign);
  g_assert_cmpstr (got, ==, want);
}

/* AUTO: the unit the value reaches, and the next one when rounding would write 1000 of it. */
static void
test_duration_auto (void)
{
  check_duration (999999999, JVMS_TIME_UNIT_AUTO, "1.000 s");
  check_duration (999999, JVMS_TIME_UNIT_AUTO, "999.999 µs");
  check_duration (999999500, JVMS_TIME_UNIT_AUTO, "1.000 s");
  check_duration (999999499, JVMS_TIME_UNIT_AUTO, "999.999 ms");
  check_duration (999, JVMS_TIME_UNIT_AUTO, "999 ns");
  check_duration (1000, JVMS_TIME_UNIT_AUTO, "1.000 µs");
  check_duration (0, JVMS_TIME_UNIT_AUTO, "0 ns");
  check_duration (2261234567, JVMS_TIME_UNIT_AUTO, "2.261 s");
  check_duration (-1500000, JVMS_TIME_UNIT_AUTO, "-1.500 ms");
}

/* A fixed unit is kept whatever the value: three decimals, none for nanoseconds. */
static void
test_duration_fixed (void)
{
  check_duration (999999999, JVMS_TIME_UNIT_MILLISECONDS, "1000.000 ms");
  check_duration (1234567, JVMS_TIME_UNIT_MILLISECONDS, "1.235 ms");
  check_duration (1234567, JVMS_TIME_UNIT_NANOSECONDS, "1234567 ns");
  check_duration (1234567, JVMS_TIME_UNIT_MICROSECONDS, "1234.567 µs");
  check_duration (1234567, JVMS_TIME_UNIT_SECONDS, "0.001 s");
}

static void
test_instant_trace_start (void)
{
  gint64 start = EPOCH_T + 123456789;

  /* The tooltip (a resolution) and the panel (the default, signed) write the same unit. */
  check_instant (start + 500 * MS, start, JVMS_TIME_UNIT_AUTO, JVMS_TIME_ORIGIN_TRACE_START,
                 1000, FALSE, "500.000 ms");
  check_instant (start + 500 * MS, start, JVMS_TIME_UNIT_AUTO, JVMS_TIME_ORIGIN_TRACE_START,
                 0, TRUE, "+500.000 ms");
  check_instant (start - 1500000, start, JVMS_TIME_UNIT_SECONDS, JVMS_TIME_ORIGIN_TRACE_START,
                 0, TRUE, "-0.002 s");
  /* Ticks a step apart: the fewest decimals that write the step exactly. */
  check_instant (start + 7500000, start, JVMS_TIME_UNIT_MILLISECONDS,
                 JVMS_TIME_ORIGIN_TRACE_START, 2500000, FALSE, "7.5 ms");
  check_instant (start + 3 * SECOND, start, JVMS_TIME_UNIT_MILLISECONDS,
                 JVMS_TIME_ORIGIN_TRACE_START, SECOND, FALSE, "3000 ms");
  check_instant (start + 3 * SECOND, start, JVMS_TIME_UNIT_SECONDS,
                 JVMS_TIME_ORIGIN_TRACE_START, 1, FALSE, "3.000000000 s");
  /* AUTO resolved by the step keeps one unit for every tick of a ruler. */
  g_assert_cmpint (jvms_time_unit_resolve (JVMS_TIME_UNIT_AUTO, 500000, 500000), ==,
                   JVMS_TIME_UNIT_MICROSECONDS);
  g_assert_cmpint (jvms_time_unit_resolve (JVMS_TIME_UNIT_MILLISECONDS, 5, 5), ==,
                   JVMS_TIME_UNIT_MILLISECONDS);
}

/* Times of day are cut, not rounded: .9999999 s is still that second. */
static void
test_instant_wall_clock (void)
{
  check_instant (EPOCH_T + 123456789, 0, JVMS_TIME_UNIT_AUTO, JVMS_TIME_ORIGIN_WALL_CLOCK,
                 0, TRUE, "22:13:20.123456");
  check_instant (EPOCH_T + 999999999, 0, JVMS_TIME_UNIT_MILLISECONDS,
                 JVMS_TIME_ORIGIN_WALL_CLOCK, MS, FALSE, "22:13:20.999");
  check_instant (EPOCH_T + 250 * MS, 0, JVMS_TIME_UNIT_AUTO, JVMS_TIME_ORIGIN_WALL_CLOCK,
                 250 * MS, FALSE, "22:13:20.25");
  check_instant (EPOCH_T, 0, JVMS_TIME_UNIT_AUTO, JVMS_TIME_ORIGIN_WALL_CLOCK, SECOND, FALSE,
                 "22:13:20");
  /* Before the epoch the second is the one below, not the one towards zero. */
  check_instant (-1, 0, JVMS_TIME_UNIT_AUTO, JVMS_TIME_ORIGIN_WALL_CLOCK, 0, FALSE,
                 "23:59:59.999999");
}

/* The enums are the schema's: every nick of the compiled schema's time-unit and time-origin
 * keys gives, through GSettings, the value the C enum has for that nick. */
static void
check_key (GSettings *settings, const char *key, GType type)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_autoptr(GSettingsSchemaKey) schema_key = NULL;
  g_autoptr(GVariant) range = NULL;
  g_autoptr(GVariant) nicks = NULL;
  g_autoptr(GEnumClass) enum_class = g_type_class_ref (type);
  const char *kind;
  GVariantIter iter;
  const char *nick;
  guint n = 0;

  g_object_get (settings, "settings-schema", &schema, NULL);
  schema_key = g_settings_schema_get_key (schema, key);
  range = g_settings_schema_key_get_range (schema_key);
  g_variant_get (range, "(&sv)", &kind, &nicks);
  g_assert_cmpstr (kind, ==, "enum");
  g_variant_iter_init (&iter, nicks);
  while (g_variant_iter_next (&iter, "&s", &nick))
    {
      GEnumValue *value = g_enum_get_value_by_nick (enum_class, nick);
      g_assert_nonnull (value);
      g_assert_true (g_settings_set_string (settings, key, nick));
      g_assert_cmpint (g_settings_get_enum (settings, key), ==, value->value);
      n++;
    }
  g_assert_cmpuint (n, ==, enum_class->n_values);
}

static void
test_enums_are_the_schema (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettingsSchemaSource) source =
    g_settings_schema_source_new_from_directory (g_getenv ("JVMS_SCHEMA_DIR"), NULL, TRUE, &error);
  g_assert_no_error (error);
  g_autoptr(GSettingsSchema) schema = g_settings_schema_source_lookup (source, "org.jvmscope.Jvmscope",
                                                                       FALSE);
  g_assert_nonnull (schema);
  g_autoptr(GSettingsBackend) backend = g_memory_settings_backend_new ();
  g_autoptr(GSettings) settings = g_settings_new_full (schema, backend, NULL);

  check_key (settings, "time-unit", JVMS_TYPE_TIME_UNIT);
  check_key (settings, "time-origin", JVMS_TYPE_TIME_ORIGIN);
}

int
main (int argc, char **argv)
{
  setlocale (LC_ALL, "C.UTF-8");
  /* Times of day in a known zone, before GLib reads the local one. */
  g_setenv ("TZ", "UTC", TRUE);
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/Analysis/time-format/duration-auto", test_duration_auto);
  g_test_add_func ("/Analysis/time-format/duration-fixed", test_duration_fixed);
  g_test_add_func ("/Analysis/time-format/instant-trace-start", test_instant_trace_start);
  g_test_add_func ("/Analysis/time-format/instant-wall-clock", test_instant_wall_clock);
  g_test_add_func ("/Analysis/time-format/enums-are-the-schema", test_enums_are_the_schema);
  return g_test_run ();
}
