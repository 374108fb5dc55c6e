/* Tests of the sample store and the profile query against a naive model: samples written through
 * the writer are kept in memory too, and every query (random ranges, thread sets and kinds)
 * must give exactly the folded stacks, totals and kernel-state splits that summing the kept
 * samples gives. Also: the older per-sample reader, the method table, the stack table's
 * pseudo-frames, damage, and the async query. */
#include <glib/gstdio.h>
#include <lz4.h>
#include <string.h>

#include "jvms-profile.h"
#include "jvms-samples.h"
#include "jvms-samples-private.h"
#include "jvms-trace-index.h"

typedef struct
{
  gint64       time;
  guint        type;      /* index in model_types */
  gint64       tid;
  GPtrArray   *frames;    /* char* "Class.method", top first (not owned) */
  guint64      weight;
  JvmsCpuState state;
} ModelSample;

static const struct
{
  const char         *name;
  JvmsSampleUnit      unit;
  JvmsSampleTypeFlags flags;
} model_types[] = {
  { "jdk.ExecutionSample", JVMS_SAMPLE_UNIT_NS, JVMS_SAMPLE_TYPE_CPU | JVMS_SAMPLE_TYPE_SAMPLER },
  { "jdk.ObjectAllocationSample", JVMS_SAMPLE_UNIT_BYTES, 0 },
  { "jdk.JavaMonitorEnter", JVMS_SAMPLE_UNIT_NS, 0 },
  { "jdk.ThreadPark", JVMS_SAMPLE_UNIT_NS, 0 },
  { "jdk.JavaErrorThrow", JVMS_SAMPLE_UNIT_EVENTS, 0 },
};
#define N_TYPES G_N_ELEMENTS (model_types)

static const gint64 model_tids[] = { 101, 102, 103, 104, -7, 0 };
#define N_TIDS G_N_ELEMENTS (model_tids)

typedef struct
{
  char       *dir;
  char       *path;
  GArray     *samples;    /* ModelSample */
  GPtrArray  *stacks;     /* GPtrArray* of char* frames, owned */
  GPtrArray  *names;      /* char*, owned: frames made up for one sample */
} Fixture;

/* Call paths of a small program, so that stacks share prefixes as real ones do. */
static GPtrArray *
random_stack (void)
{
  static const char *const roots[] = { "java.lang.Thread.run", "app.Main.main", "app.Pool$Worker.run" };
  static const char *const methods[] = {
    "app.Service.handle", "app.Service.parse", "app.Codec.decode", "app.Codec.encode",
    "java.util.HashMap.get", "java.util.HashMap.put", "app.Store.write", "app.Store.read",
    "app.Math.fib", "app.Math.fib", "java.lang.Object.wait", "app.Lock.enter",
  };
  GPtrArray *frames = g_ptr_array_new ();
  guint depth = g_test_rand_int_range (1, 9);
  /* Top first: pick the root last. */
  for (guint i = 1; i < depth; i++)
    g_ptr_array_add (frames, (gpointer) methods[g_test_rand_int_range (0, G_N_ELEMENTS (methods))]);
  g_ptr_array_add (frames, (gpointer) roots[g_test_rand_int_range (0, G_N_ELEMENTS (roots))]);
  return frames;
}

static guint32
intern_stack (JvmsSamplesWriter *w, GPtrArray *frames)
{
  g_autofree JvmsStackFrameIn *in = g_new0 (JvmsStackFrameIn, frames->len);
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < frames->len; i++)
    {
      const char *m = g_ptr_array_index (frames, i);
      const char *dot = strrchr (m, '.');
      char *cls = g_strndup (m, dot - m);
      g_ptr_array_add (owned, cls);
      /* Lines and kinds vary: the tree merges them. */
      in[i] = (JvmsStackFrameIn) { cls, dot + 1, g_test_rand_int_range (1, 4),
                                   (JvmsFrameKind) g_test_rand_int_range (0, JVMS_FRAME_KIND_N) };
    }
  return jvms_samples_writer_intern_frames (w, in, frames->len, FALSE);
}

