/* trace-format.h: what kind of trace a path holds, decided from its bytes, not its name. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  JVMS_TRACE_FORMAT_UNKNOWN,
  JVMS_TRACE_FORMAT_JFR,       /* a file starting with "FLR\0" */
  JVMS_TRACE_FORMAT_PERF,      /* a file starting with "PERFILE2" */
  JVMS_TRACE_FORMAT_CTF,       /* a folder holding a CTF "metadata" file, at any depth */
  JVMS_TRACE_FORMAT_BUNDLE,    /* a folder holding bundle.json (jvmscope-cli record) */
} JvmsTraceFormat;

JvmsTraceFormat jvms_trace_format_detect (const char  *path,
                                          GError     **error);
const char     *jvms_trace_format_name   (JvmsTraceFormat format);

G_END_DECLS
