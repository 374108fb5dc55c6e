/* jvms-compare-profile.c: the differential profile (see the header). */
#include "jvms-compare-profile.h"

#include "jvms-json.h"

#include <math.h>
#include <string.h>

struct _JvmsProfileDiff
{
  JvmsCallTree *trees[2];      /* baseline, other */
  GArray       *frames;        /* JvmsProfileDiffFrame */
  guint32      *of_other;      /* other's node -> frame */
  double        max_change;
  GStringChunk *names;         /* the frames' method names, hidden classes folded */
};

char *
jvms_profile_fold_hidden (const char *method)
{
  GString *out = g_string_sized_new (strlen (method));
  for (const char *p = method; *p != '\0';)
    {
      /* "+0x" hex digits, then "." or "/" and decimal digits: a hidden class's run-time part. */
      const char *q = p + 3;
      if (g_str_has_prefix (p, "+0x") && g_ascii_isxdigit (*q))
        {
          while (g_ascii_isxdigit (*q))
            q++;
          if ((*q == '.' || *q == '/') && g_ascii_isdigit (q[1]))
            {
              q++;
              while (g_ascii_isdigit (*q))
                q++;
              p = q;
              continue;
            }
        }
      g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

/* The frame of @method under frame @parent, made when there is none yet. */
static guint32
frame_for (JvmsProfileDiff *self, GHashTable *children, guint32 parent, const char *method)
{
  g_autofree char *folded = jvms_profile_fold_hidden (method);
  g_autofree char *key = g_strdup_printf ("%u\x1f%s", parent, folded);
  gpointer found;
  if (g_hash_table_lookup_extended (children, key, NULL, &found))
    return GPOINTER_TO_UINT (found);
  const JvmsProfileDiffFrame *up = &g_array_index (self->frames, JvmsProfileDiffFrame, parent);
  JvmsProfileDiffFrame frame = {
    .method = g_string_chunk_insert_const (self->names, folded),
    .parent = parent,
    .depth = up->depth + 1,
    .baseline_node = JVMS_CALL_TREE_NONE,
    .other_node = JVMS_CALL_TREE_NONE,
  };
  guint32 index = self->frames->len;
  g_array_append_val (self->frames, frame);
  g_hash_table_insert (children, g_steal_pointer (&key), GUINT_TO_POINTER (index));
  return index;
}

/* Every node of @tree into its frame; @side 0 the baseline, 1 the other. */
static void
add_tree (JvmsProfileDiff *self, GHashTable *children, guint side)
{
  JvmsCallTree *tree = self->trees[side];
  guint n = jvms_call_tree_get_n_nodes (tree);
  g_autofree guint32 *frame_of = g_new (guint32, MAX (n, 1));
  /* Parents come before their children in a tree's array (jvms-call-tree.h). */
  for (guint i = 0; i < n; i++)
    {
      const JvmsCallTreeNode *node = jvms_call_tree_get_node (tree, i);
      guint32 f = i == 0 ? 0
                         : frame_for (self, children, frame_of[node->parent],
                                      jvms_call_tree_get_method_name (tree, node->method));
      frame_of[i] = f;
      JvmsProfileDiffFrame *frame = &g_array_index (self->frames, JvmsProfileDiffFrame, f);
      /* Two hidden classes of one tree may fold to one name under one caller: their weights
       * add up (the frame's node is the first). */
      if (side == 0)
        {
          if (frame->baseline_node == JVMS_CALL_TREE_NONE)
            frame->baseline_node = i;
          frame->baseline_total += node->total;
          frame->baseline_self += node->self;
        }
      else
        {
          if (frame->other_node == JVMS_CALL_TREE_NONE)
            frame->other_node = i;
          frame->other_total += node->total;
          frame->other_self += node->self;
        }
    }
  if (side == 1)
    self->of_other = g_steal_pointer (&frame_of);
}

JvmsProfileDiff *
jvms_profile_diff_new (JvmsCallTree *baseline, JvmsCallTree *other)
{
  g_return_val_if_fail (JVMS_IS_CALL_TREE (baseline) && JVMS_IS_CALL_TREE (other), NULL);
  JvmsProfileDiff *self = g_new0 (JvmsProfileDiff, 1);
  self->trees[0] = g_object_ref (baseline);
  self->trees[1] = g_object_ref (other);
  self->frames = g_array_new (FALSE, TRUE, sizeof (JvmsProfileDiffFrame));
  self->names = g_string_chunk_new (4096);
  JvmsProfileDiffFrame root = { .parent = JVMS_CALL_TREE_NONE };
  g_array_append_val (self->frames, root);
  g_autoptr(GHashTable) children = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  add_tree (self, children, 0);
  add_tree (self, children, 1);

  double totals[2] = { (double) jvms_call_tree_get_total (baseline), (double) jvms_call_tree_get_total (other) };
  for (guint i = 0; i < self->frames->len; i++)
    {
      JvmsProfileDiffFrame *f = &g_array_index (self->frames, JvmsProfileDiffFrame, i);
      f->baseline_share = totals[0] > 0 ? f->baseline_total / totals[0] : 0;
      f->other_share = totals[1] > 0 ? f->other_total / totals[1] : 0;
      f->baseline_self_share = totals[0] > 0 ? f->baseline_self / totals[0] : 0;
      f->other_self_share = totals[1] > 0 ? f->other_self / totals[1] : 0;
      f->change = f->other_share - f->baseline_share;
      f->self_change = f->other_self_share - f->baseline_self_share;
      if (i > 0)
        self->max_change = MAX (self->max_change, fabs (f->change));
    }
  return self;
}

void
jvms_profile_diff_free (JvmsProfileDiff *self)
{
  if (self == NULL)
    return;
  g_clear_object (&self->trees[0]);
  g_clear_object (&self->trees[1]);
  g_array_unref (self->frames);
  g_string_chunk_free (self->names);
  g_free (self->of_other);
  g_free (self);
}

JvmsCallTree *
jvms_profile_diff_get_baseline (JvmsProfileDiff *self)
{
  return self->trees[0];
}

JvmsCallTree *
jvms_profile_diff_get_other (JvmsProfileDiff *self)
{
  return self->trees[1];
}

guint
jvms_profile_diff_get_n_frames (JvmsProfileDiff *self)
{
  return self->frames->len;
}

const JvmsProfileDiffFrame *
jvms_profile_diff_get_frame (JvmsProfileDiff *self, guint index)
{
  g_return_val_if_fail (index < self->frames->len, NULL);
  return &g_array_index (self->frames, JvmsProfileDiffFrame, index);
}

const JvmsProfileDiffFrame *
jvms_profile_diff_get_other_frame (JvmsProfileDiff *self, guint32 node)
{
  g_return_val_if_fail (node < jvms_call_tree_get_n_nodes (self->trees[1]), NULL);
  return jvms_profile_diff_get_frame (self, self->of_other[node]);
}

double
jvms_profile_diff_get_max_change (JvmsProfileDiff *self)
{
  return self->max_change;
}

char *
jvms_profile_diff_dup_path (JvmsProfileDiff *self, guint index)
{
  g_return_val_if_fail (index < self->frames->len, NULL);
  /* The frames' names, not a tree's: frames are matched with hidden classes' names folded, and
   * the two sides name a lambda's class differently. */
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  for (guint32 f = index; f != 0; f = g_array_index (self->frames, JvmsProfileDiffFrame, f).parent)
    g_ptr_array_insert (parts, 0, (gpointer) g_array_index (self->frames, JvmsProfileDiffFrame, f).method);
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (";", (char **) parts->pdata);
}

char *
jvms_profile_diff_dup_other_path (JvmsProfileDiff *self, guint32 node)
{
  g_return_val_if_fail (node < jvms_call_tree_get_n_nodes (self->trees[1]), NULL);
  return jvms_profile_diff_dup_path (self, self->of_other[node]);
}

typedef struct
{
  JvmsProfileDiff *diff;
  char           **paths;
} SortData;

static int
compare_frames (gconstpointer a, gconstpointer b, gpointer data)
{
  SortData *d = data;
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;
  const JvmsProfileDiffFrame *fx = jvms_profile_diff_get_frame (d->diff, x);
  const JvmsProfileDiffFrame *fy = jvms_profile_diff_get_frame (d->diff, y);
  double cx = fabs (fx->change), cy = fabs (fy->change);
  if (cx != cy)
    return cx > cy ? -1 : 1;
  cx = fabs (fx->self_change), cy = fabs (fy->self_change);
  if (cx != cy)
    return cx > cy ? -1 : 1;
  return strcmp (d->paths[x], d->paths[y]);
}

GArray *
jvms_profile_diff_sorted (JvmsProfileDiff *self)
{
  guint n = self->frames->len;
  g_auto(GStrv) paths = g_new0 (char *, n + 1);
  GArray *order = g_array_sized_new (FALSE, FALSE, sizeof (guint32), n);
  for (guint32 i = 1; i < n; i++)
    {
      paths[i] = jvms_profile_diff_dup_path (self, i);
      g_array_append_val (order, i);
    }
  paths[0] = g_strdup ("");
  SortData d = { self, paths };
  g_array_sort_with_data (order, compare_frames, &d);
  return order;
}

static void
add_int (JsonBuilder *b, const char *name, guint64 v)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, (gint64) v);
}