/* @n samples over about @span_ns, times non-decreasing with ties and bursts. */
static void
fixture_write_stacks (Fixture *f, guint n, gint64 span_ns, gboolean kernel, guint n_stacks)
{
  g_autoptr(GError) error = NULL;
  JvmsSamplesWriter *w = jvms_samples_writer_new (f->path, &error);
  g_assert_no_error (error);
  jvms_samples_writer_set_kernel_states (w, kernel);
  guint32 types[N_TYPES];
  for (guint i = 0; i < N_TYPES; i++)
    types[i] = jvms_samples_writer_intern_type (w, model_types[i].name, model_types[i].unit, model_types[i].flags);
  for (guint i = 0; i < n_stacks; i++)
    g_ptr_array_add (f->stacks, random_stack ());
  gint64 t = G_GINT64_CONSTANT (1700000000000000000);
  for (guint i = 0; i < n; i++)
    {
      guint r = g_test_rand_int_range (0, 100);
      /* Ties, ordinary gaps, and now and then a pause ten times longer. */
      gint64 mean = MAX (span_ns / n, 2);
      t += r < 20 ? 0 : r < 98 ? (gint64) (g_test_rand_double () * 1.5 * mean) : 10 * mean;
      ModelSample s = {
        .time = t,
        .type = g_test_rand_int_range (0, N_TYPES),
        .tid = model_tids[g_test_rand_int_range (0, N_TIDS)],
        .frames = n_stacks > 0 ? g_ptr_array_index (f->stacks, g_test_rand_int_range (0, n_stacks)) : NULL,
      };
      if (n_stacks == 0)
        {
          /* A stack of its own: a random call path under a top frame no other sample has. */
          GPtrArray *own = random_stack ();
          char *top = g_strdup_printf ("app.Unique.m%u", i);
          g_ptr_array_add (f->names, top);
          g_ptr_array_insert (own, 0, top);
          g_ptr_array_add (f->stacks, own);
          s.frames = own;
        }
      s.weight = model_types[s.type].unit == JVMS_SAMPLE_UNIT_EVENTS ? 1 : (guint64) g_test_rand_int_range (0, 100000);
      if (model_types[s.type].flags & JVMS_SAMPLE_TYPE_CPU)
        s.state = kernel ? (JvmsCpuState) g_test_rand_int_range (0, JVMS_CPU_STATE_N) : JVMS_CPU_STATE_UNKNOWN;
      JvmsSampleRecord rec = {
        .time = s.time,
        .type = types[s.type],
        .thread = jvms_samples_writer_intern_thread (w, s.tid, s.tid == 0 ? NULL : "worker"),
        .stack = intern_stack (w, s.frames),
        .weight = s.weight,
        .state = s.state,
        .detail = JVMS_SAMPLES_NONE,
      };
      jvms_samples_writer_add_record (w, &rec);
      g_array_append_val (f->samples, s);
    }
  g_assert_true (jvms_samples_writer_close (w, &error));
  g_assert_no_error (error);
  jvms_samples_writer_free (w);
}

static void
fixture_write (Fixture *f, guint n, gint64 span_ns, gboolean kernel)
{
  fixture_write_stacks (f, n, span_ns, kernel, 40);
}

static void
fixture_set_up (Fixture *f, gconstpointer data)
{
  f->dir = g_dir_make_tmp ("jvmscope-profile-XXXXXX", NULL);
  f->path = g_build_filename (f->dir, "x.samples", NULL);
  f->samples = g_array_new (FALSE, FALSE, sizeof (ModelSample));
  f->stacks = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  f->names = g_ptr_array_new_with_free_func (g_free);
}

static void
fixture_tear_down (Fixture *f, gconstpointer data)
{
  g_unlink (f->path);
  g_rmdir (f->dir);
  g_free (f->path);
  g_free (f->dir);
  g_array_unref (f->samples);
  g_ptr_array_unref (f->stacks);
  g_ptr_array_unref (f->names);
}

/* ---- the naive model of a query ------------------------------------------------------------- */

typedef struct
{
  GHashTable *lines;          /* folded line -> guint64* weight */
  guint64     total, samples;
  guint64     states[JVMS_CPU_STATE_N];
} Naive;

static gboolean
type_in_kind (guint type, JvmsProfileKind kind, const char *event_type, gboolean *count, gboolean *waiting)
{
  const char *name = model_types[type].name;
  gboolean cpu = (model_types[type].flags & JVMS_SAMPLE_TYPE_CPU) != 0;
  *count = FALSE;
  *waiting = FALSE;
  switch (kind)
    {
    case JVMS_PROFILE_KIND_CPU: *count = TRUE; return cpu;
    case JVMS_PROFILE_KIND_CPU_WAITING: *count = *waiting = TRUE; return cpu;
    case JVMS_PROFILE_KIND_ALLOC: return strcmp (name, "jdk.ObjectAllocationSample") == 0;
    case JVMS_PROFILE_KIND_LOCK: return strcmp (name, "jdk.JavaMonitorEnter") == 0;
    case JVMS_PROFILE_KIND_PARK: return strcmp (name, "jdk.ThreadPark") == 0;
    case JVMS_PROFILE_KIND_EXCEPTION: *count = TRUE; return strcmp (name, "jdk.JavaErrorThrow") == 0;
    case JVMS_PROFILE_KIND_WALL:
      return cpu || strcmp (name, "jdk.JavaMonitorEnter") == 0 || strcmp (name, "jdk.ThreadPark") == 0;
    case JVMS_PROFILE_KIND_EVENT_TYPE:
      *count = (model_types[type].flags & JVMS_SAMPLE_TYPE_SAMPLER) || model_types[type].unit == JVMS_SAMPLE_UNIT_EVENTS;
      return strcmp (name, event_type) == 0;
    default:
      return FALSE;
    }
}

