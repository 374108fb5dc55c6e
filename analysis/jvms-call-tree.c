/* jvms-call-tree.c: stacks folded into a tree (after Sysprof's callgraph: one node per distinct
 * path of methods, with self and total per node and a summary per method), and its outputs. */
#include "jvms-call-tree.h"

#include <string.h>

#include "jvms-call-tree-private.h"
#include "jvms-samples-private.h"

struct _JvmsCallTree
{
  GObject           parent_instance;
  JvmsSamplesStore *store;
  gint64            from, to;
  char             *kind_name;
  char             *unit;
  GStrv             event_types;
  gboolean          kernel_states;
  GArray           *nodes;           /* JvmsCallTreeNode */
  GArray           *rows;            /* JvmsCallTreeMethod, heaviest self first */
  guint32           unknown_method;  /* the method id standing for samples without a stack */
};

G_DEFINE_FINAL_TYPE (JvmsCallTree, jvms_call_tree, G_TYPE_OBJECT)

static void
jvms_call_tree_finalize (GObject *object)
{
  JvmsCallTree *self = JVMS_CALL_TREE (object);
  g_clear_pointer (&self->store, jvms_samples_store_unref);
  g_free (self->kind_name);
  g_free (self->unit);
  g_strfreev (self->event_types);
  g_clear_pointer (&self->nodes, g_array_unref);
  g_clear_pointer (&self->rows, g_array_unref);
  G_OBJECT_CLASS (jvms_call_tree_parent_class)->finalize (object);
}

static void
jvms_call_tree_class_init (JvmsCallTreeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = jvms_call_tree_finalize;
}

static void
jvms_call_tree_init (JvmsCallTree *self)
{
}

/* ---- building ------------------------------------------------------------------------------- */

static void finish (JvmsCallTree *self);

#define NODE(self, i) (&g_array_index ((self)->nodes, JvmsCallTreeNode, (i)))

/* Kept by the calling thread from query to query (see JvmsDenseMemo). */
typedef struct
{
  JvmsDenseMemo path_node;   /* path -> tree node */
  JvmsDenseMemo method_row;  /* method -> method table row */
  GArray       *chain;       /* guint32 paths, scratch */
} Scratch;

static void
scratch_free (gpointer data)
{
  Scratch *s = data;
  jvms_dense_memo_clear (&s->path_node);
  jvms_dense_memo_clear (&s->method_row);
  g_array_unref (s->chain);
  g_free (s);
}

static GPrivate scratch_key = G_PRIVATE_INIT (scratch_free);

static Scratch *
scratch_get (void)
{
  Scratch *s = g_private_get (&scratch_key);
  if (s == NULL)
    {
      s = g_new0 (Scratch, 1);
      s->chain = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_private_set (&scratch_key, s);
    }
  return s;
}

static guint32
new_node (JvmsCallTree *self, guint32 parent, guint32 method)
{
  JvmsCallTreeNode n = {
    .method = method,
    .parent = parent,
    .first_child = JVMS_CALL_TREE_NONE,
    .next_sibling = JVMS_CALL_TREE_NONE,
    .depth = NODE (self, parent)->depth + 1,
  };
  g_array_append_val (self->nodes, n);
  return self->nodes->len - 1;
}

/* The tree node of @path: paths are the call tree's nodes already (stacks merged by method), so
 * this only places the path and the ancestors not placed yet. */
