/* jvms-record-sets.c: named sets and metrics in a key file beside the index
 * (jvms-record-sets.h). */
#include "jvms-record-sets.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_NESTING 32
/* A saved-sets file is a few definitions: 16 MiB is thousands of times what a person writes. */
#define MAX_FILE_BYTES (16 * 1024 * 1024)

struct _JvmsRecordSets
{
  char     *path;
  GKeyFile *file;
};

char *
jvms_record_sets_path_for_index (const char *index_path)
{
  g_autofree char *dir = g_path_get_dirname (index_path);
  g_autofree char *base = g_path_get_basename (index_path);
  char *dash = strchr (base, '-');
  if (dash != NULL)
    *dash = '\0';
  else if (g_str_has_suffix (base, ".jvmsidx"))
    base[strlen (base) - strlen (".jvmsidx")] = '\0';
  g_autofree char *name = g_strconcat (base, ".sets", NULL);
  return g_build_filename (dir, name, NULL);
}

JvmsRecordSets *
jvms_record_sets_load (const char *path, GError **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(GError) local = NULL;
  /* Read whole by GKeyFile: only a regular file (a named pipe would block the reader for ever)
   * of a size a person's definitions reach (a huge one would be read into memory whole). */
  GStatBuf st;
  if (g_stat (path, &st) == 0 && (!S_ISREG (st.st_mode) || st.st_size > MAX_FILE_BYTES))
    {
      g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                   !S_ISREG (st.st_mode) ? "%s: the saved record sets are not a regular file"
                                         : "%s: the saved record sets are larger than %d bytes",
                   path, MAX_FILE_BYTES);
      return NULL;
    }
  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, &local)
      && !g_error_matches (local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    {
      g_set_error (error, local->domain, local->code, "%s: the saved record sets cannot be read: %s",
                   path, local->message);
      return NULL;
    }
  JvmsRecordSets *self = g_new0 (JvmsRecordSets, 1);
  self->path = g_strdup (path);
  self->file = g_steal_pointer (&file);
  return self;
}

void
jvms_record_sets_free (JvmsRecordSets *self)
{
  if (self == NULL)
    return;
  g_key_file_unref (self->file);
  g_free (self->path);
  g_free (self);
}