static void
naive (Fixture *f, const JvmsProfileQuery *q, Naive *out)
{
  memset (out, 0, sizeof *out);
  out->lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  for (guint i = 0; i < f->samples->len; i++)
    {
      const ModelSample *s = &g_array_index (f->samples, ModelSample, i);
      gboolean count, waiting;
      if (s->time < q->from || s->time >= q->to || !type_in_kind (s->type, q->kind, q->event_type, &count, &waiting))
        continue;
      if (q->tids != NULL)
        {
          gboolean in = FALSE;
          for (guint k = 0; k < q->n_tids; k++)
            in |= q->tids[k] == s->tid;
          if (!in)
            continue;
        }
      if (waiting && s->state != JVMS_CPU_STATE_WAITING)
        continue;
      guint64 value = count ? 1 : s->weight;
      out->total += value;
      out->samples++;
      out->states[s->state]++;
      GString *line = g_string_new (NULL);
      for (guint k = s->frames->len; k-- > 0;)
        {
          g_string_append (line, g_ptr_array_index (s->frames, k));
          if (k > 0)
            g_string_append_c (line, ';');
        }
      guint64 *w = g_hash_table_lookup (out->lines, line->str);
      if (w == NULL)
        g_hash_table_insert (out->lines, g_string_free (line, FALSE), g_memdup2 (&value, sizeof value));
      else
        {
          *w += value;
          g_string_free (line, TRUE);
        }
    }
}

/* The naive lines in the folded order: weight descending, then bytes. */
static int
compare_folded (gconstpointer pa, gconstpointer pb, gpointer data)
{
  GHashTable *lines = data;
  const char *a = *(const char **) pa, *b = *(const char **) pb;
  guint64 wa = *(guint64 *) g_hash_table_lookup (lines, a), wb = *(guint64 *) g_hash_table_lookup (lines, b);
  if (wa != wb)
    return wa > wb ? -1 : 1;
  return strcmp (a, b);
}

static char *
naive_folded (Naive *n)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;
  g_hash_table_iter_init (&iter, n->lines);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort_with_data (keys, compare_folded, n->lines);
  GString *out = g_string_new (NULL);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *k = g_ptr_array_index (keys, i);
      guint64 w = *(guint64 *) g_hash_table_lookup (n->lines, k);
      if (w > 0)
        g_string_append_printf (out, "%s %" G_GUINT64_FORMAT "\n", k, w);
    }
  return g_string_free (out, FALSE);
}

static void
check_query (JvmsProfile *profile, Fixture *f, const JvmsProfileQuery *q)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsCallTree) tree = jvms_profile_query (profile, q, NULL, &error);
  g_assert_no_error (error);
  Naive n;
  naive (f, q, &n);
  g_autofree char *ours = jvms_call_tree_to_folded (tree, 0);
  g_autofree char *theirs = naive_folded (&n);
  if (g_strcmp0 (ours, theirs) != 0)
    g_error ("query [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") kind %d threads %u: folded differs\nours:\n%.2000s\nnaive:\n%.2000s",
             q->from, q->to, q->kind, q->n_tids, ours, theirs);
  g_assert_cmpuint (jvms_call_tree_get_total (tree), ==, n.total);
  g_assert_cmpuint (jvms_call_tree_get_samples (tree), ==, n.samples);
  const JvmsCallTreeNode *root = jvms_call_tree_get_node (tree, 0);
  if (q->kind == JVMS_PROFILE_KIND_CPU || q->kind == JVMS_PROFILE_KIND_CPU_WAITING)
    for (guint s = 0; s < JVMS_CPU_STATE_N; s++)
      g_assert_cmpuint (root->total_states[s], ==, n.states[s]);
  /* Every node: total = self + children; children heaviest first. */
  for (guint i = 0; i < jvms_call_tree_get_n_nodes (tree); i++)
    {
      const JvmsCallTreeNode *node = jvms_call_tree_get_node (tree, i);
      guint64 sum = node->self;
      guint64 previous = G_MAXUINT64;
      for (guint32 c = node->first_child; c != JVMS_CALL_TREE_NONE; c = jvms_call_tree_get_node (tree, c)->next_sibling)
        {
          const JvmsCallTreeNode *child = jvms_call_tree_get_node (tree, c);
          g_assert_cmpuint (child->parent, ==, i);
          g_assert_cmpuint (child->total, <=, previous);
          previous = child->total;
          sum += child->total;
        }
      g_assert_cmpuint (sum, ==, node->total);
    }
  g_hash_table_unref (n.lines);
}

