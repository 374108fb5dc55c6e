/* cli-count.h: counting events per type, the part of `jvmscope-cli summary` that each input
 * format supplies (cli-count-jfr.c, cli-count-perf.c, cli-count-ctf.c).
 */
#pragma once

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  /* Event type name (e.g. "jdk.ThreadSleep", "sched:sched_switch") to a guint64 count,
   * stored with jvms_cli_counts_add(). */
  GHashTable *counts;
  /* Warnings about damage that was survived: each names the file, the offset and the
   * structure. A non-empty list makes the summary exit with status 3 (partial). */
  GPtrArray  *warnings;
  /* Format-specific members added to the JSON output and printed in the text header
   * (e.g. "chunks", "start_time_ns", "duration_ns"). */
  JsonObject *extra;
} JvmsCliCounts;

void     jvms_cli_counts_init  (JvmsCliCounts *self);
void     jvms_cli_counts_clear (JvmsCliCounts *self);
void     jvms_cli_counts_add   (JvmsCliCounts *self,
                                const char    *type_name,
                                guint64        n);
void     jvms_cli_counts_warn  (JvmsCliCounts *self,
                                const char    *format,
                                ...) G_GNUC_PRINTF (2, 3);

/* Each returns FALSE with @error set when nothing could be read; TRUE, possibly with
 * warnings in @out, when every event that could be read was counted. */
gboolean jvms_cli_count_jfr    (const char    *path,
                                JvmsCliCounts *out,
                                GError       **error);
gboolean jvms_cli_count_perf   (const char    *path,
                                JvmsCliCounts *out,
                                GError       **error);
gboolean jvms_cli_count_ctf    (const char    *path,
                                JvmsCliCounts *out,
                                GError       **error);

G_END_DECLS
