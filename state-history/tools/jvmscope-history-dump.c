/* jvmscope-history-dump: the intervals of an index file as text, one a line, as LMDB's
 * mdb_dump does: "path<TAB>start<TAB>end<TAB>type<TAB>value", ordered by attribute then start.
 * Attributes are read one at a time so that memory stays bounded by one attribute's window. */
#include "jvms-history.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void
print_value (const JvmsValue *v)
{
  switch (v->type)
    {
    case JVMS_VALUE_NULL:
      fputs ("null\t", stdout);
      break;
    case JVMS_VALUE_INT:
      printf ("int\t%" PRId64, v->i);
      break;
    case JVMS_VALUE_DOUBLE:
      printf ("double\t%.17g", v->d);
      break;
    case JVMS_VALUE_STRING:
      {
        g_autofree char *e = g_strescape (v->s, NULL);
        printf ("string\t\"%s\"", e);
        break;
      }
    }
}

int
main (int argc, char **argv)
{
  g_autofree char *attribute = NULL;
  gint64 from = G_MININT64, to = G_MAXINT64;

  GOptionEntry entries[] = {
    { "attribute", 'a', 0, G_OPTION_ARG_STRING, &attribute, "Only this attribute path and its descendants", "PATH" },
    { "from", 0, 0, G_OPTION_ARG_INT64, &from, "Only intervals ending after T (ns)", "T" },
    { "to", 0, 0, G_OPTION_ARG_INT64, &to, "Only intervals starting at or before T (ns)", "T" },
    { NULL },
  };
  g_autoptr (GOptionContext) ctx = g_option_context_new ("FILE - print the intervals of a history index");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_autoptr (GError) error = NULL;
  if (!g_option_context_parse (ctx, &argc, &argv, &error) || argc != 2)
    {
      fprintf (stderr, "jvmscope-history-dump: %s\n", error ? error->message : "one FILE expected");
      return 2;
    }
  g_autoptr (JvmsHistory) h = jvms_history_open (argv[1], 0, &error);
  if (h == NULL)
    {
      fprintf (stderr, "jvmscope-history-dump: %s\n", error->message);
      return 1;
    }
  gint64 t0 = MAX (from, jvms_history_get_start_time (h));
  gint64 t1 = MIN (to, jvms_history_get_end_time (h));
  printf ("# %s: [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "), %u attributes, %" G_GUINT64_FORMAT " intervals\n",
          argv[1], jvms_history_get_start_time (h), jvms_history_get_end_time (h),
          jvms_history_get_n_attributes (h), jvms_history_get_n_intervals (h));


  /* The attributes to print: all, or a subtree, in id order. */
  g_autoptr (GArray) todo = g_array_new (FALSE, FALSE, sizeof (JvmsAttribute));
  if (attribute)
    {
      JvmsAttribute a = jvms_history_lookup (h, attribute);
      if (a == JVMS_ATTRIBUTE_INVALID)
        {
          fprintf (stderr, "jvmscope-history-dump: %s: no attribute %s\n", argv[1], attribute);
          return 1;
        }
      g_array_append_val (todo, a);
      for (guint i = 0; i < todo->len; i++)
        {
          g_autoptr (GArray) kids = jvms_history_list_children (h, g_array_index (todo, JvmsAttribute, i));
          g_array_append_vals (todo, kids->data, kids->len);
        }
    }
  else
    for (JvmsAttribute a = 0; a < jvms_history_get_n_attributes (h); a++)
      g_array_append_val (todo, a);
  if (t1 < t0)
    return 0;
  for (guint i = 0; i < todo->len; i++)
    {
      JvmsAttribute a = g_array_index (todo, JvmsAttribute, i);
      g_autofree char *path = jvms_history_get_path_of (h, a);
      g_autoptr (JvmsHistoryRange) r = jvms_history_query_range (h, t0, t1, &a, 1, &error);
      if (r == NULL)
        {
          fprintf (stderr, "jvmscope-history-dump: %s\n", error->message);
          return 1;
        }
      JvmsInterval iv;
      while (jvms_history_range_next (r, &iv, &error))
        {
          printf ("%s\t%" G_GINT64_FORMAT "\t%" G_GINT64_FORMAT "\t", path, iv.start, iv.end);
          print_value (&iv.value);
          putchar ('\n');
        }
      if (error)
        {
          fprintf (stderr, "jvmscope-history-dump: %s\n", error->message);
          return 1;
        }
    }
  return 0;
}
