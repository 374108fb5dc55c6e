/* jvmscope-history-stat: what an index file holds, as LMDB's mdb_stat does for its files.
 * Reads the header and every node and summary blob (so it also checks the whole file). */
#include "jvms-history-private.h"

#include <stdio.h>
#include <sys/stat.h>

typedef struct
{
  guint64 nodes, intervals, csize, usize;
} LevelStat;

static gboolean
walk (JvmsHistory *h, guint64 off, guint32 csize, guint32 level, gint64 start, gint64 max_end,
      LevelStat *ls, GError **error)
{
  /* The header's payload size: a node's frames are decompressed only when read. */
  guint8 hb[sizeof (JvmsNodeHeader)];
  if (!jvms_read_exact (h->fd, hb, sizeof hb, off, h->path, "node header", error))
    return FALSE;
  g_autoptr (JvmsNode) n = jvms_history_get_node (h, off, csize, level, start, max_end, error);
  if (n == NULL)
    return FALSE;
  if (level < 64)
    {
      ls[level].nodes++;
      ls[level].intervals += n->n_intervals;
      ls[level].csize += sizeof (JvmsNodeHeader) + csize;
      ls[level].usize += jvms_get_u32le (hb + 12);
    }
  for (guint c = 0; c < n->n_children; c++)
    {
      gint64 ce = c + 1 < n->n_children ? n->children[c + 1].start : n->end;
      if (!walk (h, n->children[c].offset, n->children[c].csize, level - 1, n->children[c].start,
                 ce, ls, error))
        return FALSE;
    }
  return TRUE;
}

int
main (int argc, char **argv)
{
  g_autoptr (GError) error = NULL;
  if (argc != 2)
    {
      fprintf (stderr, "usage: jvmscope-history-stat FILE\n");
      return 2;
    }
  /* A small cache: the walk reads every node once. */
  g_autoptr (JvmsHistory) h = jvms_history_open (argv[1], 4 * 1024 * 1024, &error);
  if (h == NULL)
    {
      fprintf (stderr, "jvmscope-history-stat: %s\n", error->message);
      return 1;
    }
  LevelStat ls[64] = { 0 };
  if (!walk (h, h->root_offset, h->root_csize, h->depth - 1, h->start_time, h->end_time, ls, &error) ||
      !jvms_history_check (h, &error))
    {
      fprintf (stderr, "jvmscope-history-stat: %s\n", error->message);
      return 1;
    }
  printf ("file:             %s\n", h->path);
  printf ("format version:   %u (complete)\n", JVMS_HISTORY_VERSION);
  printf ("file size:        %" G_GUINT64_FORMAT " bytes\n", h->file_size);
  printf ("node size:        %u bytes (uncompressed, at most; inner nodes up to %u)\n", h->node_size,
          MAX (h->node_size, h->max_node_usize));
  printf ("time range:       [%" G_GINT64_FORMAT ", %" G_GINT64_FORMAT ") ns, %.6f s\n",
          h->start_time, h->end_time, (double) (h->end_time - h->start_time) * 1e-9);
  printf ("attributes:       %u\n", jvms_attr_tree_size (h->attrs));
  printf ("strings:          %u\n", jvms_string_table_size (h->strings));
  printf ("metadata keys:    %u\n", g_hash_table_size (h->metadata));
  printf ("intervals:        %" G_GUINT64_FORMAT "\n", h->n_intervals);
  printf ("tree depth:       %u\n", h->depth);
  printf ("tree nodes:       %" G_GUINT64_FORMAT "\n", h->n_nodes);
  guint64 tc = 0, tu = 0, ti = 0;
  for (guint l = h->depth; l-- > 0;)
    {
      printf ("  level %2u:       %8" G_GUINT64_FORMAT " nodes %12" G_GUINT64_FORMAT " intervals %12"
              G_GUINT64_FORMAT " bytes on disk, %12" G_GUINT64_FORMAT " uncompressed\n",
              l, ls[l].nodes, ls[l].intervals, ls[l].csize, ls[l].usize);
      tc += ls[l].csize;
      tu += ls[l].usize;
      ti += ls[l].intervals;
    }
  if (ti != h->n_intervals)
    printf ("WARNING: the nodes hold %" G_GUINT64_FORMAT " intervals, the header says %" G_GUINT64_FORMAT "\n",
            ti, h->n_intervals);
  guint64 tables = h->file_size - h->data_end;
  printf ("summary runs:     %u, %" G_GUINT64_FORMAT " bytes of blobs\n", jvms_summary_index_n_blobs (h->summary), h->summary_bytes);
  for (guint l = 0; l <= JVMS_SUMMARY_LEVEL_CHANGES; l++)
    {
      guint runs, finest;
      guint64 items;
      jvms_summary_index_level_stats (h->summary, l, &runs, &items, &finest);
      if (runs == 0)
        continue;
      if (l == JVMS_SUMMARY_LEVEL_CHANGES)
        printf ("  change lists: %8u runs %12" G_GUINT64_FORMAT " changes\n", runs, items);
      else
        printf ("  level %2u (%9.3f ms buckets): %8u runs %12" G_GUINT64_FORMAT " buckets, finest of %u attributes\n",
                l, (double) ((guint64) 1 << (JVMS_SUMMARY_BASE_SHIFT + l * JVMS_SUMMARY_LEVEL_SHIFT)) / 1e6,
                runs, items, finest);
    }
  printf ("tables:           %" G_GUINT64_FORMAT " bytes (attributes, strings, metadata, summary directory)\n", tables);
  guint64 n_iv = MAX (h->n_intervals, 1);
  printf ("bytes/interval:   %.3f (file), %.3f (tree nodes only), %.3f (summary)\n",
          (double) h->file_size / (double) n_iv, (double) tc / (double) n_iv,
          (double) h->summary_bytes / (double) n_iv);
  printf ("uncompressed/interval: %.3f bytes; lz4 ratio %.3f\n", (double) tu / (double) n_iv,
          tc ? (double) tu / (double) tc : 0.0);
  return 0;
}
