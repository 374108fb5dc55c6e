/* jvms-history-query.c: single, full and range queries.
 * While the history is being built the caller of these helpers holds h->lock (see
 * jvms-history-builder.c); the open nodes are searched in memory, the closed ones through the
 * cache. */
#include "jvms-history-private.h"

#define MAX_PATH 80

/* The nodes on the path of one time: closed nodes (decoded, referenced) and, while building,
 * the open levels from the root down to open_from. */
typedef struct
{
  JvmsNode *nodes[MAX_PATH];
  guint     n_nodes;
  guint     open_from; /* open levels [open_from, n_open) are on the path; n_open when none */
} Path;

static void
path_clear (Path *p)
{
  for (guint i = 0; i < p->n_nodes; i++)
    jvms_node_unref (p->nodes[i]);
  p->n_nodes = 0;
}

/* Descends from a closed node reference down to the leaf holding @t. */
static gboolean
descend_closed (JvmsHistory *h, guint64 offset, guint32 csize, guint32 level, gint64 start,
                gint64 max_end, gint64 t, Path *path, GError **error)
{
  for (;;)
    {
      JvmsNode *n = jvms_history_get_node (h, offset, csize, level, start, max_end, error);
      if (n == NULL)
        return FALSE;
      if (path->n_nodes == MAX_PATH)
        {
          jvms_node_unref (n);
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                       "%s: the tree is deeper than %d levels", h->path, MAX_PATH);
          return FALSE;
        }
      path->nodes[path->n_nodes++] = n;
      if (t >= n->end || n->level == 0)
        return TRUE;
      gssize c = jvms_node_child_at (n, t);
      if (c < 0)
        return TRUE;
      offset = n->children[c].offset;
      csize = n->children[c].csize;
      start = n->children[c].start;
      max_end = (guint) c + 1 < n->n_children ? n->children[c + 1].start : n->end;
      level = n->level - 1;
      if (t >= max_end)
        return TRUE;
    }
}

static gboolean
path_of (JvmsHistory *h, gint64 t, Path *path, GError **error)
{
  path->n_nodes = 0;
  if (h->open == NULL)
    {
      path->open_from = 0;
      return descend_closed (h, h->root_offset, h->root_csize, h->depth - 1, h->start_time,
                             h->end_time, t, path, error);
    }
  guint l = h->n_open - 1;
  for (;;)
    {
      path->open_from = l;
      if (l == 0)
        return TRUE;
      if (t >= h->open[l - 1].start)
        {
          l--;
          continue;
        }
      /* A closed child of this open node. */
      JvmsOpenNode *on = &h->open[l];
      guint lo = 0, hi = on->n_children;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (on->children[mid].start <= t)
            lo = mid + 1;
          else
            hi = mid;
        }
      if (lo == 0)
        return TRUE;
      lo--;
      gint64 max_end = lo + 1 < on->n_children ? on->children[lo + 1].start : h->open[l - 1].start;
      if (t >= max_end)
        return TRUE;
      return descend_closed (h, on->children[lo].offset, on->children[lo].csize, l - 1,
                             on->children[lo].start, max_end, t, path, error);
    }
}

static void
interval_out (JvmsHistory *h, guint32 attr, gint64 s, gint64 e, guint8 type, guint64 bits,
              JvmsInterval *out)
{
  out->attribute = attr;
  out->start = s;
  out->end = e;
  jvms_history_value_out (h, type, bits, &out->value);
}

/* The time a query at @t looks up: the end of a complete history maps to its last instant. */
static gboolean
check_time (JvmsHistory *h, gint64 *t, GError **error)
{
  if (*t < h->start_time || *t > h->end_time)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: time %" G_GINT64_FORMAT " is outside the history [%" G_GINT64_FORMAT
                   ", %" G_GINT64_FORMAT "]", h->path, *t, h->start_time, h->end_time);
      return FALSE;
    }
  if (h->open == NULL && *t == h->end_time && h->end_time > h->start_time)
    (*t)--;
  return TRUE;
}

