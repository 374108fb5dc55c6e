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

/* How many of the @n increasing times @v are at or before @t: over a group's starts, the last
 * of those may hold @t; over its ends (which increase too), the first interval ending after @t. */
static guint
count_upto (const gint64 *v, guint n, gint64 t)
{
  guint lo = 0, hi = n;
  while (lo < hi)
    {
      guint mid = (lo + hi) / 2;
      if (v[mid] <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
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
      const JvmsGroupColumns *c;
      gsize charge = 0;
      int got = jvms_node_memo_group (path.nodes[i], attr, h->path, &charge, &c, error);
      if (charge > 0)
        jvms_node_cache_charge (h->cache, path.nodes[i], charge);
      if (got < 0)
        {
          path_clear (&path);
          return FALSE;
        }
      if (got == 0)
        continue;
      guint lo = count_upto (c->starts, c->n, t);
      if (lo > 0 && t < c->ends[lo - 1])
        {
          interval_out (h, attr, c->starts[lo - 1], c->ends[lo - 1], c->types[lo - 1],
                        c->bits[lo - 1], out);
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
      gsize charge = 0;
      for (guint b = 0; b < n->n_blocks; b++)
        {
          const guint32 *attrs;
          const JvmsGroupColumns *cols;
          int n_groups = jvms_node_memo_block (n, b, h->path, &charge, &attrs, &cols, error);
          if (n_groups < 0)
            {
              path_clear (&path);
              g_array_set_size (out, 0);
              return FALSE;
            }
          for (int g = 0; g < n_groups; g++)
            {
              const JvmsGroupColumns *c = &cols[g];
              guint k = count_upto (c->starts, c->n, t);
              if (k > 0 && t < c->ends[k - 1])
                interval_out (h, attrs[g], c->starts[k - 1], c->ends[k - 1], c->types[k - 1],
                              c->bits[k - 1], &o[attrs[g]]);
            }
        }
      if (charge > 0)
        jvms_node_cache_charge (h->cache, n, charge);
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

/* A wanted group of a node that a range query meets: its columns kept with the node, from
 * index @k to @last. */
typedef struct
{
  const JvmsGroupColumns *cols;
  guint                   k, last;
  guint32                 attr;
} GroupCursor;

/* Cursors kept on the stack; a query of more attributes allocates. */
#define STACK_CURSORS 16

/* A run of one attribute's intervals, [from, to) of a group's columns, in time order: what a
 * range query's visit hands over at once (range_gather), rather than interval by interval. */
typedef void (*RunFunc) (gpointer data, guint32 attr, const JvmsGroupColumns *g, guint from,
                         guint to);

/* What a range query asks for: @want marks them (NULL: all), @set lists them in increasing
 * order when the caller knows them (NULL: found by walking the groups); @run, when set, takes
 * the closed nodes' intervals a run at a time instead of the visit's function. */
typedef struct
{
  const guint8  *want;
  const guint32 *set;
  guint          n_set;
  RunFunc        run;
} Wanted;

/* Visits the intervals left in @cur that start before @before (and at or before @t1). */
static void
visit_before (GroupCursor *cur, guint n_cur, gint64 before, gint64 t1, const Wanted *w,
              JvmsVisitFunc func, gpointer data)
{
  for (guint i = 0; i < n_cur; i++)
    {
      GroupCursor *c = &cur[i];
      const JvmsGroupColumns *g = c->cols;
      /* The run ends at the first start past MIN (t1, before - 1): a few steps, then a binary
       * search (a node's group of a busy attribute holds thousands, run out at once). */
      gint64 upto = MIN (t1, before - 1);
      guint k = c->k, stop = MIN (c->last, k + 8);
      while (k < stop && g->starts[k] <= upto)
        k++;
      if (k == stop && k < c->last)
        k += count_upto (g->starts + k, c->last - k, upto);
      if (w->run != NULL && k > c->k)
        w->run (data, c->attr, g, c->k, k);
      else
        for (guint j = c->k; j < k; j++)
          func (data, c->attr, g->starts[j], g->ends[j], g->types[j], g->bits[j]);
      c->k = k;
    }
}

/* Opens a cursor on each wanted group of @n: by seeking each attribute when the node holds many
 * more groups than are asked for (a node holds every attribute that changed in its range), by
 * walking the groups otherwise. */
static void
cursor_add (GroupCursor **cur, guint *n_cur, guint *cap, const JvmsGroupColumns *cols,
            guint32 attr, gint64 t0)
{
  if (*n_cur == *cap)
    {
      guint ncap = *cap * 2;
      GroupCursor *grown = g_new (GroupCursor, ncap);
      memcpy (grown, *cur, *n_cur * sizeof (GroupCursor));
      if (*cap != STACK_CURSORS)
        g_free (*cur);
      *cur = grown;
      *cap = ncap;
    }
  (*cur)[(*n_cur)++] = (GroupCursor) { cols, count_upto (cols->ends, cols->n, t0), cols->n, attr };
}

/* Opens a cursor on each wanted group of @n: by seeking each attribute when the node holds many
 * more groups than are asked for (a node holds every attribute that changed in its range), by
 * going through every block otherwise. Either way the blocks met are decoded once and kept
 * with the node. */
static gboolean
cursors_open (JvmsHistory *h, JvmsNode *n, const Wanted *w, gint64 t0, GroupCursor **cur,
              guint *n_cur, guint *cap, gsize *charge, GError **error)
{
  if (w->set != NULL && (gsize) w->n_set * 4 < n->n_groups)
    {
      const JvmsGroupColumns *stack[STACK_CURSORS];
      g_autofree const JvmsGroupColumns **heap =
        w->n_set > STACK_CURSORS ? g_new (const JvmsGroupColumns *, w->n_set) : NULL;
      const JvmsGroupColumns **cols = heap != NULL ? heap : stack;
      if (jvms_node_memo_set (n, w->set, w->n_set, h->path, charge, cols, error) < 0)
        return FALSE;
      for (guint i = 0; i < w->n_set; i++)
        if (cols[i] != NULL)
          cursor_add (cur, n_cur, cap, cols[i], w->set[i], t0);
      return TRUE;
    }
  for (guint b = 0; b < n->n_blocks; b++)
    {
      const guint32 *attrs;
      const JvmsGroupColumns *cols;
      int n_groups = jvms_node_memo_block (n, b, h->path, charge, &attrs, &cols, error);
      if (n_groups < 0)
        return FALSE;
      for (int g = 0; g < n_groups; g++)
        if (w->want == NULL || w->want[attrs[g]])
          cursor_add (cur, n_cur, cap, &cols[g], attrs[g], t0);
    }
  return TRUE;
}

static gboolean
visit_closed (JvmsHistory *h, guint64 offset, guint32 csize, guint32 level, gint64 start,
              gint64 max_end, gint64 t0, gint64 t1, const Wanted *w, JvmsVisitFunc func,
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
  /* For wanted attributes, in time order: a node's interval of an attribute comes after that
   * attribute's intervals in the children that start at or before it, before those in the
   * children after (it was kept here because it began before the child that was open when it
   * ended; one attribute's intervals never overlap, and a group's, sorted by end, are by start
   * too). So each attribute's intervals come out sorted, and a range query need not sort them
   * (jvms_history_query_range). Without @want, every group is a wanted one. */
  GroupCursor stack[STACK_CURSORS];
  GroupCursor *cur = stack;
  guint n_cur = 0, cap = STACK_CURSORS;
  gsize charge = 0;
  gboolean ok = cursors_open (h, n, w, t0, &cur, &n_cur, &cap, &charge, error);
  if (charge > 0)
    jvms_node_cache_charge (h->cache, n, charge);
  /* Only the children that meet [t0, t1] are visited; the node's intervals before each are
   * handed over just before it (those before a child passed over go with the next visited, in
   * the same order), and none is asked of the cursors at the others: a node of a hundred
   * children met by a window of a few was a hundred calls over every cursor. */
  for (guint c = 0; c < n->n_children && ok; c++)
    {
      gint64 cs = n->children[c].start;
      gint64 ce = c + 1 < n->n_children ? n->children[c + 1].start : n->end;
      if (cs > t1)
        break;
      if (ce <= t0)
        continue;
      visit_before (cur, n_cur, cs, t1, w, func, data);
      ok = visit_closed (h, n->children[c].offset, n->children[c].csize, n->level - 1, cs, ce,
                         t0, t1, w, func, data, depth + 1, error);
    }
  if (ok)
    visit_before (cur, n_cur, G_MAXINT64, t1, w, func, data);
  if (cur != stack)
    g_free (cur);
  return ok;
}

static gboolean
visit (JvmsHistory *h, gint64 t0, gint64 t1, const Wanted *w, JvmsVisitFunc func, gpointer data,
       GError **error)
{
  const guint8 *want = w->want;
  if (h->open == NULL)
    return visit_closed (h, h->root_offset, h->root_csize, h->depth - 1, h->start_time,
                         h->end_time, t0, t1, w, func, data, 0, error);
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
                             t0, t1, w, func, data, 0, error))
            return FALSE;
        }
    }
  for (guint a = 0; a < n_attrs; a++)
    if ((want == NULL || want[a]) && h->current[a].start <= t1 && h->end_time >= t0)
      func (data, a, h->current[a].start, h->end_time, h->current[a].type, h->current[a].bits);
  return TRUE;
}