gboolean
jvms_record_sets_save (JvmsRecordSets *self, GError **error)
{
  gsize length;
  g_autofree char *data = g_key_file_to_data (self->file, &length, NULL);
  g_autoptr(GError) local = NULL;
  if (!g_file_set_contents (self->path, data, (gssize) length, &local))
    {
      g_set_error (error, local->domain, local->code, "%s: the record sets cannot be saved: %s",
                   self->path, local->message);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_name (const char *name, GError **error)
{
  gboolean ok = name != NULL && name[0] != '\0' && strlen (name) <= 200;
  for (const char *c = name; ok && *c != '\0'; c++)
    ok = g_ascii_isalnum (*c) || *c == '_' || *c == '.' || *c == '-';
  if (!ok)
    g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                 "“%s” is not a name for a set or metric (letters, digits, _ . -)", name != NULL ? name : "");
  return ok;
}

static char *
group_of (const char *kind, const char *name)
{
  return g_strdup_printf ("%s %s", kind, name);
}

static void
set_list (GKeyFile *file, const char *group, const char *key, const char * const *list)
{
  if (list != NULL && list[0] != NULL)
    g_key_file_set_string_list (file, group, key, list, g_strv_length ((char **) list));
}

gboolean
jvms_record_sets_define (JvmsRecordSets *self, const char *name, const JvmsRecordSetDef *def,
                         GError **error)
{
  if (!check_name (name, error))
    return FALSE;
  g_autofree char *group = group_of ("set", name);
  g_key_file_remove_group (self->file, group, NULL);
  g_key_file_set_string (self->file, group, "source", def->source != NULL ? def->source : "quanta");
  if (def->base != NULL)
    g_key_file_set_string (self->file, group, "base", def->base);
  set_list (self->file, group, "filter", def->filters);
  set_list (self->file, group, "union", def->unions);
  set_list (self->file, group, "intersect", def->intersects);
  set_list (self->file, group, "minus", def->minus);
  return TRUE;
}

gboolean
jvms_record_sets_define_metric (JvmsRecordSets *self, const char *name, const char *expression,
                                GError **error)
{
  if (!check_name (name, error))
    return FALSE;
  g_autofree char *group = group_of ("metric", name);
  g_key_file_set_string (self->file, group, "expression", expression);
  return TRUE;
}

gboolean
jvms_record_sets_remove (JvmsRecordSets *self, const char *name)
{
  g_autofree char *set = group_of ("set", name);
  g_autofree char *metric = group_of ("metric", name);
  gboolean a = g_key_file_remove_group (self->file, set, NULL);
  gboolean b = g_key_file_remove_group (self->file, metric, NULL);
  return a || b;
}

static char **
list_kind (JvmsRecordSets *self, const char *kind)
{
  g_auto(GStrv) groups = g_key_file_get_groups (self->file, NULL);
  GPtrArray *names = g_ptr_array_new ();
  gsize prefix = strlen (kind) + 1;
  for (guint i = 0; groups[i] != NULL; i++)
    if (strncmp (groups[i], kind, prefix - 1) == 0 && groups[i][prefix - 1] == ' ')
      g_ptr_array_add (names, g_strdup (groups[i] + prefix));
  g_ptr_array_add (names, NULL);
  return (char **) g_ptr_array_free (names, FALSE);
}

char **
jvms_record_sets_list (JvmsRecordSets *self)
{
  return list_kind (self, "set");
}

char **
jvms_record_sets_list_metrics (JvmsRecordSets *self)
{
  return list_kind (self, "metric");
}

char *
jvms_record_sets_get_source (JvmsRecordSets *self, const char *name)
{
  g_autofree char *group = group_of ("set", name);
  if (!g_key_file_has_group (self->file, group))
    return NULL;
  char *source = g_key_file_get_string (self->file, group, "source", NULL);
  return source != NULL ? source : g_strdup ("quanta");
}

void
jvms_record_sets_add_metrics (JvmsRecordSets *self, JvmsRecordTable *table, GPtrArray *warnings)
{
  g_auto(GStrv) names = jvms_record_sets_list_metrics (self);
  for (guint i = 0; names[i] != NULL; i++)
    {
      if (jvms_record_table_lookup (table, names[i]) >= 0)
        continue;
      g_autofree char *group = group_of ("metric", names[i]);
      g_autofree char *expression = g_key_file_get_string (self->file, group, "expression", NULL);
      g_autofree char *definition = g_strdup_printf ("%s=%s", names[i], expression != NULL ? expression : "");
      g_autoptr(GError) error = NULL;
      if (!jvms_record_expr_add_metric (table, definition, NULL, &error) && warnings != NULL)
        g_ptr_array_add (warnings, g_strdup_printf ("%s: saved metric %s: %s", self->path, names[i],
                                                    error->message));
    }
}

static GHashTable *
memo_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) jvms_record_set_free);
}

static JvmsRecordSet *evaluate_def (JvmsRecordSets *self, const char *name,
                                    const JvmsRecordSetDef *def, JvmsRecordTable *table,
                                    const char *source, guint depth, GHashTable *done,
                                    GError **error);

/* @done holds the sets this evaluation already computed, by name: a set that several others
 * use is computed once. Without it, a file whose sets each unite the one before with itself
 * (s2 = s1 ∪ s1, s3 = s2 ∪ s2, ...) took 2^depth evaluations: a .sets file of 30 such lines
 * kept `records` busy for ever. */