static void
random_query (Fixture *f, JvmsProfileQuery *q, gint64 *tids)
{
  const ModelSample *first = &g_array_index (f->samples, ModelSample, 0);
  const ModelSample *last = &g_array_index (f->samples, ModelSample, f->samples->len - 1);
  gint64 span = last->time - first->time + 1;
  memset (q, 0, sizeof *q);
  switch (g_test_rand_int_range (0, 4))
    {
    case 0:                        /* whole */
      q->from = first->time;
      q->to = last->time + 1;
      break;
    case 1:                        /* on sample times: the edge cases of blocks */
      q->from = g_array_index (f->samples, ModelSample, g_test_rand_int_range (0, f->samples->len)).time;
      q->to = g_array_index (f->samples, ModelSample, g_test_rand_int_range (0, f->samples->len)).time;
      break;
    default:
      q->from = first->time - span / 10 + (gint64) (g_test_rand_double () * span * 1.2);
      q->to = q->from + (gint64) (g_test_rand_double () * span * (g_test_rand_bit () ? 1.0 : 0.01));
      break;
    }
  static const JvmsProfileKind kinds[] = {
    JVMS_PROFILE_KIND_CPU, JVMS_PROFILE_KIND_CPU_WAITING, JVMS_PROFILE_KIND_ALLOC, JVMS_PROFILE_KIND_LOCK,
    JVMS_PROFILE_KIND_PARK, JVMS_PROFILE_KIND_EXCEPTION, JVMS_PROFILE_KIND_WALL, JVMS_PROFILE_KIND_EVENT_TYPE,
  };
  q->kind = kinds[g_test_rand_int_range (0, G_N_ELEMENTS (kinds))];
  if (q->kind == JVMS_PROFILE_KIND_EVENT_TYPE)
    q->event_type = model_types[g_test_rand_int_range (0, N_TYPES)].name;
  if (g_test_rand_bit ())
    {
      q->n_tids = g_test_rand_int_range (0, 4);
      for (guint k = 0; k < q->n_tids; k++)
        tids[k] = model_tids[g_test_rand_int_range (0, N_TIDS)];
      q->tids = tids;
    }
}

/* Many blocks and levels: random queries against the model. */
static void
test_model (Fixture *f, gconstpointer data)
{
  fixture_write (f, 60000, G_GINT64_CONSTANT (60000000000), TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsProfile) profile = jvms_profile_open (f->path, &error);
  g_assert_no_error (error);
  JvmsSamplesStore *store = jvms_profile_get_store (profile);
  /* 60,000 samples are 15 blocks: nodes of levels 1 to 3 exist and are read. */
  g_assert_cmpuint (jvms_samples_store_get_n_blocks (store), ==, (60000 + JVMS_SAMPLES_BLOCK_SAMPLES - 1) / JVMS_SAMPLES_BLOCK_SAMPLES);
  g_assert_cmpuint (jvms_samples_store_get_n_levels (store), ==, 3);
  g_assert_cmpuint (jvms_samples_store_get_n_samples (store), ==, 60000);
  for (guint i = 0; i < 290; i++)
    {
      JvmsProfileQuery q;
      gint64 tids[4];
      random_query (f, &q, tids);
      check_query (profile, f, &q);
    }
}

/* Stacks that rarely repeat: nodes that would sum little are left out, and queries read their
 * halves instead, with the same answers. */
static void
test_sparse (Fixture *f, gconstpointer data)
{
  /* Every sample a stack of its own. */
  fixture_write_stacks (f, 40000, G_GINT64_CONSTANT (40000000000), TRUE, 0);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsProfile) profile = jvms_profile_open (f->path, &error);
  g_assert_no_error (error);
  JvmsSamplesStore *store = jvms_profile_get_store (profile);
  guint absent = 0, present = 0;
  for (guint level = 1; level <= jvms_samples_store_get_n_levels (store); level++)
    for (guint m = 0; m < jvms_samples_store_get_n_nodes (store, level); m++)
      {
        if (jvms_samples_store_has_node (store, level, m))
          present++;
        else
          absent++;
      }
  g_assert_cmpuint (absent, >, 0);
  for (guint i = 0; i < 200; i++)
    {
      JvmsProfileQuery q;
      gint64 tids[4];
      random_query (f, &q, tids);
      check_query (profile, f, &q);
    }
  g_test_message ("%u nodes left out, %u written", absent, present);
}

/* The per-level sums alone: a range of whole blocks that starts on a node boundary reads
 * nothing raw when it covers exactly nodes. */
