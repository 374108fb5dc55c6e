/* cli-time.h: the time arguments the commands share (--from, --to of analyze and profile):
 * offsets from the trace's start, parsed in one place. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GQuark   jvms_cli_time_error_quark (void);

#define JVMS_CLI_TIME_HELP N_("a number of seconds, or a number followed by s, ms, us or ns")

/* @text, the value of @option ("--from"), as an offset in ns: digits with an optional fraction
 * ("2", "1.5", ".5"), then s, ms, us, µs or ns (seconds when none). Nothing else is a time: no
 * sign, exponent, hexadecimal, nan or inf (a double past the integer range would be undefined
 * behaviour to convert, so no double is used). FALSE with an error naming @option and @text
 * when @text is not a time, or is further than the time axis reaches (292 years). */
gboolean jvms_cli_time_parse       (const char  *option,
                                    const char  *text,
                                    gint64      *out,
                                    GError     **error);

/* --from @from and --to @to (NULL: not given, then 0 and G_MAXINT64): FALSE with an error naming
 * the option when one is not a time, or when --from is after --to. */
gboolean jvms_cli_time_range_parse (const char  *from,
                                    const char  *to,
                                    gint64      *from_offset,
                                    gint64      *to_offset,
                                    GError     **error);

/* The same for options of other names (compare's --baseline-from and --baseline-to). */
gboolean jvms_cli_time_range_parse_named (const char  *from_option,
                                          const char  *from,
                                          const char  *to_option,
                                          const char  *to,
                                          gint64      *from_offset,
                                          gint64      *to_offset,
                                          GError     **error);

/* @start + @offset, held at the end of the time axis instead of wrapping. */
gint64   jvms_cli_time_at          (gint64       start,
                                    gint64       offset);

G_END_DECLS