static gboolean
single_locked (JvmsHistory *h, JvmsAttribute attr, gint64 t, JvmsInterval *out, GError **error)
{
  if (attr >= jvms_attr_tree_size (h->attrs))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: unknown attribute %u", h->path, attr);
      return FALSE;
    }
  if (!check_time (h, &t, error))
    return FALSE;
  if (h->open == NULL && h->end_time == h->start_time)
    {
      interval_out (h, attr, h->start_time, h->end_time, JVMS_VALUE_NULL, 0, out);
      return TRUE;
    }
  Path path;
  if (!path_of (h, t, &path, error))
    {
      path_clear (&path);
      return FALSE;
    }
  gboolean found = FALSE;
  for (guint i = 0; i < path.n_nodes && !found; i++)
    {
      JvmsNode *n = path.nodes[i];
      gssize k = jvms_node_find (n, attr, t);
      if (k >= 0)
        {
          interval_out (h, attr, n->starts[k], n->ends[k], n->types[k], n->bits[k], out);
          found = TRUE;
        }
    }
  if (h->open && !found)
    {
      for (guint l = path.open_from; l < h->n_open && !found; l++)
        {
          JvmsOpenNode *on = &h->open[l];
          if (on->seen[attr] != on->serial)
            continue;
          for (guint i = on->n; i-- > 0;)
            {
              const JvmsRawInterval *r = &on->iv[i];
              if (r->attr == attr && r->start <= t && t < r->end)
                {
                  interval_out (h, attr, r->start, r->end, r->type, r->bits, out);
                  found = TRUE;
                  break;
                }
            }
        }
      if (!found && h->current[attr].start <= t)
        {
          /* Still going: reported as ending at the end of what is indexed. */
          const JvmsCurrent *c = &h->current[attr];
          interval_out (h, attr, c->start, h->end_time, c->type, c->bits, out);
          found = TRUE;
        }
    }
  path_clear (&path);
  if (!found)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: no interval of attribute %u holds at %" G_GINT64_FORMAT
                   " on the tree's path", h->path, attr, t);
      return FALSE;
    }
  return TRUE;
}

gboolean
jvms_history_query_single (JvmsHistory *self, JvmsAttribute attribute, gint64 time,
                           JvmsInterval *out, GError **error)
{
  g_return_val_if_fail (self != NULL && out != NULL, FALSE);
  gboolean locked = jvms_history_lock_if_live (self);
  gboolean ok = single_locked (self, attribute, time, out, error);
  jvms_history_unlock_if (self, locked);
  return ok;
}

static gboolean
full_locked (JvmsHistory *h, gint64 t, GArray *out, GError **error)
{
  guint n_attrs = jvms_attr_tree_size (h->attrs);
  g_array_set_size (out, 0);
  if (!check_time (h, &t, error))
    return FALSE;
  g_array_set_size (out, n_attrs);
  JvmsInterval *o = (JvmsInterval *) out->data;
  for (guint a = 0; a < n_attrs; a++)
    o[a].attribute = JVMS_ATTRIBUTE_INVALID;
  if (h->open == NULL && h->end_time == h->start_time)
    {
      for (guint a = 0; a < n_attrs; a++)
        interval_out (h, a, h->start_time, h->end_time, JVMS_VALUE_NULL, 0, &o[a]);
      return TRUE;
    }
  Path path;
  if (!path_of (h, t, &path, error))
    {
      path_clear (&path);
      g_array_set_size (out, 0);
      return FALSE;
    }
  for (guint i = 0; i < path.n_nodes; i++)
    {
      JvmsNode *n = path.nodes[i];
      for (guint g = 0; g < n->n_groups; g++)
        {
          guint lo = n->group_first[g], hi = n->group_first[g + 1], first = lo;
          while (lo < hi)
            {
              guint mid = (lo + hi) / 2;
              if (n->starts[mid] <= t)
                lo = mid + 1;
              else
                hi = mid;
            }
          if (lo > first && t < n->ends[lo - 1])
            interval_out (h, n->group_attr[g], n->starts[lo - 1], n->ends[lo - 1],
                          n->types[lo - 1], n->bits[lo - 1], &o[n->group_attr[g]]);
        }
    }
  path_clear (&path);
  if (h->open)
    {
      for (guint l = path.open_from; l < h->n_open; l++)
        {
          JvmsOpenNode *on = &h->open[l];
          for (guint i = 0; i < on->n; i++)
            {
              const JvmsRawInterval *r = &on->iv[i];
              if (r->start <= t && t < r->end)
                interval_out (h, r->attr, r->start, r->end, r->type, r->bits, &o[r->attr]);
            }
        }
      for (guint a = 0; a < n_attrs; a++)
        if (o[a].attribute == JVMS_ATTRIBUTE_INVALID && h->current[a].start <= t)
          interval_out (h, a, h->current[a].start, h->end_time, h->current[a].type,
                        h->current[a].bits, &o[a]);
    }
  for (guint a = 0; a < n_attrs; a++)
    if (o[a].attribute == JVMS_ATTRIBUTE_INVALID)
      {
        g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                     "%s: no interval of attribute %u holds at %" G_GINT64_FORMAT
                     " on the tree's path", h->path, a, t);
        g_array_set_size (out, 0);
        return FALSE;
      }
  return TRUE;
}

