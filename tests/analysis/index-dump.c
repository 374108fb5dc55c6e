/* index-dump: builds (or reuses) the index of a trace through JvmsTraceIndex and prints, as
 * JSON, what the tests compare against their oracles: per thread the time in each kernel state
 * and the list of user-state intervals with their details. */
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <stdlib.h>

#include "jvms-json.h"
#include "jvms-states.h"
#include "jvms-trace-index.h"

static void
die (const char *what, GError *error)
{
  g_printerr ("index-dump: %s: %s\n", what, error != NULL ? error->message : "failed");
  exit (1);
}

static JvmsAttribute
child (JvmsHistory *h, JvmsAttribute parent, const char *name)
{
  return jvms_history_lookup_child (h, parent, name);
}

static void
dump_kernel (JsonBuilder *b, JvmsHistory *h, JvmsAttribute a, gint64 t0, gint64 t1)
{
  gint64 totals[JVMS_KERNEL_STATE_N] = { 0 };
  GError *error = NULL;
  JvmsHistoryRange *r = jvms_history_query_range (h, t0, t1, &a, 1, &error);
  if (r == NULL)
    die ("range", error);
  JvmsInterval iv;
  while (jvms_history_range_next (r, &iv, &error))
    if (iv.value.type == JVMS_VALUE_INT && iv.value.i >= 0 && iv.value.i < JVMS_KERNEL_STATE_N)
      totals[iv.value.i] += MIN (iv.end, t1) - MAX (iv.start, t0);
  if (error != NULL)
    die ("range", error);
  jvms_history_range_free (r);
  json_builder_begin_object (b);
  for (int s = 0; s < JVMS_KERNEL_STATE_N; s++)
    {
      json_builder_set_member_name (b, jvms_kernel_state_name (s));
      json_builder_add_int_value (b, totals[s]);
    }
  json_builder_end_object (b);
}

/* [[end of a wait, waker], ...]: every wait (blocked, blocked-io, unknown) whose waker the index
 * keeps, the waker packed as kernel-state/waker stores it. */
static void
dump_wakes (JsonBuilder *b, JvmsHistory *h, JvmsAttribute ks, gint64 t0, gint64 t1)
{
  JvmsAttribute waker = child (h, ks, "waker");
  json_builder_begin_array (b);
  GError *error = NULL;
  JvmsHistoryRange *r = waker != JVMS_ATTRIBUTE_INVALID ? jvms_history_query_range (h, t0, t1, &ks, 1, &error) : NULL;
  if (r == NULL && error != NULL)
    die ("range", error);
  JvmsInterval iv;
  while (r != NULL && jvms_history_range_next (r, &iv, &error))
    {
      JvmsInterval w;
      if (iv.value.type != JVMS_VALUE_INT || (iv.value.i != JVMS_KERNEL_STATE_BLOCKED
                                              && iv.value.i != JVMS_KERNEL_STATE_BLOCKED_IO
                                              && iv.value.i != JVMS_KERNEL_STATE_UNKNOWN)
          || !jvms_history_query_single (h, waker, iv.start, &w, NULL) || w.value.type != JVMS_VALUE_INT
          || iv.end >= t1)
        continue;
      json_builder_begin_array (b);
      json_builder_add_int_value (b, iv.end);
      json_builder_add_int_value (b, w.value.i);
      json_builder_end_array (b);
    }
  if (error != NULL)
    die ("range", error);
  if (r != NULL)
    jvms_history_range_free (r);
  json_builder_end_array (b);
}

static void
dump_user (JsonBuilder *b, JvmsHistory *h, JvmsAttribute a, gint64 t0, gint64 t1)
{
  JvmsAttribute attrs[4] = { a, child (h, a, "detail"), child (h, a, "monitor"), child (h, a, "owner") };
  json_builder_begin_array (b);
  GError *error = NULL;
  JvmsHistoryRange *r = jvms_history_query_range (h, t0, t1, attrs, 1, &error);
  if (r == NULL)
    die ("range", error);
  JvmsInterval iv;
  while (jvms_history_range_next (r, &iv, &error))
    {
      if (iv.value.type != JVMS_VALUE_INT)
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "start");
      json_builder_add_int_value (b, iv.start);
      json_builder_set_member_name (b, "end");
      json_builder_add_int_value (b, iv.end);
      json_builder_set_member_name (b, "state");
      json_builder_add_string_value (b, jvms_user_state_name (iv.value.i));
      const char *names[] = { NULL, "detail", "monitor", "owner" };
      for (int k = 1; k < 4; k++)
        {
          JvmsInterval d;
          if (attrs[k] == JVMS_ATTRIBUTE_INVALID || !jvms_history_query_single (h, attrs[k], iv.start, &d, NULL))
            continue;
          json_builder_set_member_name (b, names[k]);
          if (d.value.type == JVMS_VALUE_STRING)
            json_builder_add_string_value (b, d.value.s);
          else if (d.value.type == JVMS_VALUE_INT)
            json_builder_add_int_value (b, d.value.i);
          else
            json_builder_add_null_value (b);
        }
      json_builder_end_object (b);
    }
  if (error != NULL)
    die ("range", error);
  jvms_history_range_free (r);
  json_builder_end_array (b);
}

