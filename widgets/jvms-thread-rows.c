/* jvms-thread-rows.c: see jvms-thread-rows.h. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "jvms-state-names.h"
#include "jvms-thread-rows.h"

struct _JvmsThreadRows
{
  GArray     *rows;      /* JvmsThreadRow */
  GPtrArray  *groups;    /* JvmsThreadGroup* */
  GHashTable *toggled;   /* keys of the groups folded or unfolded against their default */
  gboolean    filtering; /* groups show unfolded, but for those in filter_toggled */
  GHashTable *filter_toggled;
  char       *filter;
  gint64      jvm_pid;
  JvmsThreadList *threads;
};

/* How the threads of a group are laid out under its header. */
typedef enum
{
  SUB_THREADS,   /* one row each */
  SUB_POOLS,     /* pools of POOL_MIN threads or more a group each, the rest one row each */
  SUB_PROCESSES, /* a group per process, by pid */
} SubGrouping;

static void
group_free (gpointer data)
{
  JvmsThreadGroup *g = data;

  g_free (g->key);
  g_free (g->label);
  g_array_unref (g->members);
  g_free (g);
}

JvmsThreadRows *
jvms_thread_rows_new (void)
{
  JvmsThreadRows *self = g_new0 (JvmsThreadRows, 1);

  self->rows = g_array_new (FALSE, FALSE, sizeof (JvmsThreadRow));
  self->groups = g_ptr_array_new_with_free_func (group_free);
  self->toggled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->filter_toggled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  return self;
}

void
jvms_thread_rows_free (JvmsThreadRows *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->rows);
  g_ptr_array_unref (self->groups);
  g_hash_table_unref (self->toggled);
  g_hash_table_unref (self->filter_toggled);
  g_free (self->filter);
  g_free (self);
}

char *
jvms_thread_rows_kind_key (gint64 kind)
{
  return g_strconcat ("kind:", kind >= 0 && kind < JVMS_THREAD_KIND_N
                                 ? jvms_thread_kind_name ((JvmsThreadKind) kind) : "", NULL);
}

/* Where a group starts folded: the context (other processes, other processes than the JVM) and
 * the big pools, so that thousands of threads open as a few summary rows. */
static gboolean
default_folded (JvmsThreadRows  *self,
                JvmsThreadGroup *g,
                gint64           pid)
{
  if (g->kind == JVMS_THREAD_KIND_OTHER_PROCESS)
    return TRUE;
  if (strstr (g->key, "pid:") != NULL && strstr (g->key, "pool:") == NULL)
    return g->parent >= 0 || pid != self->jvm_pid || pid < 0;
  return strstr (g->key, "pool:") != NULL && g->members->len >= JVMS_THREAD_ROWS_POOL_FOLDED;
}

/* Adds a group (and its header row) over @members; returns its index. */
static int
add_group (JvmsThreadRows *self,
           int             parent,
           guint           depth,
           char           *key,
           char           *label,
           gint64          kind,
           gint64          pid,
           const guint    *members,
           guint           n_members)
{
  JvmsThreadGroup *g = g_new0 (JvmsThreadGroup, 1);
  JvmsThreadRow header = { depth, (int) self->groups->len, NULL };

  g->key = key;
  g->label = label;
  g->parent = parent;
  g->depth = depth;
  g->kind = kind;
  g->members = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_members);
  g_array_append_vals (g->members, members, n_members);
  /* While filtering, every group shows what matched unless folded during the search. */
  g->folded = self->filtering ? g_hash_table_contains (self->filter_toggled, key)
                              : default_folded (self, g, pid) != g_hash_table_contains (self->toggled, key);
  g_ptr_array_add (self->groups, g);
  g_array_append_val (self->rows, header);
  return header.group;
}

static const JvmsThreadInfo *
thread_at (JvmsThreadRows *self,
           guint           index)
{
  return jvms_thread_list_get (self->threads, index);
}

static void emit_members (JvmsThreadRows *self,
                          int             group,
                          guint           depth,
                          const guint    *members,
                          guint           n,
                          SubGrouping     sub);

