/* jvms-running-jvms.h: the JVMs a user can attach to, as `jcmd -l` lists them (the Record
 * dialog's list): the process id and main class of each, jcmd's own process left out. */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct
{
  GPid  pid;
  char *main_class; /* the main class or jar, as jcmd names it; "" when it does not */
} JvmsRunningJvm;

/* The JVMs of `jcmd -l`'s output @text: one "PID MAIN-CLASS ARGS..." per line. Lines that do not
 * start with a process id, and jcmd's own process, are left out. A GPtrArray of JvmsRunningJvm*
 * that frees them. */
GPtrArray *jvms_running_jvms_parse        (const char          *text);
/* Runs `jcmd -l` (found in PATH) in a subprocess. */
void       jvms_running_jvms_list_async   (GCancellable        *cancellable,
                                           GAsyncReadyCallback  callback,
                                           gpointer             user_data);
GPtrArray *jvms_running_jvms_list_finish  (GAsyncResult        *result,
                                           GError             **error);

G_END_DECLS
