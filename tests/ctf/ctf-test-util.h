/* ctf-test-util.h: what the CTF tests share: babeltrace2 as the oracle, our reader's events
 * gathered in memory, copies of the test traces in temporary folders. */
#pragma once

#include <glib.h>

#include "jvms-ctf.h"

G_BEGIN_DECLS

/* One event as babeltrace2's text sink prints it. */
typedef struct
{
  char   *name;
  gint64  time;     /* ns from origin (printed with clock-seconds) */
  gint64  cpu;      /* { cpu_id = N }, or -1 */
  char   *payload;  /* the text between the last "{ " and " }" */
} BtLine;

/* One event as our reader delivered it, strings copied. */
typedef struct
{
  JvmsKernelEvent event;
  char           *name;
  char           *filename;
} OurEvent;

const char *ctf_test_trace_dir      (const char *name); /* "scp_src" → testdata path */
char       *ctf_test_tmp_dir        (void);
void        ctf_test_rm_rf          (const char *dir);
char       *ctf_test_copy_trace     (const char *src, const char *tmp_root, const char *name);

/* `babeltrace2 run` with source.ctf.fs straight into sink.text.pretty: every event of every
 * stream, without the muxer (which stops at LTTng 2.1's overlapping packets). */
GPtrArray  *ctf_test_babeltrace_events (const char *dir, int *exit_status);
/* Plain `babeltrace2 DIR`, which goes through the muxer. */
GPtrArray  *ctf_test_babeltrace_cli    (const char *dir, int *exit_status);
GHashTable *ctf_test_count_names       (GPtrArray *bt_lines); /* name → GUINT_TO_POINTER(count) */

/* Every event of @dir through our reader; @error set when the open or the reading failed. */
GPtrArray  *ctf_test_read_all          (const char *dir, JvmsCtfReaderFlags flags,
                                        GPtrArray **warnings, GError **error);

/* A field of a babeltrace2 payload text: `name = value`, value up to ", " or the end. */
char       *ctf_test_payload_field     (const char *payload, const char *name);

/* Offsets of the packets of a stream file: where the first 20 bytes (magic and uuid) recur. */
GArray     *ctf_test_packet_starts     (const char *path);

G_END_DECLS
