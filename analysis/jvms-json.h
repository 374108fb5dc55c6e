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

/* @value as a JSON number that every parser reads back to within one unit in its last place;
 * NaN and infinities, which JSON has no number for, give 0. json-glib's generator (1.6) writes
 * a double with g_ascii_dtostr() and appends ".0" when that text has no '.': a value whose 17
 * significant digits print as one digit and an exponent (27 ns of 4.5 s is exactly "6e-09",
 * and 1e+17) came out as "6e-09.0", which is not JSON, and the whole document was unreadable
 * (CI met it in a critical path's shares). Such a value is written as the integer it is, or as
 * its neighbour toward zero, whose text has a '.'. Every double of our JSON goes through here. */
void jvms_json_add_double (JsonBuilder *builder,
                           double       value);

/* Members of the object being built: @name then the value (the text as jvms_json_add_text). */
void jvms_json_member_int  (JsonBuilder *builder,
                            const char  *name,
                            gint64       value);
void jvms_json_member_double (JsonBuilder *builder,
                              const char  *name,
                              double       value);
void jvms_json_member_text (JsonBuilder *builder,
                            const char  *name,
                            const char  *text);
/* "intervals": [{from_ns, to_ns}] of @intervals (JvmsEvidenceInterval; NULL gives []): a
 * cause's own intervals, in the report and the critical path alike. */
void jvms_json_member_intervals (JsonBuilder  *builder,
                                 const GArray *intervals);

G_END_DECLS
