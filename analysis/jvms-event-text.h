/* jvms-event-text.h: the event store's values written out, one way for each reader: as people
 * read them (the window's table, the CLI's text; the text filter searches this form), as raw
 * text (CSV), and as JSON (the CLI's --json). Numbers stay exact in CSV and JSON: times and
 * durations in ns, timestamps as epoch ns. */
#pragma once

#include "jvms-event-store.h"

G_BEGIN_DECLS

/* For people: durations and timestamps through jvms-time-format.h (timestamps as offsets from
 * @trace_start), bytes as "1.5 MB", percentages as "12.5 %", addresses in hex. Appended. */
void  jvms_event_value_append_text (GString                  *out,
                                    const JvmsEventValue     *value,
                                    const JvmsEventFieldInfo *field,
                                    gint64                    trace_start);
/* Raw: integers, times and durations in decimal, doubles in the shortest form that reads back,
 * strings as they are, booleans true/false, null as nothing. Appended. */
void  jvms_event_value_append_raw  (GString                  *out,
                                    const JvmsEventValue     *value);
/* JSON: numbers, strings (escaped), true, false, null. Appended. */
void  jvms_event_value_append_json (GString                  *out,
                                    const JvmsEventValue     *value);
/* A JSON string literal of @s (valid UTF-8). Appended. */
void  jvms_json_append_string      (GString                  *out,
                                    const char               *s);
/* A CSV field: quoted when it holds a comma, quote or line break. Appended. */
void  jvms_csv_append_field        (GString                  *out,
                                    const char               *s);

G_END_DECLS
