/* jvms-trace-detect.h: what kind of trace a path is, and which files it is made of.
 *
 * The one owner of that decision: every command of jvmscope-cli and the window ask here, so
 * that `summary`, `index` and the window never classify the same path differently. Decided
 * from what is on disk, not from names given by the user:
 *   - a folder holding an entry named bundle.json, recording.jfr or kernel.perf.data is a
 *     bundle (`jvmscope-cli record`; any of the three is enough, so that a bundle whose
 *     bundle.json was lost still opens, and a part that is not a file is named as such);
 *   - otherwise a folder in which the LTTng reader finds a CTF trace (a `metadata` entry in the
 *     folder or up to three levels below, readers/ctf/jvms-ctf.h) is a CTF trace;
 *   - a regular file starting with "FLR\0" is a JFR recording, with "PERFILE2" a perf.data file;
 *   - anything else is refused with an error naming the path and what it is: a named pipe,
 *     socket or device given as a trace is never opened for reading (it could block).
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define JVMS_ANALYSIS_ERROR (jvms_analysis_error_quark ())
GQuark jvms_analysis_error_quark (void);

typedef enum
{
  JVMS_ANALYSIS_ERROR_NOT_FOUND,      /* the trace path does not exist */
  JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT, /* not a bundle, JFR, perf.data or CTF trace */
  JVMS_ANALYSIS_ERROR_READ,           /* no layer of the trace could be read at all */
  JVMS_ANALYSIS_ERROR_INDEX,          /* the index could be neither opened nor built */
  JVMS_ANALYSIS_ERROR_BUSY,           /* load called while a load is under way */
  JVMS_ANALYSIS_ERROR_CHOOSE_JVM,     /* several JVMs and none chosen, or a pid that is none of them */
} JvmsAnalysisError;
/* Cancellation is reported as G_IO_ERROR_CANCELLED. */

typedef enum
{
  JVMS_TRACE_KIND_BUNDLE, /* a folder made by `jvmscope-cli record` */
  JVMS_TRACE_KIND_JFR,
  JVMS_TRACE_KIND_PERF,
  JVMS_TRACE_KIND_CTF,
} JvmsTraceKind;

/* The parts of a bundle folder, as the recorder names them (docs/recording.md). */
#define JVMS_BUNDLE_MANIFEST  "bundle.json"
#define JVMS_BUNDLE_JFR       "recording.jfr"
#define JVMS_BUNDLE_KERNEL    "kernel.perf.data"
#define JVMS_BUNDLE_CLOCK_LOG "jvm-clock.log"

/* The kind of trace at @path, or FALSE with JVMS_ANALYSIS_ERROR_NOT_FOUND or _UNKNOWN_FORMAT
 * and a message naming the path. */
gboolean     jvms_trace_detect          (const char     *path,
                                         JvmsTraceKind  *kind,
                                         GError        **error);

/* "bundle", "jfr", "perf", "ctf" (static strings). */
const char  *jvms_trace_kind_name       (JvmsTraceKind   kind);

/* The path of bundle part @name in @bundle_dir when an entry of that name is there, whatever
 * it is (its reader then says what is wrong with it); NULL when the recorder did not write it. */
char        *jvms_trace_bundle_part     (const char     *bundle_dir,
                                         const char     *name);

/* The files a trace of @kind at @path reads, each a regular file (after following links), in a
 * stable order: a bundle's parts, the file itself, or a CTF trace's metadata and stream files.
 * Entries that are not regular files are left out (their readers name them). A CTF trace of
 * more than JVMS_TRACE_MAX_INPUTS files fails with JVMS_ANALYSIS_ERROR_UNKNOWN_FORMAT. */
#define JVMS_TRACE_MAX_INPUTS 65536
GPtrArray   *jvms_trace_list_inputs     (const char     *path,
                                         JvmsTraceKind   kind,
                                         GError        **error);

G_END_DECLS
