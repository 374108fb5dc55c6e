/* fuzz-perf: libFuzzer entry point for the perf.data reader: header, attrs, feature sections
 * (TRACING_DATA formats through libtraceevent included), the record stream, zstd records and
 * the time merge, in both delivery modes.
 *
 *   CC=clang meson setup build-fuzz -Dfuzzing=true -Db_sanitize=address,undefined \
 *     -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link -Dgui=disabled
 *   build-fuzz/tests/fuzz/fuzz-perf -max_len=262144 -timeout=5 -rss_limit_mb=1024 \
 *     -malloc_limit_mb=256 CORPUS/     (seeds: small perf.data files, with and without -z)
 */
#include <stdint.h>
#include <string.h>

#include "jvms-perf.h"

static void
discard_log (const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer data)
{
}

int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  static gboolean quiet;
  if (!quiet)
    {
      g_log_set_default_handler (discard_log, NULL);
      quiet = TRUE;
    }
  static const JvmsPerfReaderFlags modes[] = { JVMS_PERF_READER_DEFAULT, JVMS_PERF_READER_UNORDERED };
  g_autoptr(GBytes) bytes = g_bytes_new_static (data, size);
  for (gsize m = 0; m < G_N_ELEMENTS (modes); m++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(JvmsPerfReader) reader = jvms_perf_reader_open_bytes (bytes, "fuzz.perf.data", modes[m], &error);
      if (reader == NULL)
        return 0;
      JvmsKernelEvent ev;
      guint64 sum = 0;
      while (jvms_perf_reader_next (reader, &ev, &error))
        {
          /* Touch what the event points at, so that a dangling string is caught. */
          sum += (guint64) ev.time + strlen (ev.name);
          if (ev.type == JVMS_KERNEL_EVENT_PROCESS_EXEC && ev.task.filename != NULL)
            sum += strlen (ev.task.filename);
          if (ev.type == JVMS_KERNEL_EVENT_SYSCALL_ENTER && ev.syscall.sys != NULL)
            sum += strlen (ev.syscall.sys);
          if (ev.type == JVMS_KERNEL_EVENT_COUNTER_SAMPLE && ev.counter.counter != NULL)
            sum += strlen (ev.counter.counter);
        }
      (void) sum;
      GPtrArray *warnings = jvms_perf_reader_get_warnings (reader);
      for (guint i = 0; i < warnings->len; i++)
        sum += strlen (g_ptr_array_index (warnings, i));
      for (guint i = 0; i < jvms_perf_reader_get_n_attrs (reader); i++)
        sum += strlen (jvms_perf_reader_get_attr (reader, i)->name);
    }
  return 0;
}