static JvmsRecordSet *
evaluate (JvmsRecordSets *self, const char *name, JvmsRecordTable *table, const char *source,
          guint depth, GHashTable *done, GError **error)
{
  const JvmsRecordSet *known = g_hash_table_lookup (done, name);
  if (known != NULL)
    return jvms_record_set_copy (known);
  g_autofree char *group = group_of ("set", name);
  if (!g_key_file_has_group (self->file, group))
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_GROUP_NOT_FOUND,
                   "%s: no record set is named “%s”", self->path, name);
      return NULL;
    }
  if (depth > MAX_NESTING)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "%s: record set “%s” is defined through itself, or more than %d sets deep",
                   self->path, name, MAX_NESTING);
      return NULL;
    }
  g_autofree char *own = jvms_record_sets_get_source (self, name);
  if (g_strcmp0 (own, source) != 0)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "%s: record set “%s” is a set of %s, not of %s", self->path, name, own, source);
      return NULL;
    }
  g_autofree char *base = g_key_file_get_string (self->file, group, "base", NULL);
  g_auto(GStrv) filters = g_key_file_get_string_list (self->file, group, "filter", NULL, NULL);
  g_auto(GStrv) unions = g_key_file_get_string_list (self->file, group, "union", NULL, NULL);
  g_auto(GStrv) intersects = g_key_file_get_string_list (self->file, group, "intersect", NULL, NULL);
  g_auto(GStrv) minus = g_key_file_get_string_list (self->file, group, "minus", NULL, NULL);
  JvmsRecordSetDef def = {
    .source = own,
    .base = base,
    .filters = (const char * const *) filters,
    .unions = (const char * const *) unions,
    .intersects = (const char * const *) intersects,
    .minus = (const char * const *) minus,
  };
  JvmsRecordSet *set = evaluate_def (self, name, &def, table, source, depth, done, error);
  if (set != NULL)
    g_hash_table_insert (done, g_strdup (name), jvms_record_set_copy (set));
  return set;
}

static JvmsRecordSet *
evaluate_def (JvmsRecordSets *self, const char *name, const JvmsRecordSetDef *def,
              JvmsRecordTable *table, const char *source, guint depth, GHashTable *done,
              GError **error)
{
  const char * const *filters = def->filters;
  const char * const *unions = def->unions;
  gboolean has_filters = filters != NULL && filters[0] != NULL;
  gboolean has_unions = unions != NULL && unions[0] != NULL;
  g_autoptr(JvmsRecordSet) set = NULL;
  if (def->base != NULL)
    set = evaluate (self, def->base, table, source, depth + 1, done, error);
  else
    set = jvms_record_set_new (jvms_record_table_get_n_rows (table), has_filters || !has_unions);
  if (set == NULL)
    return NULL;
  for (guint i = 0; has_filters && filters[i] != NULL; i++)
    {
      g_autoptr(GError) local = NULL;
      g_autoptr(JvmsRecordExpr) e = jvms_record_expr_parse (filters[i], table, &local);
      if (e == NULL)
        {
          if (name != NULL)
            g_set_error (error, local->domain, local->code, "%s: record set “%s”: %s", self->path,
                         name, local->message);
          else
            g_propagate_error (error, g_steal_pointer (&local));
          return NULL;
        }
      jvms_record_set_filter (set, table, e);
    }
  const char * const *lists[] = { unions, def->intersects, def->minus };
  for (guint l = 0; l < G_N_ELEMENTS (lists); l++)
    for (guint i = 0; lists[l] != NULL && lists[l][i] != NULL; i++)
      {
        g_autoptr(JvmsRecordSet) other = evaluate (self, lists[l][i], table, source, depth + 1, done, error);
        if (other == NULL)
          return NULL;
        if (l == 0)
          jvms_record_set_union (set, other);
        else if (l == 1)
          jvms_record_set_intersect (set, other);
        else
          jvms_record_set_subtract (set, other);
      }
  return g_steal_pointer (&set);
}

JvmsRecordSet *
jvms_record_sets_evaluate (JvmsRecordSets *self, const char *name, JvmsRecordTable *table,
                           const char *source, GError **error)
{
  g_autoptr(GHashTable) done = memo_new ();
  return evaluate (self, name, table, source, 0, done, error);
}

JvmsRecordSet *
jvms_record_sets_evaluate_def (JvmsRecordSets *self, const JvmsRecordSetDef *def,
                               JvmsRecordTable *table, GError **error)
{
  g_autoptr(GHashTable) done = memo_new ();
  return evaluate_def (self, NULL, def, table, def->source != NULL ? def->source : "quanta", 0, done, error);
}
