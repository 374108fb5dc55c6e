/* fuzz-seeds: writes the shapes of issue 28 for the fuzz targets whose seeds no regression
 * driver writes (scripts/run-fuzz.sh runs it; fuzz-jfr-regress --write-corpus writes JFR's).
 *
 *   fuzz-seeds perf DIR   perf.data files whose attributes share one id table, and a group a
 *                         tracepoint leads with a repeated sample (perf-writer.c)
 */
#include <glib.h>
#include <string.h>

#include "perf-writer.h"

static void
write_seed (const char *dir, const char *name, GBytes *bytes)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;
  if (!g_file_set_contents (path, g_bytes_get_data (bytes, NULL), (gssize) g_bytes_get_size (bytes), &error))
    g_error ("%s", error->message);
  g_bytes_unref (bytes);
}

int
main (int argc, char **argv)
{
  if (argc != 3 || strcmp (argv[1], "perf") != 0)
    {
      g_printerr ("usage: fuzz-seeds perf DIR\n");
      return 2;
    }
  g_mkdir_with_parents (argv[2], 0755);
  /* fuzz-perf takes inputs up to 256 KiB */
  write_seed (argv[2], "shape-shared-ids.data", perf_shape_shared_ids (1500, 2048, FALSE, 50));
  write_seed (argv[2], "shape-shifted-ids.data", perf_shape_shared_ids (1500, 2048, TRUE, 50));
  write_seed (argv[2], "shape-few-attrs.data", perf_shape_shared_ids (3, 16, FALSE, 200));
  const PerfGroupRead reads[] = { { 1, 5 }, { 1, 5 }, { 2, 7 }, { 3, 9 } };
  write_seed (argv[2], "shape-group-repeat.data", perf_shape_group_reads (reads, G_N_ELEMENTS (reads)));
  return 0;
}