static guint32
node_of_path (JvmsCallTree *self, Scratch *sc, guint32 path)
{
  if (path == JVMS_SAMPLES_NONE)
    return 0;
  guint32 node = jvms_dense_memo_get (&sc->path_node, path);
  if (node != JVMS_SAMPLES_NONE)
    return node;
  g_array_set_size (sc->chain, 0);
  guint32 p = path;
  node = 0;
  while (p != JVMS_SAMPLES_NONE)
    {
      guint32 placed = jvms_dense_memo_get (&sc->path_node, p);
      if (placed != JVMS_SAMPLES_NONE)
        {
          node = placed;
          break;
        }
      g_array_append_val (sc->chain, p);
      guint32 parent, method;
      jvms_samples_store_get_call_path (self->store, p, &parent, &method, NULL);
      p = parent;
    }
  for (guint i = sc->chain->len; i-- > 0;)
    {
      guint32 q = g_array_index (sc->chain, guint32, i), parent, method, kinds;
      jvms_samples_store_get_call_path (self->store, q, &parent, &method, &kinds);
      node = new_node (self, node, method);
      NODE (self, node)->frame_kinds = kinds;
      jvms_dense_memo_set (&sc->path_node, q, node);
    }
  return node;
}

static int
compare_children (gconstpointer pa, gconstpointer pb, gpointer data)
{
  JvmsCallTree *self = data;
  const JvmsCallTreeNode *a = NODE (self, *(const guint32 *) pa), *b = NODE (self, *(const guint32 *) pb);
  if (a->total != b->total)
    return a->total > b->total ? -1 : 1;
  return strcmp (jvms_call_tree_get_method_name (self, a->method),
                 jvms_call_tree_get_method_name (self, b->method));
}

/* Children lists, heaviest first. */
static void
link_children (JvmsCallTree *self)
{
  guint n = self->nodes->len;
  g_autofree guint32 *count = g_new0 (guint32, n + 1);
  for (guint i = 1; i < n; i++)
    count[NODE (self, i)->parent + 1]++;
  for (guint i = 1; i <= n; i++)
    count[i] += count[i - 1];
  /* count[p] .. count[p + 1]: the children of p, gathered in order[] */
  g_autofree guint32 *order = g_new (guint32, MAX (n, 1));
  g_autofree guint32 *fill = g_memdup2 (count, sizeof (guint32) * (n + 1));
  for (guint i = 1; i < n; i++)
    order[fill[NODE (self, i)->parent]++] = i;
  for (guint p = 0; p < n; p++)
    {
      guint a = count[p], b = count[p + 1];
      if (a == b)
        continue;
      g_qsort_with_data (order + a, (gint) (b - a), sizeof (guint32), compare_children, self);
      NODE (self, p)->first_child = order[a];
      for (guint k = a; k < b; k++)
        NODE (self, order[k])->next_sibling = k + 1 < b ? order[k + 1] : JVMS_CALL_TREE_NONE;
    }
}

static int
compare_rows (gconstpointer pa, gconstpointer pb, gpointer data)
{
  JvmsCallTree *self = data;
  const JvmsCallTreeMethod *a = pa, *b = pb;
  if (a->self != b->self)
    return a->self > b->self ? -1 : 1;
  if (a->total != b->total)
    return a->total > b->total ? -1 : 1;
  return strcmp (jvms_call_tree_get_method_name (self, a->method),
                 jvms_call_tree_get_method_name (self, b->method));
}

/* The method table: self sums over a method's nodes; total over those without an ancestor of
 * the same method (a recursive method's time counts once), walked depth first. */