JsonNode *
jvms_profile_diff_to_json (JvmsProfileDiff *self, guint limit)
{
  g_autoptr(GArray) order = jvms_profile_diff_sorted (self);
  g_autoptr(JsonBuilder) b = json_builder_new ();
  json_builder_begin_array (b);
  for (guint i = 0; i < order->len && (limit == 0 || i < limit); i++)
    {
      guint32 index = g_array_index (order, guint32, i);
      const JvmsProfileDiffFrame *f = jvms_profile_diff_get_frame (self, index);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "path");
      json_builder_begin_array (b);
      g_autoptr(GPtrArray) parts = g_ptr_array_new ();
      for (guint32 p = index; p != 0; p = jvms_profile_diff_get_frame (self, p)->parent)
        g_ptr_array_insert (parts, 0, (gpointer) jvms_profile_diff_get_frame (self, p)->method);
      for (guint k = 0; k < parts->len; k++)
        jvms_json_add_text (b, g_ptr_array_index (parts, k));
      json_builder_end_array (b);
      add_int (b, "baseline_total", f->baseline_total);
      add_int (b, "other_total", f->other_total);
      add_int (b, "baseline_self", f->baseline_self);
      add_int (b, "other_self", f->other_self);
      jvms_json_member_double (b, "baseline_share", f->baseline_share);
      jvms_json_member_double (b, "other_share", f->other_share);
      jvms_json_member_double (b, "change", f->change);
      jvms_json_member_double (b, "baseline_self_share", f->baseline_self_share);
      jvms_json_member_double (b, "other_self_share", f->other_self_share);
      jvms_json_member_double (b, "self_change", f->self_change);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  return json_builder_get_root (b);
}
