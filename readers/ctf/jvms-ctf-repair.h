/* jvms-ctf-repair.h (private): what to do when babeltrace2 refuses a trace.
 *
 * babeltrace2 2.0 indexes every packet of every stream file when the source is created, and
 * one bad packet header anywhere (a file cut by a crash, a zero-filled block) makes it refuse
 * the whole trace. Packets are self-contained, each starting with the CTF magic and the
 * trace's uuid, so a stream file can be cut into packets without understanding its layout;
 * babeltrace2 itself then says which packets it can index, and the good ones are copied into a
 * temporary trace folder that babeltrace2 reads instead.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Called when source.ctf.fs failed on @inputs (trace folders, NULL-terminated) with @why.
 * When the metadata is readable and some stream files are not, makes a temporary folder
 * (@tmp_dir, to remove with jvms_ctf_repair_remove()) holding one trace folder per input with
 * the metadata and every stream file linked, damaged ones replaced by their good packets; sets
 * @repaired_inputs to those folders and adds one warning per damaged file naming the byte
 * ranges dropped. Returns FALSE with @error set when the metadata is what is damaged (with the
 * line of the TSDL text where the damage shows, when it can be seen). */
gboolean jvms_ctf_repair_traces (const char * const *inputs,
                                 const char         *why,
                                 char              **tmp_dir,
                                 GStrv              *repaired_inputs,
                                 GPtrArray          *warnings,
                                 GError            **error);

/* Warnings about stream files that are there but hold nothing (babeltrace2 skips them
 * silently). */
void     jvms_ctf_check_stream_files (const char * const *inputs,
                                      GPtrArray          *warnings);

void     jvms_ctf_repair_remove (const char *tmp_dir);

/* Where in the TSDL text of @trace_dir's metadata something is visibly wrong (a byte that is
 * not text, an unbalanced brace), as "line N: ...". NULL when nothing visible. */
char    *jvms_ctf_metadata_diagnosis (const char *trace_dir);

G_END_DECLS