static void
build_rows (JvmsCallTree *self)
{
  guint n = self->nodes->len;
  JvmsDenseMemo *row_of = &scratch_get ()->method_row;
  jvms_dense_memo_begin (row_of, (gsize) self->unknown_method + 1);
  g_autofree guint32 *node_row = g_new (guint32, MAX (n, 1));
  self->rows = g_array_new (FALSE, TRUE, sizeof (JvmsCallTreeMethod));
  for (guint i = 1; i < n; i++)
    {
      const JvmsCallTreeNode *node = NODE (self, i);
      guint32 row = jvms_dense_memo_get (row_of, node->method);
      if (row == JVMS_SAMPLES_NONE)
        {
          row = self->rows->len;
          JvmsCallTreeMethod m = { .method = node->method, .highest_tier = -1, .invocations = -1,
                                   .time_min = -1, .time_avg = -1, .time_max = -1 };
          g_array_append_val (self->rows, m);
          jvms_dense_memo_set (row_of, node->method, row);
        }
      node_row[i] = row;
      JvmsCallTreeMethod *m = &g_array_index (self->rows, JvmsCallTreeMethod, row);
      m->self += node->self;
      m->self_samples += node->self_samples;
    }
  g_autofree guint32 *on_path = g_new0 (guint32, MAX (self->rows->len, 1));
  guint32 node = NODE (self, 0)->first_child;
  while (node != JVMS_CALL_TREE_NONE)
    {
      const JvmsCallTreeNode *nd = NODE (self, node);
      JvmsCallTreeMethod *m = &g_array_index (self->rows, JvmsCallTreeMethod, node_row[node]);
      if (on_path[node_row[node]]++ == 0)
        {
          m->total += nd->total;
          m->total_samples += nd->total_samples;
        }
      if (nd->first_child != JVMS_CALL_TREE_NONE)
        {
          node = nd->first_child;
          continue;
        }
      /* Leave this node and every ancestor whose children are done. */
      while (node != JVMS_CALL_TREE_NONE && node != 0)
        {
          on_path[node_row[node]]--;
          guint32 next = NODE (self, node)->next_sibling;
          if (next != JVMS_CALL_TREE_NONE)
            {
              node = next;
              break;
            }
          node = NODE (self, node)->parent;
        }
      if (node == 0)
        break;
    }

  /* jdk.Compilation in the range, jdk.MethodTiming up to its end. */
  guint nc, nt;
  const JvmsSamplesCompilation *comps = jvms_samples_store_get_compilations (self->store, &nc);
  guint a = 0, b = nc;
  while (a < b)
    {
      guint mid = a + (b - a) / 2;
      if (GINT64_FROM_LE (comps[mid].time) < self->from)
        a = mid + 1;
      else
        b = mid;
    }
  for (guint i = a; i < nc && GINT64_FROM_LE (comps[i].time) < self->to; i++)
    {
      guint32 row = jvms_dense_memo_get (row_of, GUINT32_FROM_LE (comps[i].method));
      if (row == JVMS_SAMPLES_NONE)
        continue;
      JvmsCallTreeMethod *m = &g_array_index (self->rows, JvmsCallTreeMethod, row);
      m->n_compilations++;
      m->highest_tier = MAX (m->highest_tier, GINT32_FROM_LE (comps[i].tier));
      m->jit_ns += GINT64_FROM_LE (comps[i].duration);
    }
  const JvmsSamplesTiming *timings = jvms_samples_store_get_timings (self->store, &nt);
  for (guint i = 0; i < nt && GINT64_FROM_LE (timings[i].time) < self->to; i++)
    {
      guint32 row = jvms_dense_memo_get (row_of, GUINT32_FROM_LE (timings[i].method));
      if (row == JVMS_SAMPLES_NONE)
        continue;
      JvmsCallTreeMethod *m = &g_array_index (self->rows, JvmsCallTreeMethod, row);
      m->invocations = GINT64_FROM_LE (timings[i].invocations);
      m->time_min = GINT64_FROM_LE (timings[i].minimum);
      m->time_avg = GINT64_FROM_LE (timings[i].average);
      m->time_max = GINT64_FROM_LE (timings[i].maximum);
    }
  g_array_sort_with_data (self->rows, compare_rows, self);
}

