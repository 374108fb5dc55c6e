/* jvms-ctf-bt.h (private): the few libbabeltrace2 chores the reader and the repair share. */
#pragma once

#include <babeltrace2/babeltrace.h>
#include <glib.h>

G_BEGIN_DECLS

/* `source.ctf.fs`, loaded once per process. NULL with @error when the plugin is missing. */
const bt_component_class_source *jvms_ctf_bt_source_class (GError **error);

/* Takes the current thread's babeltrace2 error and renders its causes, outermost first, joined
 * by ": ", without the library's own internal causes (addresses of its objects). NULL when
 * there is no error. */
char      *jvms_ctf_bt_take_error_text (void);

/* `{"inputs": [...]}` for source.ctf.fs. */
bt_value  *jvms_ctf_bt_inputs_params   (const char * const *inputs);

/* Adds a source.ctf.fs component reading @inputs to @graph. FALSE with @error_text (the
 * babeltrace2 causes) when its initialization fails, e.g. when a stream file cannot be
 * indexed or the metadata cannot be parsed. */
gboolean   jvms_ctf_bt_add_source      (bt_graph                   *graph,
                                        const char * const         *inputs,
                                        const bt_component_source **source,
                                        char                      **error_text,
                                        GError                    **error);

/* Whether source.ctf.fs can open @inputs at all (metadata parsed, every stream file indexed). */
gboolean   jvms_ctf_bt_probe           (const char * const *inputs,
                                        char              **error_text);

typedef enum
{
  JVMS_CTF_PROBE_OK,
  JVMS_CTF_PROBE_FAILED,
  JVMS_CTF_PROBE_HUNG,
} JvmsCtfProbeResult;

/* jvms_ctf_bt_probe() in a child process, killed when it has used more CPU time than
 * jvms_ctf_bt_probe_timeout_ms() (CPU, not wall time: a loaded machine only slows it): babeltrace2 2.0 loops for ever, allocating, on a packet whose
 * declared size is 0, and nothing in its API can interrupt the indexing. What the child says
 * is deterministic, so after FAILED the caller may probe again in-process for the reason;
 * after HUNG it must not. */
JvmsCtfProbeResult jvms_ctf_bt_probe_guarded (const char * const *inputs);

/* The same, for many probes in a row (the repair's): one child process answers them one after
 * the other, so that the fork and the copying of the parent's pages it causes (most of a
 * probe's cost, several times more under ASan) are paid once, not per probe. A child that does
 * not answer in time is killed and the next probe starts another. */
typedef struct _JvmsCtfProber JvmsCtfProber;

JvmsCtfProber     *jvms_ctf_prober_new   (void);
JvmsCtfProbeResult jvms_ctf_prober_probe (JvmsCtfProber      *prober,
                                          const char * const *inputs);
void               jvms_ctf_prober_free  (JvmsCtfProber      *prober);

/* The probe's CPU-time budget: 2 s plus 20 ms per MB of stream files; JVMS_CTF_PROBE_TIMEOUT_MS
 * overrides (fuzzing). */
guint      jvms_ctf_bt_probe_timeout_ms (const char * const *inputs);

G_END_DECLS
