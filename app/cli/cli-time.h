/* cli-time.h: the time arguments the commands share (--from, --to of analyze and profile):
 * offsets from the trace's start. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* "1.5" (seconds), "250ms", "40us", "12ns", "2s": an offset in ns. FALSE for anything else. */
gboolean jvms_cli_parse_offset (const char *text,
                                gint64     *out);

#define JVMS_CLI_TIME_HELP N_("a number of seconds, or a number followed by s, ms, us or ns")

G_END_DECLS