JvmsCallTree *
jvms_call_tree_build (JvmsSamplesStore *store, const JvmsStackWeight *weights, guint n_weights,
                      gint64 from, gint64 to, const char *kind_name, const char *unit,
                      GStrv event_types, gboolean kernel_states)
{
  JvmsCallTree *self = g_object_new (JVMS_TYPE_CALL_TREE, NULL);
  self->store = jvms_samples_store_ref (store);
  self->from = from;
  self->to = to;
  self->kind_name = g_strdup (kind_name != NULL ? kind_name : "");
  self->unit = g_strdup (unit);
  self->event_types = g_strdupv (event_types);
  self->kernel_states = kernel_states;
  self->unknown_method = jvms_samples_store_get_n_methods (store);
  self->nodes = g_array_new (FALSE, FALSE, sizeof (JvmsCallTreeNode));
  JvmsCallTreeNode root = { .method = JVMS_CALL_TREE_NONE, .parent = JVMS_CALL_TREE_NONE,
                            .first_child = JVMS_CALL_TREE_NONE, .next_sibling = JVMS_CALL_TREE_NONE };
  g_array_append_val (self->nodes, root);

  Scratch *sc = scratch_get ();
  jvms_dense_memo_begin (&sc->path_node, MAX (jvms_samples_store_get_n_call_paths (store), 1));
  guint32 unknown_node = JVMS_CALL_TREE_NONE;
  for (guint i = 0; i < n_weights; i++)
    {
      const JvmsStackWeight *w = &weights[i];
      guint32 index;
      if (w->stack == JVMS_SAMPLES_NONE)
        {
          if (unknown_node == JVMS_CALL_TREE_NONE)
            unknown_node = new_node (self, 0, self->unknown_method);
          index = unknown_node;
        }
      else
        index = node_of_path (self, sc, jvms_samples_store_get_stack_call_path (store, w->stack));
      JvmsCallTreeNode *node = NODE (self, index);
      node->self += w->value;
      node->self_samples += w->samples;
      for (guint s = 0; s < JVMS_CPU_STATE_N; s++)
        node->self_states[s] += w->states[s];
    }
  finish (self);
  return self;
}

/* Totals, children lists and the method table from the nodes' self weights. */
static void
finish (JvmsCallTree *self)
{
  /* Children come after their parents: totals in one backward pass. */
  for (guint i = self->nodes->len; i-- > 0;)
    {
      JvmsCallTreeNode *node = NODE (self, i);
      node->total += node->self;
      node->total_samples += node->self_samples;
      for (guint s = 0; s < JVMS_CPU_STATE_N; s++)
        node->total_states[s] += node->self_states[s];
      if (i > 0)
        {
          JvmsCallTreeNode *parent = NODE (self, node->parent);
          parent->total += node->total;
          parent->total_samples += node->total_samples;
          for (guint s = 0; s < JVMS_CPU_STATE_N; s++)
            parent->total_states[s] += node->total_states[s];
        }
    }
  link_children (self);
  build_rows (self);
}

JvmsCallTree *
_jvms_call_tree_new_derived (JvmsCallTree *like, GArray *nodes)
{
  JvmsCallTree *self = g_object_new (JVMS_TYPE_CALL_TREE, NULL);
  self->store = jvms_samples_store_ref (like->store);
  self->from = like->from;
  self->to = like->to;
  self->kind_name = g_strdup (like->kind_name);
  self->unit = g_strdup (like->unit);
  self->event_types = g_strdupv (like->event_types);
  self->kernel_states = like->kernel_states;
  self->unknown_method = like->unknown_method;
  self->nodes = nodes;
  for (guint i = 0; i < nodes->len; i++)
    {
      JvmsCallTreeNode *node = NODE (self, i);
      g_assert (i == 0 ? node->parent == JVMS_CALL_TREE_NONE : node->parent < i);
      node->depth = i == 0 ? 0 : NODE (self, node->parent)->depth + 1;
      node->first_child = node->next_sibling = JVMS_CALL_TREE_NONE;
      node->total = node->total_samples = 0;
      memset (node->total_states, 0, sizeof node->total_states);
    }
  finish (self);
  return self;
}

/* ---- accessors ------------------------------------------------------------------------------ */