static void
test_nodes_only (Fixture *f, gconstpointer data)
{
  fixture_write (f, 8 * JVMS_SAMPLES_BLOCK_SAMPLES, G_GINT64_CONSTANT (8000000000), TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsProfile) profile = jvms_profile_open (f->path, &error);
  g_assert_no_error (error);
  JvmsSamplesStore *store = jvms_profile_get_store (profile);
  g_assert_cmpuint (jvms_samples_store_get_n_levels (store), ==, 3);
  g_assert_cmpuint (jvms_samples_store_get_n_nodes (store, 3), ==, 1);
  /* Levels are written 4 apart: the odd levels' nodes are left out, and the range reads the two
   * nodes of level 2. */
  g_assert_false (jvms_samples_store_has_node (store, 1, 0));
  g_assert_false (jvms_samples_store_has_node (store, 3, 0));
  g_assert_true (jvms_samples_store_has_node (store, 2, 0));
  g_assert_true (jvms_samples_store_has_node (store, 2, 1));
  gint64 first, last;
  jvms_samples_store_get_block_span (store, 0, &first, NULL, NULL);
  jvms_samples_store_get_block_span (store, 7, NULL, &last, NULL);
  for (guint k = 0; k < JVMS_PROFILE_KIND_N - 1; k++)
    {
      JvmsProfileQuery q = { .from = first, .to = last + 1, .kind = (JvmsProfileKind) k };
      check_query (profile, f, &q);
    }

  /* The first node of level 2 with its first all-threads section renamed a thread's (thread 0, in as many
   * varint bytes): its type's all-threads sums go missing, which the read refuses. */
  g_autofree guint8 *bytes = NULL;
  gsize size;
  g_assert_true (g_file_get_contents (f->path, (char **) &bytes, &size, NULL));
  JvmsSamplesHeader h;
  memcpy (&h, bytes, sizeof h);
  JvmsSamplesNode *node = NULL;
  for (guint i = 0; i < GUINT32_FROM_LE (h.n_tables); i++)
    {
      JvmsSamplesTable t;
      memcpy (&t, bytes + GUINT64_FROM_LE (h.directory_offset) + i * sizeof t, sizeof t);
      if (GUINT32_FROM_LE (t.tag) == JVMS_SAMPLES_TABLE_LEVEL && GUINT32_FROM_LE (t.level) == 2)
        node = (JvmsSamplesNode *) (gpointer) (bytes + GUINT64_FROM_LE (t.offset));
    }
  g_assert_nonnull (node);
  guint32 raw = GUINT32_FROM_LE (node->raw_size);
  g_autofree guint8 *payload = g_malloc (raw);
  if (GUINT32_FROM_LE (node->compressed_size) == raw)   /* stored raw */
    memcpy (payload, bytes + GUINT64_FROM_LE (node->offset), raw);
  else
    g_assert_cmpint (LZ4_decompress_safe ((const char *) bytes + GUINT64_FROM_LE (node->offset), (char *) payload,
                                          (int) GUINT32_FROM_LE (node->compressed_size), (int) raw), ==, (int) raw);
  static const guint8 all_threads[] = { 0xff, 0xff, 0xff, 0xff, 0x0f }, thread_0[] = { 0x80, 0x80, 0x80, 0x80, 0x00 };
  guint8 *at = memmem (payload, raw, all_threads, sizeof all_threads);
  g_assert_nonnull (at);
  memcpy (at, thread_0, sizeof thread_0);
  int bound = LZ4_compressBound ((int) raw);
  gsize end = (size + 7) & ~(gsize) 7;
  g_autofree guint8 *damaged = g_malloc0 (end + (gsize) bound);
  memcpy (damaged, bytes, size);
  int compressed = LZ4_compress_default ((const char *) payload, (char *) damaged + end, (int) raw, bound);
  g_assert_cmpint (compressed, >, 0);
  JvmsSamplesNode *moved = (JvmsSamplesNode *) (gpointer) (damaged + ((guint8 *) node - bytes));
  moved->offset = GUINT64_TO_LE (end);
  moved->compressed_size = GUINT32_TO_LE ((guint32) compressed);
  JvmsSamplesHeader *dh = (JvmsSamplesHeader *) (gpointer) damaged;
  dh->file_size = GUINT64_TO_LE (end + (gsize) compressed);
  g_autoptr(GBytes) b = g_bytes_new_take (g_steal_pointer (&damaged), end + (gsize) compressed);
  g_autoptr(JvmsSamplesStore) bad_store = jvms_samples_store_open_bytes (b, "damaged.samples", &error);
  g_assert_no_error (error);
  g_autoptr(JvmsProfile) bad = jvms_profile_new_for_store (bad_store);
  JvmsProfileQuery q = { .from = first, .to = last + 1, .kind = JVMS_PROFILE_KIND_CPU };
  g_autoptr(JvmsCallTree) tree = jvms_profile_query (bad, &q, NULL, &error);
  g_assert_null (tree);
  g_assert_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX);
  g_assert_nonnull (strstr (error->message, "damaged.samples"));
  g_assert_nonnull (strstr (error->message, "all-threads section is missing or out of place"));
}