gboolean
jvms_history_visit (JvmsHistory *h, gint64 t0, gint64 t1, const guint8 *want, JvmsVisitFunc func,
                    gpointer data, GError **error)
{
  Wanted w = { want, NULL, 0, NULL };
  return visit (h, t0, t1, &w, func, data, error);
}

gboolean
jvms_history_visit_set (JvmsHistory *h, gint64 t0, gint64 t1, const guint8 *want,
                        const guint32 *set, guint n_set, JvmsVisitFunc func, gpointer data,
                        GError **error)
{
  Wanted w = { want, set, n_set, NULL };
  return visit (h, t0, t1, &w, func, data, error);
}

static int
cmp_u32 (const void *a, const void *b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  return x < y ? -1 : x > y;
}

guint32 *
jvms_attribute_set (const JvmsAttribute *attributes, guint n_attributes, guint *n_out)
{
  guint32 *set = g_new (guint32, MAX (n_attributes, 1));
  memcpy (set, attributes, n_attributes * sizeof (guint32));
  qsort (set, n_attributes, sizeof (guint32), cmp_u32);
  guint n = 0;
  for (guint i = 0; i < n_attributes; i++)
    if (n == 0 || set[n - 1] != set[i])
      set[n++] = set[i];
  *n_out = n;
  return set;
}