/* A group over @members with its rows below unless it is folded. */
static void
emit_group (JvmsThreadRows *self,
            int             parent,
            guint           depth,
            char           *key,
            char           *label,
            gint64          kind,
            gint64          pid,
            const guint    *members,
            guint           n,
            SubGrouping     sub)
{
  int g = add_group (self, parent, depth, key, label, kind, pid, members, n);

  if (!((JvmsThreadGroup *) g_ptr_array_index (self->groups, g))->folded)
    emit_members (self, g, depth + 1, members, n, sub);
}

typedef struct
{
  gint64 order;
  guint  index;
} ByOrder;

static int
compare_by_order (gconstpointer a,
                  gconstpointer b)
{
  const ByOrder *x = a, *y = b;

  if (x->order != y->order)
    return x->order < y->order ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* The group key of @pid under @parent_key ("pid:42", "kind:other-process/pid:42"). */
static char *
process_key (const char *parent_key,
             gint64      pid)
{
  g_autofree char *own = pid >= 0 ? g_strdup_printf ("pid:%" G_GINT64_FORMAT, pid)
                                  : g_strdup ("pid:unknown");
  return parent_key != NULL ? g_strconcat (parent_key, "/", own, NULL) : g_steal_pointer (&own);
}

static char *
process_label (JvmsThreadRows *self,
               gint64          pid,
               const guint    *members,
               guint           n)
{
  g_autofree char *number = NULL;

  if (pid < 0)
    return g_strdup (_("Unknown process"));
  number = g_strdup_printf ("%" G_GINT64_FORMAT, pid);
  /* A process is named by its main thread, whose tid is the pid. */
  for (guint i = 0; i < n; i++)
    if (thread_at (self, members[i])->tid == pid)
      /* TRANSLATORS: a group of the threads view; the process id, then its name */
      return g_strdup_printf (_("Process %s (%s)"), number, thread_at (self, members[i])->name);
  /* TRANSLATORS: a group header of the threads view; %s is a process id */
  return g_strdup_printf (_("Process %s"), number);
}

/* A group per process, in pid order (the JVM first when @jvm_first, unknown last). */
static void
emit_processes (JvmsThreadRows *self,
                int             parent,
                guint           depth,
                const guint    *members,
                guint           n,
                gboolean        jvm_first,
                SubGrouping     sub)
{
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (ByOrder), n);
  const char *parent_key =
    parent >= 0 ? ((JvmsThreadGroup *) g_ptr_array_index (self->groups, parent))->key : NULL;
  g_autoptr(GArray) run = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < n; i++)
    {
      gint64 pid = thread_at (self, members[i])->pid;
      ByOrder e = { pid < 0 ? G_MAXINT64 : (jvm_first && pid == self->jvm_pid ? -1 : pid),
                    members[i] };
      g_array_append_val (sorted, e);
    }
  g_array_sort (sorted, compare_by_order);
  for (guint i = 0; i < sorted->len; )
    {
      gint64 pid = thread_at (self, g_array_index (sorted, ByOrder, i).index)->pid;
      guint j = i;

      g_array_set_size (run, 0);
      while (j < sorted->len &&
             thread_at (self, g_array_index (sorted, ByOrder, j).index)->pid == pid)
        {
          g_array_append_val (run, g_array_index (sorted, ByOrder, j).index);
          j++;
        }
      emit_group (self, parent, depth, process_key (parent_key, pid),
                  process_label (self, pid, (const guint *) run->data, run->len), -1, pid,
                  (const guint *) run->data, run->len, sub);
      i = j;
    }
}

typedef struct
{
  char   *name;
  GArray *members; /* guint */
} Pool;

static void
pool_free (gpointer data)
{
  Pool *p = data;

  g_free (p->name);
  g_array_unref (p->members);
  g_free (p);
}

static int
compare_pools (gconstpointer a,
               gconstpointer b)
{
  const Pool *x = *(Pool * const *) a, *y = *(Pool * const *) b;
  int c = g_strcmp0 (x->name, y->name);

  if (c != 0)
    return c;
  return g_array_index (x->members, guint, 0) < g_array_index (y->members, guint, 0) ? -1 : 1;
}