/* The older per-sample form, in time order, with every field it had. */
static void
test_compat_reader (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  JvmsSamplesWriter *w = jvms_samples_writer_new (f->path, &error);
  g_assert_no_error (error);
  JvmsSampleFrame frames[] = { { "app.Foo$Bar.leaf", 12 }, { "app.Foo.main", 3 } };
  JvmsSample in[] = {
    { .kind = JVMS_SAMPLE_EXECUTION, .time = 100, .tid = 5, .state = "STATE_RUNNABLE", .n_frames = 2, .frames = frames },
    { .kind = JVMS_SAMPLE_ALLOCATION, .time = 150, .tid = 5, .class_name = "long[]", .weight = 4096, .n_frames = 1, .frames = frames + 1 },
    { .kind = JVMS_SAMPLE_OLD_OBJECT, .time = 200, .tid = 6, .class_name = "java.lang.String", .allocation_time = 120,
      .object_age = 80, .n_frames = 2, .frames = frames },
    { .kind = JVMS_SAMPLE_NATIVE, .time = 200, .tid = 6, .state = "STATE_IN_NATIVE" },
  };
  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    jvms_samples_writer_add (w, &in[i]);
  g_assert_cmpuint (jvms_samples_writer_count (w), ==, 4);
  g_assert_true (jvms_samples_writer_close (w, &error));
  jvms_samples_writer_free (w);

  g_autoptr(JvmsSamplesReader) r = jvms_samples_reader_open (f->path, &error);
  g_assert_no_error (error);
  JvmsSample s;
  for (guint i = 0; i < G_N_ELEMENTS (in); i++)
    {
      g_assert_true (jvms_samples_reader_next (r, &s, &error));
      g_assert_cmpint (s.kind, ==, in[i].kind);
      g_assert_cmpint (s.time, ==, in[i].time);
      g_assert_cmpint (s.tid, ==, in[i].tid);
      g_assert_cmpstr (s.state, ==, in[i].state);
      g_assert_cmpstr (s.class_name, ==, in[i].class_name);
      g_assert_cmpuint (s.weight, ==, in[i].weight);
      g_assert_cmpint (s.allocation_time, ==, in[i].allocation_time);
      g_assert_cmpuint (s.object_age, ==, in[i].object_age);
      g_assert_cmpuint (s.n_frames, ==, in[i].n_frames);
      for (guint k = 0; k < s.n_frames; k++)
        {
          g_assert_cmpstr (s.frames[k].method, ==, in[i].frames[k].method);
          g_assert_cmpint (s.frames[k].line, ==, in[i].frames[k].line);
        }
    }
  g_assert_false (jvms_samples_reader_next (r, &s, &error));
  g_assert_no_error (error);
}

/* Pseudo-frames, recursion counted once in the method table, frame kinds merged, compilations
 * and method timings in the table. */
static void
test_tree_details (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  JvmsSamplesWriter *w = jvms_samples_writer_new (f->path, &error);
  guint32 cpu = jvms_samples_writer_intern_type (w, "jdk.ExecutionSample", JVMS_SAMPLE_UNIT_NS,
                                                 JVMS_SAMPLE_TYPE_CPU | JVMS_SAMPLE_TYPE_SAMPLER);
  guint32 thread = jvms_samples_writer_intern_thread (w, 9, "main");
  /* a -> b -> a -> c (top c), JIT; a -> b interpreted; a truncated stack; an unknown frame. */
  JvmsStackFrameIn rec[] = { { "p.C", "c", 1, JVMS_FRAME_KIND_JIT }, { "p.A", "a", 2, JVMS_FRAME_KIND_JIT },
                             { "p.B", "b", 3, JVMS_FRAME_KIND_JIT }, { "p.A", "a", 4, JVMS_FRAME_KIND_JIT } };
  JvmsStackFrameIn ab[] = { { "p.B", "b", 9, JVMS_FRAME_KIND_INTERPRETED }, { "p.A", "a", 4, JVMS_FRAME_KIND_INTERPRETED } };
  JvmsStackFrameIn unk[] = { { NULL, "x", 1, JVMS_FRAME_KIND_NATIVE }, { "p.A", "a", 4, JVMS_FRAME_KIND_JIT } };
  guint32 stacks[] = {
    jvms_samples_writer_intern_frames (w, rec, 4, FALSE),
    jvms_samples_writer_intern_frames (w, ab, 2, FALSE),
    jvms_samples_writer_intern_frames (w, ab, 1, TRUE),
    jvms_samples_writer_intern_frames (w, unk, 2, FALSE),
    jvms_samples_writer_intern_frames (w, NULL, 0, FALSE),
  };
  guint counts[] = { 5, 3, 2, 1, 1 };
  gint64 t = 1000;
  for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
    for (guint k = 0; k < counts[i]; k++)
      {
        JvmsSampleRecord r = { .time = t++, .type = cpu, .thread = thread, .stack = stacks[i],
                               .weight = 10, .detail = JVMS_SAMPLES_NONE };
        jvms_samples_writer_add_record (w, &r);
      }
  guint32 method_a = jvms_samples_writer_intern_method (w, "p.A", "a");
  JvmsSamplesCompilation comps[] = {
    { .time = 1001, .duration = 500, .method = method_a, .tier = 3 },
    { .time = 1002, .duration = 700, .method = method_a, .tier = 4 },
    { .time = 99999, .duration = 1, .method = method_a, .tier = 5 },   /* after the range */
  };
  for (guint i = 0; i < G_N_ELEMENTS (comps); i++)
    jvms_samples_writer_add_compilation (w, &comps[i]);
  JvmsSamplesTiming timing = { .time = 1005, .method = method_a, .invocations = 42, .minimum = 10,
                               .average = 20, .maximum = 30 };
  jvms_samples_writer_add_timing (w, &timing);
  g_assert_true (jvms_samples_writer_close (w, &error));
  jvms_samples_writer_free (w);

  g_autoptr(JvmsProfile) profile = jvms_profile_open (f->path, &error);
  g_assert_no_error (error);
  JvmsProfileQuery q = { .from = 0, .to = 5000, .kind = JVMS_PROFILE_KIND_CPU };
  g_autoptr(JvmsCallTree) tree = jvms_profile_query (profile, &q, NULL, &error);
  g_assert_no_error (error);
  g_autofree char *folded = jvms_call_tree_to_folded (tree, 0);
  g_assert_cmpstr (folded, ==,
                   "p.A.a;p.B.b;p.A.a;p.C.c 5\n"
                   "p.A.a;p.B.b 3\n"
                   "[truncated];p.B.b 2\n"
                   "[unknown] 1\n"
                   "p.A.a;[unknown] 1\n");
  g_autofree char *top1 = jvms_call_tree_to_folded (tree, 1);
  g_assert_cmpstr (top1, ==, "p.A.a;p.B.b;p.A.a;p.C.c 5\n");
  g_assert_cmpstr (jvms_call_tree_get_unit (tree), ==, "samples");
  /* The method table: a's total is 9 (recursion once), not 14. */
  gboolean seen_a = FALSE;
  for (guint i = 0; i < jvms_call_tree_get_n_methods (tree); i++)
    {
      const JvmsCallTreeMethod *m = jvms_call_tree_get_method_row (tree, i);
      if (strcmp (jvms_call_tree_get_method_name (tree, m->method), "p.A.a") != 0)
        continue;
      seen_a = TRUE;
      g_assert_cmpuint (m->self, ==, 0);
      g_assert_cmpuint (m->total, ==, 9);
      g_assert_cmpuint (m->n_compilations, ==, 2);
      g_assert_cmpint (m->highest_tier, ==, 4);
      g_assert_cmpint (m->jit_ns, ==, 1200);
      g_assert_cmpint (m->invocations, ==, 42);
      g_assert_cmpint (m->time_avg, ==, 20);
    }
  g_assert_true (seen_a);
  /* b and c both have self 5: b leads by its total (10, c 5). */
  g_assert_cmpstr (jvms_call_tree_get_method_name (tree, jvms_call_tree_get_method_row (tree, 0)->method), ==, "p.B.b");
  /* p.A.a at the root merged JIT and interpreted frames. */
  const JvmsCallTreeNode *a = jvms_call_tree_get_node (tree, jvms_call_tree_get_node (tree, 0)->first_child);
  g_assert_cmpstr (jvms_call_tree_get_method_name (tree, a->method), ==, "p.A.a");
  g_assert_cmpuint (a->frame_kinds, ==, (1u << JVMS_FRAME_KIND_JIT) | (1u << JVMS_FRAME_KIND_INTERPRETED));
  g_autofree char *csv = jvms_call_tree_to_csv (tree, 0);
  g_assert_true (strstr (csv, "\np.A.a,0,9,0,9,2,4,1200,42,10,20,30\n") != NULL);
}