typedef struct
{
  JvmsHistory   *h;
  const guint8  *slot8;   /* attribute -> 1 + its bucket, unless slot32 */
  const guint32 *slot32;
  GArray       **buckets;
  const guint   *base;     /* each bucket's length before the query */
  guint8        *unsorted; /* a bucket got an interval starting before the one before it */
  gboolean       valued;   /* intervals without a value (or a length) left out */
} BucketData;

static void
bucket_one (gpointer data, guint32 attr, gint64 s, gint64 e, guint8 type, guint64 bits)
{
  BucketData *bd = data;
  if (bd->valued && (type == JVMS_VALUE_NULL || e <= s))
    return;
  guint b = (bd->slot32 != NULL ? bd->slot32[attr] : bd->slot8[attr]) - 1;
  GArray *a = bd->buckets[b];
  if (a->len > bd->base[b] && s < g_array_index (a, JvmsInterval, a->len - 1).start)
    bd->unsorted[b] = 1;
  g_array_set_size (a, a->len + 1);
  interval_out (bd->h, attr, s, e, type, bits, &g_array_index (a, JvmsInterval, a->len - 1));
}

/* bucket_one for a run of one attribute's intervals: the bucket grown once, integers written
 * here (a long critical path takes millions of intervals, and a call and a growth each were a
 * tenth of its instructions). */