/* Pools of @members: those of at least @min threads are groups, at the place of their first
 * thread (or in name order when @by_name); the others' threads are rows of their own. */
static void
emit_pools (JvmsThreadRows *self,
            int             parent,
            guint           depth,
            const guint    *members,
            guint           n,
            guint           min,
            gboolean        by_name)
{
  g_autoptr(GHashTable) by_pool = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) pools = g_ptr_array_new_with_free_func (pool_free);
  g_autoptr(GPtrArray) of_member = g_ptr_array_sized_new (n);
  const char *parent_key =
    parent >= 0 ? ((JvmsThreadGroup *) g_ptr_array_index (self->groups, parent))->key : NULL;

  for (guint i = 0; i < n; i++)
    {
      const JvmsThreadInfo *t = thread_at (self, members[i]);
      /* A thread with no name known is named by its tid: no pool. */
      g_autofree char *name = g_str_equal (t->name, t->key) ? g_strdup (t->key)
                                                            : jvms_thread_pool_name (t->name);
      Pool *p = g_hash_table_lookup (by_pool, name);

      if (p == NULL)
        {
          p = g_new0 (Pool, 1);
          p->name = g_steal_pointer (&name);
          p->members = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (pools, p);
          g_hash_table_insert (by_pool, p->name, p);
        }
      g_array_append_val (p->members, members[i]);
      g_ptr_array_add (of_member, p);
    }
  if (by_name)
    g_ptr_array_sort (pools, compare_pools);

  for (guint i = 0; i < (by_name ? pools->len : n); i++)
    {
      Pool *p = by_name ? g_ptr_array_index (pools, i) : g_ptr_array_index (of_member, i);

      if (p->members->len < min)
        {
          JvmsThreadRow row = { depth, parent, thread_at (self, members[i]) };
          g_array_append_val (self->rows, row);
          continue;
        }
      if (p->name == NULL)
        continue; /* emitted at its first thread */
      emit_group (self, parent, depth,
                  parent_key != NULL ? g_strconcat (parent_key, "/pool:", p->name, NULL)
                                     : g_strconcat ("pool:", p->name, NULL),
                  g_strdup (p->name), -1, -1, (const guint *) p->members->data, p->members->len,
                  SUB_THREADS);
      g_hash_table_remove (by_pool, p->name);
      g_clear_pointer (&p->name, g_free);
    }
}

static void
emit_members (JvmsThreadRows *self,
              int             group,
              guint           depth,
              const guint    *members,
              guint           n,
              SubGrouping     sub)
{
  switch (sub)
    {
    case SUB_PROCESSES:
      emit_processes (self, group, depth, members, n, FALSE, SUB_THREADS);
      break;
    case SUB_POOLS:
      emit_pools (self, group, depth, members, n, JVMS_THREAD_ROWS_POOL_MIN, FALSE);
      break;
    case SUB_THREADS:
    default:
      for (guint i = 0; i < n; i++)
        {
          JvmsThreadRow row = { depth, group, thread_at (self, members[i]) };
          g_array_append_val (self->rows, row);
        }
      break;
    }
}

static gboolean
matches (const JvmsThreadInfo *t,
         const char           *filter)
{
  g_autofree char *name = NULL;

  if (filter == NULL || filter[0] == '\0')
    return TRUE;
  if (strstr (t->key, filter) != NULL)
    return TRUE;
  name = g_utf8_casefold (t->name, -1);
  return strstr (name, filter) != NULL;
}