gint64 jvms_call_tree_get_from (JvmsCallTree *self) { return self->from; }
gint64 jvms_call_tree_get_to (JvmsCallTree *self) { return self->to; }
const char *jvms_call_tree_get_kind_name (JvmsCallTree *self) { return self->kind_name; }
const char *jvms_call_tree_get_unit (JvmsCallTree *self) { return self->unit; }
const char * const *jvms_call_tree_get_event_types (JvmsCallTree *self) { return (const char * const *) self->event_types; }
gboolean jvms_call_tree_has_kernel_states (JvmsCallTree *self) { return self->kernel_states; }
guint64 jvms_call_tree_get_total (JvmsCallTree *self) { return NODE (self, 0)->total; }
guint64 jvms_call_tree_get_samples (JvmsCallTree *self) { return NODE (self, 0)->total_samples; }
guint jvms_call_tree_get_n_nodes (JvmsCallTree *self) { return self->nodes->len; }
guint jvms_call_tree_get_n_methods (JvmsCallTree *self) { return self->rows->len; }

const JvmsCallTreeNode *
jvms_call_tree_get_node (JvmsCallTree *self, guint index)
{
  g_return_val_if_fail (index < self->nodes->len, NULL);
  return NODE (self, index);
}

const char *
jvms_call_tree_get_method_name (JvmsCallTree *self, guint32 method)
{
  if (method == self->unknown_method)
    return "[unknown]";
  if (method >= self->unknown_method)
    return "";
  return jvms_samples_store_get_method_name (self->store, method);
}

char *
jvms_call_tree_dup_path (JvmsCallTree *self, guint32 node)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);
  guint depth = NODE (self, node)->depth;
  /* Outermost first: the node's ancestors fill the array from its end. */
  g_autofree const char **parts = g_new0 (const char *, depth + 1);
  for (guint32 p = node; p != 0; p = NODE (self, p)->parent)
    parts[--depth] = jvms_call_tree_get_method_name (self, NODE (self, p)->method);
  return g_strjoinv (";", (char **) parts);
}

const JvmsCallTreeMethod *
jvms_call_tree_get_method_row (JvmsCallTree *self, guint index)
{
  g_return_val_if_fail (index < self->rows->len, NULL);
  return &g_array_index (self->rows, JvmsCallTreeMethod, index);
}

/* ---- folded --------------------------------------------------------------------------------- */

typedef struct
{
  char   *line;
  guint64 weight;
  guint32 node;
} Line;

static int
compare_lines (gconstpointer pa, gconstpointer pb)
{
  const Line *a = pa, *b = pb;
  if (a->weight != b->weight)
    return a->weight > b->weight ? -1 : 1;
  return strcmp (a->line, b->line);
}

static void
line_clear (gpointer data)
{
  g_free (((Line *) data)->line);
}

/* Every stack with a self weight as its folded line, in the folded order. */
static GArray *
folded_lines (JvmsCallTree *self)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (Line));
  g_array_set_clear_func (lines, line_clear);
  g_autoptr(GString) path = g_string_new (NULL);
  g_autoptr(GArray) lengths = g_array_new (FALSE, FALSE, sizeof (gsize)); /* path length per depth */
  guint32 node = NODE (self, 0)->first_child;
  while (node != JVMS_CALL_TREE_NONE && node != 0)
    {
      const JvmsCallTreeNode *nd = NODE (self, node);
      g_array_set_size (lengths, nd->depth);
      g_string_truncate (path, nd->depth > 1 ? g_array_index (lengths, gsize, nd->depth - 2) : 0);
      if (nd->depth > 1)
        g_string_append_c (path, ';');
      /* A name holding the separator (a native library "libc.so;6a2f (deleted)") or a line
       * break would change the line's meaning: ':' and ' ' stand for them. */
      gsize at = path->len;
      g_string_append (path, jvms_call_tree_get_method_name (self, nd->method));
      for (gsize k = at; k < path->len; k++)
        if (path->str[k] == ';')
          path->str[k] = ':';
        else if (path->str[k] == '\n' || path->str[k] == '\r')
          path->str[k] = ' ';
      g_array_index (lengths, gsize, nd->depth - 1) = path->len;
      if (nd->self > 0)
        {
          Line l = { g_strdup (path->str), nd->self, node };
          g_array_append_val (lines, l);
        }
      if (nd->first_child != JVMS_CALL_TREE_NONE)
        node = nd->first_child;
      else
        {
          while (node != 0 && NODE (self, node)->next_sibling == JVMS_CALL_TREE_NONE)
            node = NODE (self, node)->parent;
          if (node != 0)
            node = NODE (self, node)->next_sibling;
        }
    }
  g_array_sort (lines, compare_lines);
  return lines;
}

