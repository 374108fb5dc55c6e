/* jvms-ctf-repair.h (private): what to do when babeltrace2 refuses a trace.
 *
 * babeltrace2 2.0 indexes every packet of every stream file when the source is created, and
 * one bad packet header anywhere (a file cut by a crash, a zero-filled block) makes it refuse
 * the whole trace. Packets are self-contained, each starting with the CTF magic and the
 * trace's uuid and declaring its size, so the repair walks a stream file's packets itself
 * (jvms-ctf-layout.h says where the sizes are), drops what is not a well-formed packet, and
 * asks babeltrace2 once whether it indexes the rest; only when it refuses a packet the walk
 * accepted does it bisect, within JVMS_CTF_REPAIR_MAX_PROBES probes. The good packets are
 * copied into a temporary trace folder that babeltrace2 reads instead.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most babeltrace2 probes one repair makes of stream files, for all the traces it is
 * given (plus one probe per trace of its metadata alone). Each probe forks and parses the
 * metadata again (tens of milliseconds, several times that under ASan), so this bounds the
 * repair's time by its work, whatever the damage: a stream walked with the metadata's packet
 * layout needs one probe; a packet babeltrace2 refuses that the walk accepted costs
 * log2(packets) + 1 more, and when the probes run out the unchecked rest is dropped. */
#define JVMS_CTF_REPAIR_MAX_PROBES 16

/* Called when source.ctf.fs failed on @inputs (trace folders, NULL-terminated) with @why.
 * When the metadata is readable and some stream files are not, makes a temporary folder
 * (@tmp_dir, to remove with jvms_ctf_repair_remove()) holding one trace folder per input with
 * the metadata and every stream file linked, damaged ones replaced by their good packets; sets
 * @repaired_inputs to those folders and adds one warning per damaged file naming the byte
 * ranges dropped. @n_probes (may be NULL) gets the number of babeltrace2 probes made. Returns
 * FALSE with @error set when the metadata is what is damaged (with the line of the TSDL text
 * where the damage shows, when it can be seen). */
gboolean jvms_ctf_repair_traces (const char * const *inputs,
                                 const char         *why,
                                 char              **tmp_dir,
                                 GStrv              *repaired_inputs,
                                 GPtrArray          *warnings,
                                 guint              *n_probes,
                                 GError            **error);

/* Walks the packets of every stream file of @inputs by the sizes they declare, with the
 * layout the metadata gives (without babeltrace2): a description of the first bytes that are
 * not well-formed packets, or NULL when none are found (or the layout is not understood).
 * babeltrace2 must not see such files before the repair: a packet declaring a size under one
 * byte makes it loop. */
char    *jvms_ctf_scan_damage (const char * const *inputs);

/* Event classes one trace's metadata may declare. babeltrace2 holds about 7 KB for each, in
 * every parse of the metadata (the probe, the graph, the query of the time range), and its
 * parsing time grows faster than their number; real LTTng traces declare a few thousand
 * (every kernel tracepoint and system call: about 2,500). */
#define JVMS_CTF_MAX_EVENT_CLASSES 8192

/* A description of the first metadata of @inputs that declares more event classes than
 * JVMS_CTF_MAX_EVENT_CLASSES, naming the file; NULL when none does. Read before babeltrace2
 * sees the metadata. */
char    *jvms_ctf_metadata_too_large (const char * const *inputs);

/* Warnings about stream files that are there but hold nothing (babeltrace2 skips them
 * silently). */
void     jvms_ctf_check_stream_files (const char * const *inputs,
                                      GPtrArray          *warnings);

void     jvms_ctf_repair_remove (const char *tmp_dir);

/* Where in the TSDL text of @trace_dir's metadata something is visibly wrong (a byte that is
 * not text, an unbalanced brace), as "line N: ...". NULL when nothing visible. */
char    *jvms_ctf_metadata_diagnosis (const char *trace_dir);

G_END_DECLS
