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

G_END_DECLS
