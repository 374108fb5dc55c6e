/* jvms-compare-json.c: a comparison as docs/compare.md's JSON (schema version 1). Members are
 * only added, never renamed or removed, without a new schema_version. */
#include "jvms-compare.h"

#include <math.h>

#include "jvms-json.h"

static void
add_int (JsonBuilder *b, const char *name, gint64 v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, v);
}

static void
add_string (JsonBuilder *b, const char *name, const char *v)
{
  json_builder_set_member_name (b, name);
  jvms_json_add_text (b, v);
}

static void
add_side (JsonBuilder *b, const char *name, const char *trace, gint64 pid, gint64 start, gint64 from,
          gint64 to, const char *why, guint slices, double analysed_ns)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "trace");
  jvms_json_add_path (b, trace);
  add_int (b, "jvm_pid", pid);
  json_builder_set_member_name (b, "range");
  json_builder_begin_object (b);
  add_int (b, "from_ns", from);
  add_int (b, "to_ns", to);
  add_int (b, "from_offset_ns", from - start);
  add_int (b, "to_offset_ns", to - start);
  add_int (b, "duration_ns", to - from);
  if (why != NULL)
    add_string (b, "why", why);
  json_builder_end_object (b);
  add_int (b, "slices", slices);
  add_int (b, "analysed_ns", (gint64) analysed_ns);
  json_builder_end_object (b);
}

/* The member naming a row in each table, and the unit its absolute values are named by. */
static const struct
{
  const char *key;
  const char *unit;
} table_members[JVMS_COMPARE_TABLE_N] = {
  [JVMS_COMPARE_KINDS] = { "kind", "ns" },
  [JVMS_COMPARE_MONITORS] = { "class", "ns" },
  [JVMS_COMPARE_PARKED] = { "on", "ns" },
  [JVMS_COMPARE_IO] = { "target", "ns" },
  [JVMS_COMPARE_THREAD_GROUPS] = { "group", "ns" },
  [JVMS_COMPARE_METHODS] = { "method", "samples" },
  [JVMS_COMPARE_ALLOCATIONS] = { "class", "bytes" },
  [JVMS_COMPARE_GC] = { "measure", NULL }, /* each row its own unit: "baseline", "other", "unit" */
};

static void
add_row (JsonBuilder *b, JvmsCompareTable table, const JvmsCompareRow *r)
{
  json_builder_begin_object (b);
  add_string (b, table_members[table].key, r->name);
  if (table == JVMS_COMPARE_THREAD_GROUPS)
    {
      add_string (b, "kind", r->thread_kind);
      add_string (b, "state", r->state);
      add_int (b, "baseline_threads", r->baseline_threads);
      add_int (b, "other_threads", r->other_threads);
    }
  if (table == JVMS_COMPARE_GC)
    {
      add_string (b, "collector", r->collector); /* null: every collector */
      add_string (b, "unit", r->unit);
      jvms_json_member_double (b, "baseline", r->baseline);
      jvms_json_member_double (b, "other", r->other);
    }
  else
    {
      g_autofree char *bname = g_strconcat ("baseline_", table_members[table].unit, NULL);
      g_autofree char *oname = g_strconcat ("other_", table_members[table].unit, NULL);
      add_int (b, bname, (gint64) llround (r->baseline));
      add_int (b, oname, (gint64) llround (r->other));
    }
  jvms_json_member_double (b, "baseline_per_s", r->baseline_per_s);
  jvms_json_member_double (b, "other_per_s", r->other_per_s);
  jvms_json_member_double (b, "change_per_s", r->change_per_s);
  jvms_json_member_double (b, "uncertainty_per_s", r->uncertainty_per_s);
  if (table == JVMS_COMPARE_KINDS || table == JVMS_COMPARE_METHODS)
    {
      jvms_json_member_double (b, "baseline_share", r->baseline_share);
      jvms_json_member_double (b, "other_share", r->other_share);
    }
  if (table == JVMS_COMPARE_METHODS)
    {
      jvms_json_member_double (b, "change_share", r->change_share);
      jvms_json_member_double (b, "uncertainty_share", r->uncertainty_share);
    }
  json_builder_set_member_name (b, "significant");
  json_builder_add_boolean_value (b, r->significant);
  json_builder_end_object (b);
}

char *
jvms_comparison_to_json (const JvmsComparison *self, const char *baseline_trace,
                         const char *other_trace, guint limit)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  add_int (b, "schema_version", 1);
  add_side (b, "baseline", baseline_trace, self->baseline_pid, self->baseline_start,
            self->baseline_from, self->baseline_to, self->baseline_why, self->baseline_slices,
            self->baseline_analysed_ns);
  add_side (b, "other", other_trace, self->other_pid, self->other_start, self->other_from,
            self->other_to, self->other_why, self->other_slices, self->other_analysed_ns);
  json_builder_set_member_name (b, "uncertainty");
  json_builder_begin_object (b);
  add_string (b, "method", "successive differences of one-second slices");
  jvms_json_member_double (b, "significance", JVMS_COMPARE_SIGNIFICANCE);
  jvms_json_member_double (b, "min_relative", JVMS_COMPARE_MIN_RELATIVE);
  json_builder_end_object (b);
  for (guint t = 0; t < JVMS_COMPARE_TABLE_N; t++)
    {
      json_builder_set_member_name (b, jvms_compare_table_name (t));
      json_builder_begin_array (b);
      const GArray *rows = self->tables[t];
      for (guint i = 0; i < rows->len && (limit == 0 || i < limit); i++)
        add_row (b, t, &g_array_index (rows, JvmsCompareRow, i));
      json_builder_end_array (b);
    }
  json_builder_end_object (b);

  g_autoptr(JsonGenerator) gen = json_generator_new ();
  json_generator_set_pretty (gen, TRUE);
  g_autoptr(JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  return json_generator_to_data (gen, NULL);
}