gboolean
jvms_history_query_full (JvmsHistory *self, gint64 time, GArray *out, GError **error)
{
  g_return_val_if_fail (self != NULL && out != NULL, FALSE);
  g_return_val_if_fail (g_array_get_element_size (out) == sizeof (JvmsInterval), FALSE);
  gboolean locked = jvms_history_lock_if_live (self);
  gboolean ok = full_locked (self, time, out, error);
  jvms_history_unlock_if (self, locked);
  return ok;
}

/* ---- range ---- */

static void
visit_node (const JvmsNode *n, gint64 t0, gint64 t1, const guint8 *want, JvmsVisitFunc func,
            gpointer data)
{
  for (guint g = 0; g < n->n_groups; g++)
    {
      guint32 a = n->group_attr[g];
      if (want && !want[a])
        continue;
      /* Ends increase within a group: the first interval ending after t0. */
      guint lo = n->group_first[g], hi = n->group_first[g + 1];
      guint last = hi;
      while (lo < hi)
        {
          guint mid = (lo + hi) / 2;
          if (n->ends[mid] <= t0)
            lo = mid + 1;
          else
            hi = mid;
        }
      for (guint k = lo; k < last && n->starts[k] <= t1; k++)
        func (data, a, n->starts[k], n->ends[k], n->types[k], n->bits[k]);
    }
}

static gboolean
visit_closed (JvmsHistory *h, guint64 offset, guint32 csize, guint32 level, gint64 start,
              gint64 max_end, gint64 t0, gint64 t1, const guint8 *want, JvmsVisitFunc func,
              gpointer data, guint depth, GError **error)
{
  if (depth > MAX_PATH)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: the tree is deeper than %d levels", h->path, MAX_PATH);
      return FALSE;
    }
  g_autoptr (JvmsNode) n = jvms_history_get_node (h, offset, csize, level, start, max_end, error);
  if (n == NULL)
    return FALSE;
  if (n->end <= t0)
    return TRUE; /* its intervals all end at or before t0 */
  visit_node (n, t0, t1, want, func, data);
  for (guint c = 0; c < n->n_children; c++)
    {
      gint64 cs = n->children[c].start;
      gint64 ce = c + 1 < n->n_children ? n->children[c + 1].start : n->end;
      if (cs > t1 || ce <= t0)
        continue;
      if (!visit_closed (h, n->children[c].offset, n->children[c].csize, n->level - 1, cs, ce,
                         t0, t1, want, func, data, depth + 1, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
jvms_history_visit (JvmsHistory *h, gint64 t0, gint64 t1, const guint8 *want, JvmsVisitFunc func,
                    gpointer data, GError **error)
{
  if (h->open == NULL)
    return visit_closed (h, h->root_offset, h->root_csize, h->depth - 1, h->start_time,
                         h->end_time, t0, t1, want, func, data, 0, error);
  guint n_attrs = jvms_attr_tree_size (h->attrs);
  for (guint l = 0; l < h->n_open; l++)
    {
      JvmsOpenNode *on = &h->open[l];
      for (guint i = 0; i < on->n; i++)
        {
          const JvmsRawInterval *r = &on->iv[i];
          if ((want == NULL || want[r->attr]) && r->start <= t1 && r->end > t0)
            func (data, r->attr, r->start, r->end, r->type, r->bits);
        }
      for (guint c = 0; c < on->n_children; c++)
        {
          gint64 cs = on->children[c].start;
          gint64 ce = c + 1 < on->n_children ? on->children[c + 1].start : h->open[l - 1].start;
          if (cs > t1 || ce <= t0)
            continue;
          if (!visit_closed (h, on->children[c].offset, on->children[c].csize, l - 1, cs, ce,
                             t0, t1, want, func, data, 0, error))
            return FALSE;
        }
    }
  for (guint a = 0; a < n_attrs; a++)
    if ((want == NULL || want[a]) && h->current[a].start <= t1 && h->end_time >= t0)
      func (data, a, h->current[a].start, h->end_time, h->current[a].type, h->current[a].bits);
  return TRUE;
}

typedef struct
{
  JvmsHistory *h;
  GArray      *out;
} CollectData;

static void
collect_one (gpointer data, guint32 attr, gint64 s, gint64 e, guint8 type, guint64 bits)
{
  CollectData *cd = data;
  JvmsInterval iv;
  interval_out (cd->h, attr, s, e, type, bits, &iv);
  g_array_append_val (cd->out, iv);
}

gboolean
jvms_history_collect (JvmsHistory *h, gint64 t0, gint64 t1, const guint8 *want, GArray *out,
                      GError **error)
{
  CollectData cd = { h, out };
  return jvms_history_visit (h, t0, t1, want, collect_one, &cd, error);
}

struct _JvmsHistoryRange
{
  JvmsHistory *history;
  GArray      *items; /* JvmsInterval in output order */
  guint        next;
};

static int
cmp_interval (const void *a, const void *b)
{
  const JvmsInterval *x = a, *y = b;
  if (x->attribute != y->attribute)
    return x->attribute < y->attribute ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

JvmsHistoryRange *
jvms_history_query_range (JvmsHistory         *self,
                          gint64               t0,
                          gint64               t1,
                          const JvmsAttribute *attributes,
                          guint                n_attributes,
                          GError             **error)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (attributes != NULL || n_attributes == 0, NULL);
  if (t1 < t0)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: range [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] ends before it starts",
                   self->path, t0, t1);
      return NULL;
    }
  gboolean locked = jvms_history_lock_if_live (self);
  guint n_attrs = jvms_attr_tree_size (self->attrs);
  g_autofree guint8 *want = g_new0 (guint8, MAX (n_attrs, 1));
  for (guint i = 0; i < n_attributes; i++)
    {
      if (attributes[i] >= n_attrs)
        {
          g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                       "%s: unknown attribute %u", self->path, attributes[i]);
          jvms_history_unlock_if (self, locked);
          return NULL;
        }
      want[attributes[i]] = 1;
    }
  g_autoptr (GArray) all = g_array_new (FALSE, FALSE, sizeof (JvmsInterval));
  gboolean ok = n_attributes == 0 || jvms_history_collect (self, t0, t1, want, all, error);
  jvms_history_unlock_if (self, locked);
  if (!ok)
    return NULL;
  if (all->len > 1)
    qsort (all->data, all->len, sizeof (JvmsInterval), cmp_interval);

  JvmsHistoryRange *r = g_new0 (JvmsHistoryRange, 1);
  r->history = jvms_history_ref (self);
  /* In the caller's attribute order; a repeated attribute repeats its intervals. */
  if (n_attributes == 1 || all->len == 0)
    r->items = g_steal_pointer (&all);
  else
    {
      r->items = g_array_sized_new (FALSE, FALSE, sizeof (JvmsInterval), all->len);
      const JvmsInterval *v = (const JvmsInterval *) all->data;
      for (guint i = 0; i < n_attributes; i++)
        {
          guint lo = 0, hi = all->len;
          while (lo < hi)
            {
              guint mid = (lo + hi) / 2;
              if (v[mid].attribute < attributes[i])
                lo = mid + 1;
              else
                hi = mid;
            }
          guint e = lo;
          while (e < all->len && v[e].attribute == attributes[i])
            e++;
          g_array_append_vals (r->items, v + lo, e - lo);
        }
    }
  return r;
}

