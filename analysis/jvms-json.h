/* jvms-json.h: strings from traces and file names into JSON: whatever their bytes, the JSON
 * stays valid (json-glib writes a string's bytes as they are, so one byte that is not UTF-8
 * made every --json output unreadable). */
#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* @text with its invalid UTF-8 replaced (U+FFFD); NULL gives null. */
void jvms_json_add_text (JsonBuilder *builder,
                         const char  *text);
/* A file name as g_filename_display_name() shows it; NULL gives null. */
void jvms_json_add_path (JsonBuilder *builder,
                         const char  *path);

/* Members of the object being built: @name then the value (the text as jvms_json_add_text). */
void jvms_json_member_int  (JsonBuilder *builder,
                            const char  *name,
                            gint64       value);
void jvms_json_member_text (JsonBuilder *builder,
                            const char  *name,
                            const char  *text);
/* "intervals": [{from_ns, to_ns}] of @intervals (JvmsEvidenceInterval; NULL gives []): a
 * cause's own intervals, in the report and the critical path alike. */
void jvms_json_member_intervals (JsonBuilder  *builder,
                                 const GArray *intervals);

G_END_DECLS