/* Damage: every cut and many flipped bytes give an error or a correct-looking answer, never a
 * crash (the sanitized build checks the reads). */
static void
test_damage (Fixture *f, gconstpointer data)
{
  fixture_write (f, 3 * JVMS_SAMPLES_BLOCK_SAMPLES, G_GINT64_CONSTANT (1000000000), TRUE);
  g_autofree char *bytes = NULL;
  gsize size;
  g_assert_true (g_file_get_contents (f->path, &bytes, &size, NULL));

  struct { gsize offset; guint8 flip; const char *message; } cases[] = {
    { 0, 0x01, "bad magic" },
    { 8, JVMS_SAMPLES_VERSION ^ 9, "version 9" },
    { 16, 0x01, "its header says" },      /* file size */
  };
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *copy = g_memdup2 (bytes, size);
      copy[cases[i].offset] ^= (char) cases[i].flip;
      g_autoptr(GBytes) b = g_bytes_new_take (g_steal_pointer (&copy), size);
      g_autoptr(GError) error = NULL;
      JvmsSamplesStore *store = jvms_samples_store_open_bytes (b, "damaged.samples", &error);
      g_assert_null (store);
      g_assert_error (error, JVMS_ANALYSIS_ERROR, JVMS_ANALYSIS_ERROR_INDEX);
      g_assert_true (strstr (error->message, "damaged.samples") != NULL);
      g_assert_true (strstr (error->message, cases[i].message) != NULL);
    }

  for (guint round = 0; round < 400; round++)
    {
      gsize n = round < 100 ? (gsize) g_test_rand_int_range (0, (gint32) size) : size;
      g_autofree char *copy = g_memdup2 (bytes, size);
      if (round >= 100)
        for (guint k = 0; k < 1 + round % 4; k++)
          copy[g_test_rand_int_range (64, (gint32) size)] ^= (char) (1 << g_test_rand_int_range (0, 8));
      g_autoptr(GBytes) b = g_bytes_new_take (g_steal_pointer (&copy), n);
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsSamplesStore) store = jvms_samples_store_open_bytes (b, "damaged.samples", &error);
      if (store == NULL)
        {
          g_assert_nonnull (error);
          continue;
        }
      g_autoptr(JvmsProfile) profile = jvms_profile_new_for_store (store);
      for (guint k = 0; k < JVMS_PROFILE_KIND_N - 1; k++)
        {
          JvmsProfileQuery q = { .from = G_MININT64 / 2, .to = G_MAXINT64 / 2, .kind = (JvmsProfileKind) k };
          g_autoptr(GError) qerror = NULL;
          g_autoptr(JvmsCallTree) tree = jvms_profile_query (profile, &q, NULL, &qerror);
          g_assert_true ((tree == NULL) == (qerror != NULL));
          if (tree != NULL)
            {
              g_autofree char *folded = jvms_call_tree_to_folded (tree, 0);
              g_assert_nonnull (folded);
            }
        }
    }
}