gboolean
jvms_history_range_next (JvmsHistoryRange *range, JvmsInterval *out, GError **error)
{
  g_return_val_if_fail (range != NULL && out != NULL, FALSE);
  if (range->next >= range->items->len)
    return FALSE;
  *out = g_array_index (range->items, JvmsInterval, range->next++);
  return TRUE;
}

void
jvms_history_range_free (JvmsHistoryRange *range)
{
  if (range == NULL)
    return;
  g_array_unref (range->items);
  jvms_history_unref (range->history);
  g_free (range);
}

static gboolean
check_closed (JvmsHistory *h, guint64 offset, guint32 csize, guint32 level, gint64 start,
              gint64 max_end, guint depth, guint64 *n_nodes, GError **error)
{
  if (depth > MAX_PATH)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: the tree is deeper than %d levels", h->path, MAX_PATH);
      return FALSE;
    }
  g_autoptr (JvmsNode) n = jvms_history_get_node (h, offset, csize, level, start, max_end, error);
  if (n == NULL)
    return FALSE;
  (*n_nodes)++;
  for (guint c = 0; c < n->n_children; c++)
    {
      gint64 ce = c + 1 < n->n_children ? n->children[c + 1].start : n->end;
      if (!check_closed (h, n->children[c].offset, n->children[c].csize, n->level - 1,
                         n->children[c].start, ce, depth + 1, n_nodes, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
jvms_history_check (JvmsHistory *self, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  if (!jvms_history_is_complete (self))
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: still being built", self->path);
      return FALSE;
    }
  guint64 n_nodes = 0;
  if (!check_closed (self, self->root_offset, self->root_csize, self->depth - 1, self->start_time,
                     self->end_time, 0, &n_nodes, error))
    return FALSE;
  if (n_nodes != self->n_nodes)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_CORRUPT,
                   "%s: the tree holds %" G_GUINT64_FORMAT " nodes, the header says %" G_GUINT64_FORMAT,
                   self->path, n_nodes, self->n_nodes);
      return FALSE;
    }
  return jvms_summary_check_all (self, error);
}
