/* jvms-thread-folders.c: per-thread folders as rows (see the header). */
#include "config.h"

#include "jvms-thread-folders.h"

static void
clear_folder (gpointer data)
{
  g_free (((JvmsThreadFolder *) data)->label);
}

static int
compare_labels (gconstpointer a,
                gconstpointer b)
{
  const JvmsThreadFolder *x = a, *y = b;
  int c = g_utf8_collate (x->label, y->label);
  return c != 0 ? c : (x->tid < y->tid ? -1 : x->tid > y->tid);
}

/* The attribute at @path ("compilation/tier") below @folder, or invalid. */
static JvmsAttribute
lookup_path (JvmsHistory   *history,
             JvmsAttribute  folder,
             const char    *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  JvmsAttribute a = folder;

  for (guint i = 0; parts[i] != NULL && a != JVMS_ATTRIBUTE_INVALID; i++)
    a = jvms_history_lookup_child (history, a, parts[i]);
  return a;
}

GArray *
jvms_thread_folders_read (JvmsHistory        *history,
                          JvmsThreadList     *threads,
                          const char         *root,
                          const char * const *paths,
                          guint               n_paths)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (JvmsThreadFolder));
  g_autoptr(GArray) children = NULL;
  JvmsAttribute parent;

  g_array_set_clear_func (out, clear_folder);
  g_return_val_if_fail (n_paths <= JVMS_THREAD_FOLDER_MAX_PATHS, out);
  if (history == NULL || (parent = jvms_history_lookup (history, root)) == JVMS_ATTRIBUTE_INVALID)
    return out;
  children = jvms_history_list_children (history, parent);
  for (guint i = 0; i < children->len; i++)
    {
      JvmsAttribute folder = g_array_index (children, JvmsAttribute, i);
      const char *key = jvms_history_get_name (history, folder);
      JvmsThreadFolder f = { 0 };
      const JvmsThreadInfo *t;
      gboolean any = FALSE;

      if (!jvms_thread_key_parse (key, &f.tid))
        continue;
      for (guint p = 0; p < JVMS_THREAD_FOLDER_MAX_PATHS; p++)
        {
          f.attributes[p] = p < n_paths ? lookup_path (history, folder, paths[p])
                                        : JVMS_ATTRIBUTE_INVALID;
          any |= f.attributes[p] != JVMS_ATTRIBUTE_INVALID;
        }
      if (!any)
        continue;
      t = threads != NULL ? jvms_thread_list_lookup (threads, f.tid) : NULL;
      f.label = g_strdup_printf ("%s  %s", t != NULL ? t->name : key, key);
      g_array_append_val (out, f);
    }
  g_array_sort (out, compare_labels);
  return out;
}