void
jvms_thread_rows_build (JvmsThreadRows     *self,
                        JvmsThreadList     *threads,
                        JvmsThreadGrouping  grouping,
                        gint64              jvm_pid,
                        const char         *filter)
{
  guint n = threads != NULL ? jvms_thread_list_get_len (threads) : 0;
  g_autoptr(GArray) kept = g_array_sized_new (FALSE, FALSE, sizeof (guint), n);

  g_array_set_size (self->rows, 0);
  g_ptr_array_set_size (self->groups, 0);
  self->threads = threads;
  self->jvm_pid = jvm_pid;
  self->filtering = filter != NULL && filter[0] != '\0';
  if (g_strcmp0 (filter, self->filter) != 0)
    {
      g_hash_table_remove_all (self->filter_toggled);
      g_free (self->filter);
      self->filter = g_strdup (filter);
    }
  for (guint i = 0; i < n; i++)
    if (matches (jvms_thread_list_get (threads, i), filter))
      g_array_append_val (kept, i);

  switch (grouping)
    {
    case JVMS_THREAD_GROUPING_NONE:
      emit_members (self, -1, 0, (const guint *) kept->data, kept->len, SUB_THREADS);
      break;
    case JVMS_THREAD_GROUPING_PROCESS:
      emit_processes (self, -1, 0, (const guint *) kept->data, kept->len, TRUE, SUB_POOLS);
      break;
    case JVMS_THREAD_GROUPING_POOL:
      emit_pools (self, -1, 0, (const guint *) kept->data, kept->len, 1, TRUE);
      break;
    case JVMS_THREAD_GROUPING_KIND:
    default:
      {
        g_autoptr(GArray) of_kind = g_array_new (FALSE, FALSE, sizeof (guint));

        /* The kinds in their order, then threads of unknown kind. */
        for (gint64 kind = 0; kind <= JVMS_THREAD_KIND_N; kind++)
          {
            gint64 k = kind < JVMS_THREAD_KIND_N ? kind : -1;

            g_array_set_size (of_kind, 0);
            for (guint i = 0; i < kept->len; i++)
              {
                gint64 tk = thread_at (self, g_array_index (kept, guint, i))->kind;
                if ((tk >= 0 && tk < JVMS_THREAD_KIND_N ? tk : -1) == k)
                  g_array_append_val (of_kind, g_array_index (kept, guint, i));
              }
            if (of_kind->len == 0)
              continue;
            emit_group (self, -1, 0, jvms_thread_rows_kind_key (k),
                        g_strdup (k >= 0 ? jvms_thread_kind_display_name (k) : _("Other threads")),
                        k, -1, (const guint *) of_kind->data, of_kind->len,
                        k == JVMS_THREAD_KIND_OTHER_PROCESS ? SUB_PROCESSES : SUB_POOLS);
          }
      }
      break;
    }
}

guint
jvms_thread_rows_get_n_rows (JvmsThreadRows *self)
{
  return self->rows->len;
}

const JvmsThreadRow *
jvms_thread_rows_get_row (JvmsThreadRows *self,
                          guint           row)
{
  g_return_val_if_fail (row < self->rows->len, NULL);
  return &g_array_index (self->rows, JvmsThreadRow, row);
}

guint
jvms_thread_rows_get_n_groups (JvmsThreadRows *self)
{
  return self->groups->len;
}

const JvmsThreadGroup *
jvms_thread_rows_get_group (JvmsThreadRows *self,
                            guint           group)
{
  g_return_val_if_fail (group < self->groups->len, NULL);
  return g_ptr_array_index (self->groups, group);
}

static JvmsThreadGroup *
find_group (JvmsThreadRows *self,
            const char     *key)
{
  for (guint i = 0; i < self->groups->len; i++)
    {
      JvmsThreadGroup *g = g_ptr_array_index (self->groups, i);
      if (g_str_equal (g->key, key))
        return g;
    }
  return NULL;
}

gboolean
jvms_thread_rows_is_folded (JvmsThreadRows *self,
                            const char     *key)
{
  JvmsThreadGroup *g = find_group (self, key);

  return g != NULL ? g->folded : FALSE;
}

gboolean
jvms_thread_rows_set_folded (JvmsThreadRows *self,
                             const char     *key,
                             gboolean        folded)
{
  JvmsThreadGroup *g = find_group (self, key);
  /* Remembered as a change from the group's default (which follows its size and place), so
   * that it survives rebuilds, regroupings and a growing history. */
  GHashTable *toggled = self->filtering ? self->filter_toggled : self->toggled;

  if (g == NULL || g->folded == !!folded)
    return FALSE;
  if (!g_hash_table_remove (toggled, key))
    g_hash_table_add (toggled, g_strdup (key));
  g->folded = !!folded;
  return TRUE;
}