static void
bucket_run (gpointer data, guint32 attr, const JvmsGroupColumns *g, guint from, guint to)
{
  BucketData *bd = data;
  guint b = (bd->slot32 != NULL ? bd->slot32[attr] : bd->slot8[attr]) - 1;
  GArray *a = bd->buckets[b];
  guint at = a->len;
  /* A run's starts increase (a group's intervals follow each other): only its first can come
   * before what the bucket holds, which a live history's open nodes may give (a complete one's
   * tree gives each attribute's in time order). Checked here, not in a pass over the bucket
   * after (a tenth of the reads of a long critical path, with the caller's pass dropping those
   * without a value). */
  if (from < to && at > bd->base[b] && g->starts[from] < g_array_index (a, JvmsInterval, at - 1).start)
    bd->unsorted[b] = 1;
  g_array_set_size (a, at + (to - from));
  JvmsInterval *v = (JvmsInterval *) a->data;
  JvmsInterval *out = v + at;
  gboolean valued = bd->valued;
  /* The columns in locals: written through @out, which the compiler cannot tell from them, they
   * were loaded again at every interval (a third of this loop's instructions on the critical
   * path's p99 question, docs/benchmarks.md's fifteenth run). */
  const gint64 *starts = g->starts + from, *ends = g->ends + from;
  const guint64 *bits = g->bits + from;
  const guint8 *types = g->types + from;
  for (guint j = 0, n = to - from; j < n; j++)
    {
      gint64 s = starts[j], e = ends[j];
      guint8 type = types[j];
      if (valued && (type == JVMS_VALUE_NULL || e <= s))
        continue;
      out->attribute = attr;
      out->start = s;
      out->end = e;
      if (type == JVMS_VALUE_INT)
        {
          out->value.type = JVMS_VALUE_INT;
          out->value.i = (gint64) bits[j];
        }
      else
        jvms_history_value_out (bd->h, type, bits[j], &out->value);
      out++;
    }
  if (valued)
    g_array_set_size (a, (guint) (out - v));
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

static void
want_map_free (gpointer data)
{
  g_byte_array_unref (data);
}

/* The calling thread's map of the attributes a range query asks (@n bytes), all 0 but where a
 * query marks them, which it clears after: a query of a few attributes of a big history
 * allocated and zeroed one of the history's size each time (11 KB a query on the critical
 * path's bundle, thousands of queries a path). */
static guint8 *
want_map (guint n)
{
  static GPrivate key = G_PRIVATE_INIT (want_map_free);
  GByteArray *map = g_private_get (&key);
  if (map == NULL)
    {
      map = g_byte_array_new ();
      g_private_set (&key, map);
    }
  if (map->len < MAX (n, 1))
    {
      guint had = map->len;
      g_byte_array_set_size (map, MAX (n, 1));
      memset (map->data + had, 0, map->len - had);
    }
  return map->data;
}

/* Gathers the intervals of @attributes meeting [t0, t1] per distinct attribute: returns the
 * buckets (GArray of JvmsInterval each, in time order from base[b] on), and *index[i] the
 * bucket of @attributes[i]. With @outs, an attribute's bucket is the first outs[i] asking it,
 * appended to (base[b]: its length before). NULL on error. */
static GPtrArray *
range_gather (JvmsHistory *self, gint64 t0, gint64 t1, const JvmsAttribute *attributes,
              guint n_attributes, GArray **outs, gboolean valued, guint **index, guint **base,
              GError **error)
{
  if (t1 < t0)
    {
      g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                   "%s: range [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT "] ends before it starts",
                   self->path, t0, t1);
      return NULL;
    }
  gboolean locked = jvms_history_lock_if_live (self);
  guint n_attrs = jvms_attr_tree_size (self->attrs);
  for (guint i = 0; i < n_attributes; i++)
    if (attributes[i] >= n_attrs)
      {
        g_set_error (error, JVMS_HISTORY_ERROR, JVMS_HISTORY_ERROR_INVALID,
                     "%s: unknown attribute %u", self->path, attributes[i]);
        jvms_history_unlock_if (self, locked);
        return NULL;
      }
  guint8 *want = want_map (n_attrs);
  for (guint i = 0; i < n_attributes; i++)
    want[attributes[i]] = G_MAXUINT8; /* asked, its bucket not yet made */
  /* Gathered per attribute; a complete history's tree gives each one's in time order
   * (visit_closed), a live one's open nodes may not: an attribute's are sorted when they are not. */
  g_autoptr (GPtrArray) buckets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autofree guint32 *slot = NULL;
  guint *idx = g_new (guint, MAX (n_attributes, 1));
  for (guint i = 0; i < n_attributes && slot == NULL; i++)
    if (want[attributes[i]] == G_MAXUINT8)
      {
        g_ptr_array_add (buckets, outs != NULL ? g_array_ref (outs[i])
                                               : g_array_new (FALSE, FALSE, sizeof (JvmsInterval)));
        /* Up to 254 attributes, want says which bucket (1 + its index); more need a wider map,
         * made only then (one a query is 4 bytes an attribute of the history to clear). */
        if (buckets->len < G_MAXUINT8)
          want[attributes[i]] = (guint8) buckets->len;
        else
          slot = g_new0 (guint32, n_attrs);
      }
  if (slot != NULL)
    {
      g_ptr_array_set_size (buckets, 0);
      for (guint i = 0; i < n_attributes; i++)
        if (slot[attributes[i]] == 0)
          {
            g_ptr_array_add (buckets, outs != NULL ? g_array_ref (outs[i])
                                                   : g_array_new (FALSE, FALSE, sizeof (JvmsInterval)));
            slot[attributes[i]] = buckets->len;
          }
    }
  for (guint i = 0; i < n_attributes; i++)
    idx[i] = (slot != NULL ? slot[attributes[i]] : want[attributes[i]]) - 1;
  guint *from = g_new (guint, MAX (buckets->len, 1));
  for (guint b = 0; b < buckets->len; b++)
    from[b] = ((GArray *) g_ptr_array_index (buckets, b))->len;
  g_autofree guint8 *unsorted = g_new0 (guint8, MAX (buckets->len, 1));
  BucketData bd = { self, want, slot, (GArray **) buckets->pdata, from, unsorted, valued };
  guint n_set = 0;
  g_autofree guint32 *set = jvms_attribute_set (attributes, n_attributes, &n_set);
  Wanted w = { want, set, n_set, bucket_run };
  gboolean ok = n_attributes == 0 || visit (self, t0, t1, &w, bucket_one, &bd, error);
  jvms_history_unlock_if (self, locked);
  for (guint i = 0; i < n_attributes; i++)
    want[attributes[i]] = 0;
  if (!ok)
    {
      g_free (idx);
      g_free (from);
      return NULL;
    }
  for (guint b = 0; b < buckets->len; b++)
    if (unsorted[b])
      {
        GArray *a = g_ptr_array_index (buckets, b);
        qsort ((JvmsInterval *) a->data + from[b], a->len - from[b], sizeof (JvmsInterval), cmp_interval);
      }
  *index = idx;
  *base = from;
  return g_steal_pointer (&buckets);
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
  g_autofree guint *idx = NULL, *from = NULL;
  g_autoptr (GPtrArray) buckets = range_gather (self, t0, t1, attributes, n_attributes, NULL, FALSE,
                                                &idx, &from, error);
  if (buckets == NULL)
    return NULL;
  guint total = 0;
  for (guint b = 0; b < buckets->len; b++)
    total += ((GArray *) g_ptr_array_index (buckets, b))->len;
  JvmsHistoryRange *r = g_new0 (JvmsHistoryRange, 1);
  r->history = jvms_history_ref (self);
  /* In the caller's attribute order; a repeated attribute repeats its intervals. */
  if (buckets->len == 1 && n_attributes == 1)
    r->items = g_array_ref (g_ptr_array_index (buckets, 0));
  else
    {
      r->items = g_array_sized_new (FALSE, FALSE, sizeof (JvmsInterval), total);
      for (guint i = 0; i < n_attributes; i++)
        {
          GArray *a = g_ptr_array_index (buckets, idx[i]);
          g_array_append_vals (r->items, a->data, a->len);
        }
    }
  return r;
}