/* A sample of a type past the types a store holds (2^24: the writer's open run packs the type
 * in 24 bits) refuses the store with an error that says so, not only that it could not be
 * written. The limit is lowered to 2 so that no 2^24 types need interning. */
static void
test_too_many_types (Fixture *f, gconstpointer data)
{
  g_autoptr(GError) error = NULL;
  JvmsSamplesWriter *w = jvms_samples_writer_new (f->path, &error);
  g_assert_no_error (error);
  jvms_samples_writer_set_max_types (w, 2);
  guint32 thread = jvms_samples_writer_intern_thread (w, 101, "worker");
  guint32 types[3];
  for (guint i = 0; i < 3; i++)
    types[i] = jvms_samples_writer_intern_type (w, model_types[i].name, model_types[i].unit, model_types[i].flags);
  for (guint i = 0; i < 3; i++)
    {
      JvmsSampleRecord rec = { .time = 1000 + i, .type = types[i], .thread = thread, .stack = JVMS_SAMPLES_NONE,
                               .weight = 1, .detail = JVMS_SAMPLES_NONE };
      jvms_samples_writer_add_record (w, &rec);
    }
  g_assert_false (jvms_samples_writer_close (w, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_FAILED);
  g_assert_true (strstr (error->message, "could not write the sample store") != NULL);
  g_assert_true (strstr (error->message, "a sample of type 2: a store holds at most 2 sample types") != NULL);
  jvms_samples_writer_free (w);
  g_assert_false (g_file_test (f->path, G_FILE_TEST_EXISTS));
}

typedef struct
{
  GMainLoop    *loop;
  JvmsCallTree *tree;
} AsyncData;

static void
query_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  AsyncData *d = user_data;
  g_autoptr(GError) error = NULL;
  d->tree = jvms_profile_query_finish (JVMS_PROFILE (source), result, &error);
  g_assert_no_error (error);
  g_main_loop_quit (d->loop);
}

/* The window's form: in a worker, the same tree as the synchronous query. */
static void
test_async (Fixture *f, gconstpointer data)
{
  fixture_write (f, 10000, G_GINT64_CONSTANT (10000000000), FALSE);
  g_autoptr(GError) error = NULL;
  g_autoptr(JvmsProfile) profile = jvms_profile_open (f->path, &error);
  gint64 tids[] = { 101, 102 };
  JvmsProfileQuery q = { .from = G_MININT64, .to = G_MAXINT64, .tids = tids, .n_tids = 2,
                         .kind = JVMS_PROFILE_KIND_WALL };
  AsyncData d = { g_main_loop_new (NULL, FALSE), NULL };
  jvms_profile_query_async (profile, &q, NULL, query_done, &d);
  tids[0] = 0;   /* the request was copied */
  g_main_loop_run (d.loop);
  g_main_loop_unref (d.loop);
  tids[0] = 101;
  g_autoptr(JvmsCallTree) sync = jvms_profile_query (profile, &q, NULL, &error);
  g_autofree char *a = jvms_call_tree_to_folded (d.tree, 0);
  g_autofree char *b = jvms_call_tree_to_folded (sync, 0);
  g_assert_cmpstr (a, ==, b);
  g_assert_cmpuint (jvms_call_tree_get_total (d.tree), >, 0);
  g_assert_finalize_object (d.tree);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/profile/model", Fixture, NULL, fixture_set_up, test_model, fixture_tear_down);
  g_test_add ("/profile/nodes-only", Fixture, NULL, fixture_set_up, test_nodes_only, fixture_tear_down);
  g_test_add ("/profile/sparse", Fixture, NULL, fixture_set_up, test_sparse, fixture_tear_down);
  g_test_add ("/profile/compat-reader", Fixture, NULL, fixture_set_up, test_compat_reader, fixture_tear_down);
  g_test_add ("/profile/tree-details", Fixture, NULL, fixture_set_up, test_tree_details, fixture_tear_down);
  g_test_add ("/profile/damage", Fixture, NULL, fixture_set_up, test_damage, fixture_tear_down);
  g_test_add ("/profile/too-many-types", Fixture, NULL, fixture_set_up, test_too_many_types, fixture_tear_down);
  g_test_add ("/profile/async", Fixture, NULL, fixture_set_up, test_async, fixture_tear_down);
  return g_test_run ();
}