/* Every non-null interval of every attribute below @a (GC, VM, JIT, Locks, Memory), by path. */
static void
dump_tree (JsonBuilder *b, JvmsHistory *h, JvmsAttribute a, gint64 t0, gint64 t1)
{
  g_autofree char *path = jvms_history_get_path_of (h, a);
  json_builder_set_member_name (b, path);
  json_builder_begin_array (b);
  GError *error = NULL;
  JvmsHistoryRange *r = jvms_history_query_range (h, t0, t1, &a, 1, &error);
  if (r == NULL)
    die ("range", error);
  JvmsInterval iv;
  while (jvms_history_range_next (r, &iv, &error))
    {
      if (iv.value.type == JVMS_VALUE_NULL)
        continue;
      json_builder_begin_array (b);
      json_builder_add_int_value (b, iv.start);
      json_builder_add_int_value (b, iv.end);
      if (iv.value.type == JVMS_VALUE_STRING)
        json_builder_add_string_value (b, iv.value.s);
      else if (iv.value.type == JVMS_VALUE_INT)
        json_builder_add_int_value (b, iv.value.i);
      else
        jvms_json_add_double (b, iv.value.d);
      json_builder_end_array (b);
    }
  if (error != NULL)
    die ("range", error);
  jvms_history_range_free (r);
  json_builder_end_array (b);
  GArray *children = jvms_history_list_children (h, a);
  for (guint i = 0; i < children->len; i++)
    dump_tree (b, h, g_array_index (children, JvmsAttribute, i), t0, t1);
  g_array_unref (children);
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      g_printerr ("usage: index-dump CACHE-DIR TRACE\n");
      return 2;
    }
  GError *error = NULL;
  JvmsTraceIndex *index = jvms_trace_index_new (argv[2], &error);
  if (index == NULL)
    die (argv[2], error);
  jvms_trace_index_set_cache_dir (index, argv[1]);
  if (!jvms_trace_index_load (index, NULL, &error))
    die (argv[2], error);
  JvmsHistory *h = jvms_trace_index_dup_history (index);
  gint64 t0 = jvms_history_get_start_time (h), t1 = jvms_history_get_end_time (h);

  JsonBuilder *b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "start");
  json_builder_add_int_value (b, t0);
  json_builder_set_member_name (b, "end");
  json_builder_add_int_value (b, t1);
  const char *keys[] = { "clock-offset-ns", "clock-method", "layers", "jvm-pid", "jvms", "default-range" };
  for (gsize i = 0; i < G_N_ELEMENTS (keys); i++)
    {
      json_builder_set_member_name (b, keys[i]);
      json_builder_add_string_value (b, jvms_history_get_metadata (h, keys[i]));
    }
  json_builder_set_member_name (b, "globals");
  json_builder_begin_object (b);
  const char *roots[] = { "GC", "VM", "JIT", "Locks", "Memory" };
  for (gsize i = 0; i < G_N_ELEMENTS (roots); i++)
    {
      JvmsAttribute a = jvms_history_lookup (h, roots[i]);
      if (a != JVMS_ATTRIBUTE_INVALID)
        dump_tree (b, h, a, t0, t1);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "threads");
  json_builder_begin_object (b);
  JvmsAttribute threads = jvms_history_lookup (h, "Threads");
  GArray *tids = threads != JVMS_ATTRIBUTE_INVALID ? jvms_history_list_children (h, threads) : g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  for (guint i = 0; i < tids->len; i++)
    {
      JvmsAttribute t = g_array_index (tids, JvmsAttribute, i);
      json_builder_set_member_name (b, jvms_history_get_name (h, t));
      json_builder_begin_object (b);
      JvmsAttribute name = child (h, t, "name");
      JvmsInterval iv;
      if (name != JVMS_ATTRIBUTE_INVALID && jvms_history_query_single (h, name, t1, &iv, NULL)
          && iv.value.type == JVMS_VALUE_STRING)
        {
          json_builder_set_member_name (b, "name");
          json_builder_add_string_value (b, iv.value.s);
        }
      const char *ints[] = { "pid", "kind" };
      for (gsize k = 0; k < G_N_ELEMENTS (ints); k++)
        {
          JvmsAttribute a = child (h, t, ints[k]);
          if (a != JVMS_ATTRIBUTE_INVALID && jvms_history_query_single (h, a, t1, &iv, NULL)
              && iv.value.type == JVMS_VALUE_INT)
            {
              json_builder_set_member_name (b, ints[k]);
              if (k == 1)
                json_builder_add_string_value (b, jvms_thread_kind_name (iv.value.i));
              else
                json_builder_add_int_value (b, iv.value.i);
            }
        }
      JvmsAttribute ks = child (h, t, "kernel-state");
      if (ks != JVMS_ATTRIBUTE_INVALID)
        {
          json_builder_set_member_name (b, "kernel");
          dump_kernel (b, h, ks, t0, t1);
          json_builder_set_member_name (b, "wakes");
          dump_wakes (b, h, ks, t0, t1);
        }
      JvmsAttribute us = child (h, t, "user-state");
      if (us != JVMS_ATTRIBUTE_INVALID)
        {
          json_builder_set_member_name (b, "user");
          dump_user (b, h, us, t0, t1);
        }
      json_builder_end_object (b);
    }
  g_array_unref (tids);
  json_builder_end_object (b);
  json_builder_end_object (b);

  JsonNode *root = json_builder_get_root (b);
  JsonGenerator *gen = json_generator_new ();
  json_generator_set_root (gen, root);
  char *text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
  g_free (text);
  g_object_unref (gen);
  json_node_unref (root);
  g_object_unref (b);
  jvms_history_unref (h);
  g_object_unref (index);
  return 0;
}