static gboolean
range_into (JvmsHistory *self, gint64 t0, gint64 t1, const JvmsAttribute *attributes,
            guint n_attributes, GArray **outs, gboolean valued, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail ((attributes != NULL && outs != NULL) || n_attributes == 0, FALSE);
  for (guint i = 0; i < n_attributes; i++)
    g_return_val_if_fail (outs[i] != NULL && g_array_get_element_size (outs[i]) == sizeof (JvmsInterval), FALSE);
  g_autofree guint *idx = NULL, *from = NULL;
  g_autoptr (GPtrArray) buckets = range_gather (self, t0, t1, attributes, n_attributes, outs, valued,
                                                &idx, &from, error);
  if (buckets == NULL)
    return FALSE;
  /* An attribute asked again: its intervals copied from the first array that asked it. */
  for (guint i = 0; i < n_attributes; i++)
    {
      GArray *a = g_ptr_array_index (buckets, idx[i]);
      if (a != outs[i])
        g_array_append_vals (outs[i], (const JvmsInterval *) a->data + from[idx[i]], a->len - from[idx[i]]);
    }
  return TRUE;
}

gboolean
jvms_history_query_range_into (JvmsHistory         *self,
                               gint64               t0,
                               gint64               t1,
                               const JvmsAttribute *attributes,
                               guint                n_attributes,
                               GArray             **outs,
                               GError             **error)
{
  return range_into (self, t0, t1, attributes, n_attributes, outs, FALSE, error);
}

gboolean
jvms_history_query_range_into_valued (JvmsHistory         *self,
                                      gint64               t0,
                                      gint64               t1,
                                      const JvmsAttribute *attributes,
                                      guint                n_attributes,
                                      GArray             **outs,
                                      GError             **error)
{
  return range_into (self, t0, t1, attributes, n_attributes, outs, TRUE, error);
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
  if (n == NULL || !jvms_node_check_groups (n, h->path, error))
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