char *
jvms_call_tree_to_folded (JvmsCallTree *self, guint limit)
{
  g_autoptr(GArray) lines = folded_lines (self);
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < lines->len && (limit == 0 || i < limit); i++)
    {
      Line *l = &g_array_index (lines, Line, i);
      g_string_append_printf (out, "%s %" G_GUINT64_FORMAT "\n", l->line, l->weight);
    }
  return g_string_free (out, FALSE);
}

GArray *
jvms_call_tree_dup_stacks (JvmsCallTree *self, guint limit, GPtrArray **out_lines)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (self), NULL);
  g_autoptr(GArray) lines = folded_lines (self);
  guint n = limit == 0 ? lines->len : MIN (limit, lines->len);
  GArray *nodes = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  if (out_lines != NULL)
    *out_lines = g_ptr_array_new_full (n, g_free);
  for (guint i = 0; i < n; i++)
    {
      Line *l = &g_array_index (lines, Line, i);
      g_array_append_val (nodes, l->node);
      if (out_lines != NULL)
        g_ptr_array_add (*out_lines, g_steal_pointer (&l->line));
    }
  return nodes;
}

/* ---- CSV ------------------------------------------------------------------------------------ */

static void
csv_field (GString *out, const char *s)
{
  if (strpbrk (s, ",\"\n\r") == NULL)
    {
      g_string_append (out, s);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = s; *p; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

char *
jvms_call_tree_to_csv (JvmsCallTree *self, guint limit)
{
  GString *out = g_string_new ("method,self,total,self_samples,total_samples,compilations,"
                               "highest_tier,jit_ns,invocations,time_min_ns,time_avg_ns,time_max_ns\n");
  for (guint i = 0; i < self->rows->len && (limit == 0 || i < limit); i++)
    {
      const JvmsCallTreeMethod *m = &g_array_index (self->rows, JvmsCallTreeMethod, i);
      csv_field (out, jvms_call_tree_get_method_name (self, m->method));
      g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
                              ",%" G_GUINT64_FORMAT ",%u,", m->self, m->total, m->self_samples,
                              m->total_samples, m->n_compilations);
      /* Empty where nothing was recorded. */
      if (m->highest_tier >= 0)
        g_string_append_printf (out, "%d", m->highest_tier);
      g_string_append_printf (out, ",%" G_GINT64_FORMAT ",", m->jit_ns);
      gint64 timing[4] = { m->invocations, m->time_min, m->time_avg, m->time_max };
      for (guint k = 0; k < 4; k++)
        {
          if (timing[k] >= 0)
            g_string_append_printf (out, "%" G_GINT64_FORMAT, timing[k]);
          g_string_append_c (out, k < 3 ? ',' : '\n');
        }
    }
  return g_string_free (out, FALSE);
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static const char *const frame_kind_names[JVMS_FRAME_KIND_N] = {
  "unknown", "interpreted", "jit", "inlined", "native", "c++", "kernel",
};

static void
json_states (JsonBuilder *b, const char *name, const guint64 *states)
{
  json_builder_set_member_name (b, name);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "on_cpu");
  json_builder_add_int_value (b, (gint64) states[JVMS_CPU_STATE_ON_CPU]);
  json_builder_set_member_name (b, "waiting");
  json_builder_add_int_value (b, (gint64) states[JVMS_CPU_STATE_WAITING]);
  json_builder_set_member_name (b, "unknown");
  json_builder_add_int_value (b, (gint64) states[JVMS_CPU_STATE_UNKNOWN]);
  json_builder_end_object (b);
}

static void
json_node (JvmsCallTree *self, JsonBuilder *b, guint32 index, guint limit)
{
  const JvmsCallTreeNode *nd = NODE (self, index);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "frame");
  json_builder_add_string_value (b, jvms_call_tree_get_method_name (self, nd->method));
  json_builder_set_member_name (b, "self");
  json_builder_add_int_value (b, (gint64) nd->self);
  json_builder_set_member_name (b, "total");
  json_builder_add_int_value (b, (gint64) nd->total);
  json_builder_set_member_name (b, "self_samples");
  json_builder_add_int_value (b, (gint64) nd->self_samples);
  json_builder_set_member_name (b, "samples");
  json_builder_add_int_value (b, (gint64) nd->total_samples);
  json_builder_set_member_name (b, "frame_kinds");
  json_builder_begin_array (b);
  for (guint k = 0; k < JVMS_FRAME_KIND_N; k++)
    if (nd->frame_kinds & (1u << k))
      json_builder_add_string_value (b, frame_kind_names[k]);
  json_builder_end_array (b);
  if (self->kernel_states)
    {
      json_builder_set_member_name (b, "kernel_state");
      json_builder_begin_object (b);
      json_states (b, "self", nd->self_states);
      json_states (b, "total", nd->total_states);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "children");
  json_builder_begin_array (b);
  guint n = 0;
  for (guint32 c = nd->first_child; c != JVMS_CALL_TREE_NONE && (limit == 0 || n < limit);
       c = NODE (self, c)->next_sibling, n++)
    json_node (self, b, c, limit);
  json_builder_end_array (b);
  json_builder_end_object (b);
}

