/* jvms-report-stacks.c: each finding cites where in the code its time went: the heaviest
 * stacks its threads were sampled in over the report's range, by the profile query
 * (jvms-profile.h) of the kinds that show the finding's cause (docs/report.md, "Cited stacks").
 * The same query as `jvmscope-cli profile --from --to --thread... --kind`, so the stacks a
 * finding cites are the folded lines that command prints first. */
#include "jvms-report-private.h"

#include "jvms-profile.h"

/* Stacks cited per finding. */
#define CITED_STACKS 5

static const char * const cpu_kinds[] = { "cpu", NULL };
static const char * const waiting_kinds[] = { "cpu-waiting", NULL };
static const char * const alloc_kinds[] = { "alloc", NULL };
static const char * const lock_kinds[] = { "lock", NULL };
static const char * const park_kinds[] = { "park", "wait", NULL };
static const char * const sleep_kinds[] = { "sleep", NULL };
static const char * const io_kinds[] = { "io", NULL };

/* The profile kinds of a finding: the blocking events behind monitor contention, parking
 * (LockSupport.park and Object.wait), sleeping and I/O; the allocations that drive collections;
 * the CPU samples of the code that ran (program logic, JIT, safepoints) or, with the kernel
 * layer, that waited for a CPU (CPU contention). */
static const char * const *
finding_kinds (JvmsFindingKind kind, gboolean kernel_states)
{
  switch (kind)
    {
    case JVMS_FINDING_MONITOR_CONTENTION: return lock_kinds;
    case JVMS_FINDING_CPU_CONTENTION:     return kernel_states ? waiting_kinds : cpu_kinds;
    case JVMS_FINDING_GC:
    case JVMS_FINDING_ALLOCATION:         return alloc_kinds;
    case JVMS_FINDING_SLEEPING:           return sleep_kinds;
    case JVMS_FINDING_PARKING:            return park_kinds;
    case JVMS_FINDING_IO:                 return io_kinds;
    case JVMS_FINDING_JIT:
    case JVMS_FINDING_SAFEPOINT:
    case JVMS_FINDING_PROGRAM_LOGIC:
    default:                              return cpu_kinds;
    }
}

/* A stack of one of the queried trees, by its folded line. */
typedef struct
{
  JvmsCallTree *tree;
  guint32       node;
  guint64       weight;
  guint64       samples;
  const char   *line;
} Cited;

static int
compare_cited (gconstpointer pa, gconstpointer pb)
{
  const Cited *a = pa, *b = pb;
  if (a->weight != b->weight)
    return a->weight > b->weight ? -1 : 1;
  return strcmp (a->line, b->line);
}

/* The stacks of @kinds over the report's range and @tids: every stack of each kind's tree, a
 * stack met in two kinds summed (the kinds of one finding share a unit), ordered as folded
 * lines. Cited, pointing into @trees. */
static GArray *
gather (JvmsReport *report, JvmsProfile *profile, const char * const *kinds, GArray *tids,
        GPtrArray *trees, GPtrArray *lines, const char **unit, GError **error)
{
  g_autoptr(GHashTable) by_line = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  for (guint k = 0; kinds[k] != NULL; k++)
    {
      JvmsProfileQuery query = { .from = report->from, .to = report->to,
                                 .tids = (const gint64 *) tids->data, .n_tids = tids->len };
      jvms_profile_kind_parse (kinds[k], &query.kind, &query.event_type);
      JvmsCallTree *tree = jvms_profile_query (profile, &query, NULL, error);
      if (tree == NULL)
        return NULL;
      g_ptr_array_add (trees, tree);
      *unit = jvms_call_tree_get_unit (tree);
      GPtrArray *tree_lines = NULL;
      g_autoptr(GArray) nodes = jvms_call_tree_dup_stacks (tree, 0, &tree_lines);
      g_ptr_array_add (lines, tree_lines);
      for (guint i = 0; i < nodes->len; i++)
        {
          guint32 node = g_array_index (nodes, guint32, i);
          const JvmsCallTreeNode *n = jvms_call_tree_get_node (tree, node);
          Cited *c = g_hash_table_lookup (by_line, tree_lines->pdata[i]);
          if (c == NULL)
            {
              c = g_new0 (Cited, 1);
              *c = (Cited) { tree, node, 0, 0, tree_lines->pdata[i] };
              g_hash_table_insert (by_line, (gpointer) c->line, c);
            }
          c->weight += n->self;
          c->samples += n->self_samples;
        }
    }
  GArray *ranked = g_array_new (FALSE, FALSE, sizeof (Cited));
  GHashTableIter it;
  gpointer value;
  g_hash_table_iter_init (&it, by_line);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_array_append_vals (ranked, value, 1);
  g_array_sort (ranked, compare_cited);
  return ranked;
}