/* a - b, saturated: ranges may reach the ends of time ("everything"). */
static gint64
difference (gint64 a, gint64 b)
{
  gint64 d;
  if (__builtin_sub_overflow (a, b, &d))
    return b < 0 ? G_MAXINT64 : G_MININT64;
  return d;
}

JsonNode *
jvms_call_tree_to_json (JvmsCallTree *self, gint64 trace_start, guint limit)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "range");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "from_ns");
  json_builder_add_int_value (b, self->from);
  json_builder_set_member_name (b, "to_ns");
  json_builder_add_int_value (b, self->to);
  json_builder_set_member_name (b, "from_offset_ns");
  json_builder_add_int_value (b, difference (self->from, trace_start));
  json_builder_set_member_name (b, "to_offset_ns");
  json_builder_add_int_value (b, difference (self->to, trace_start));
  json_builder_set_member_name (b, "duration_ns");
  json_builder_add_int_value (b, difference (self->to, self->from));
  json_builder_end_object (b);
  json_builder_set_member_name (b, "kind");
  json_builder_add_string_value (b, self->kind_name);
  json_builder_set_member_name (b, "event_types");
  json_builder_begin_array (b);
  for (guint i = 0; self->event_types != NULL && self->event_types[i] != NULL; i++)
    json_builder_add_string_value (b, self->event_types[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "unit");
  json_builder_add_string_value (b, self->unit);
  json_builder_set_member_name (b, "total");
  json_builder_add_int_value (b, (gint64) jvms_call_tree_get_total (self));
  json_builder_set_member_name (b, "samples");
  json_builder_add_int_value (b, (gint64) jvms_call_tree_get_samples (self));
  json_builder_set_member_name (b, "kernel_states");
  json_builder_add_boolean_value (b, self->kernel_states);
  if (self->kernel_states)
    json_states (b, "kernel_state", NODE (self, 0)->total_states);
  json_builder_set_member_name (b, "tree");
  json_builder_begin_array (b);
  guint n = 0;
  for (guint32 c = NODE (self, 0)->first_child; c != JVMS_CALL_TREE_NONE && (limit == 0 || n < limit);
       c = NODE (self, c)->next_sibling, n++)
    json_node (self, b, c, limit);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return json_builder_get_root (b);
}