/* A finding of waiting (monitors, parking, sleeping, I/O) in a recording without those events
 * (a profiler's: docs/writers.md) was estimated from wall-clock samples: those are its stacks. */
static gboolean
waits (JvmsFindingKind kind)
{
  return kind == JVMS_FINDING_MONITOR_CONTENTION || kind == JVMS_FINDING_PARKING
         || kind == JVMS_FINDING_SLEEPING || kind == JVMS_FINDING_IO;
}

static gboolean
cite (JvmsReport *report, JvmsProfile *profile, JvmsFinding *finding, GError **error)
{
  JvmsSamplesStore *store = jvms_profile_get_store (profile);
  const char * const *kinds = finding_kinds (finding->kind, jvms_samples_store_has_kernel_states (store));
  g_autoptr(GArray) tids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < finding->threads->len; i++)
    g_array_append_val (tids, g_array_index (finding->threads, JvmsThreadRef, i).tid);
  if (tids->len == 0)
    return TRUE;

  /* Beside JDK 25's CPU-time samples the execution samples are not counted (docs/writers.md):
   * the CPU-time samples alone, as `profile --kind jdk.CPUTimeSample` gives them. */
  const JvmsSamplerInfo *execution = report->recording != NULL ? &report->recording->samplers[JVMS_SAMPLER_EXECUTION] : NULL;
  const char *cpu_time_kinds[] = { report->recording != NULL ? report->recording->samplers[JVMS_SAMPLER_CPU].type : NULL, NULL };
  if (kinds == cpu_kinds && execution != NULL && execution->source != JVMS_INTERVAL_NONE && cpu_time_kinds[0] != NULL)
    kinds = cpu_time_kinds;

  g_autoptr(GPtrArray) trees = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) lines = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  const char *unit = NULL;
  g_autoptr(GArray) ranked = gather (report, profile, kinds, tids, trees, lines, &unit, error);
  if (ranked == NULL)
    return FALSE;
  const char *wall_type = report->recording != NULL ? report->recording->samplers[JVMS_SAMPLER_WALL].type : NULL;
  const char *wall_kinds[] = { wall_type, NULL };
  if (ranked->len == 0 && waits (finding->kind) && finding->estimated_ns > 0 && wall_type != NULL)
    {
      g_clear_pointer (&ranked, g_array_unref);
      ranked = gather (report, profile, wall_kinds, tids, trees, lines, &unit, error);
      if (ranked == NULL)
        return FALSE;
      kinds = wall_kinds;
    }

  JvmsEvidence *e = &finding->evidence;
  e->stacks = jvms_evidence_stacks_new ();
  for (guint k = 0; kinds[k] != NULL && k + 1 < G_N_ELEMENTS (e->stacks_kinds); k++)
    e->stacks_kinds[k] = g_string_chunk_insert_const (report->strings, kinds[k]);
  e->stacks_unit = g_string_chunk_insert_const (report->strings, unit != NULL ? unit : "samples");
  for (guint i = 0; i < ranked->len && i < CITED_STACKS; i++)
    {
      const Cited *c = &g_array_index (ranked, Cited, i);
      JvmsEvidenceStack s = { g_ptr_array_new (), (gint64) c->samples, c->weight };
      /* Top first, as the report's other stacks. */
      for (guint32 node = c->node; node != 0; node = jvms_call_tree_get_node (c->tree, node)->parent)
        {
          const char *method = jvms_call_tree_get_method_name (c->tree,
                                                                jvms_call_tree_get_node (c->tree, node)->method);
          g_ptr_array_add (s.frames, g_string_chunk_insert_const (report->strings, method));
        }
      g_array_append_val (e->stacks, s);
    }
  return TRUE;
}

gboolean
jvms_report_cite_stacks (JvmsReport *report, const char *samples_path, GError **error)
{
  if (samples_path == NULL || !g_file_test (samples_path, G_FILE_TEST_EXISTS))
    return TRUE;
  g_autoptr(JvmsProfile) profile = jvms_profile_open (samples_path, error);
  if (profile == NULL)
    return FALSE;
  for (guint i = 0; i < report->findings->len; i++)
    if (!cite (report, profile, g_ptr_array_index (report->findings, i), error))
      return FALSE;
  return TRUE;
}
