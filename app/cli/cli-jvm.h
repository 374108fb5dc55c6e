/* cli-jvm.h: `--pid PID`, the JVM a command analyses, as every command that reads a JVM's
 * threads takes it (docs/analysis.md, "Which JVM is ours"): the recorded JVM by default; in a
 * kernel-only trace of several JVMs the one asked for, and, when the command needs one and none
 * is asked for, the list of JVMs on standard error (status 2). */
#pragma once

#include "jvms-history.h"
#include "jvms-thread-list.h"

G_BEGIN_DECLS

#define JVMS_CLI_PID_HELP N_("The JVM to analyse, when the trace shows several")

/* The JVM @command (its name in messages: "analyze") analyses in @history of @trace: @asked is
 * --pid (0: none). Chosen, it is laid over @history (jvms_scope_set_subject): every thread list
 * read afterwards counts the other JVMs' threads as other processes'. When the trace shows
 * several JVMs and names none and nothing is asked: FALSE with the list printed when @required,
 * else TRUE with *@pid -1 (no JVM: the whole machine). A pid that is none of the JVMs, or
 * another JVM than a flight recording's: FALSE with the list printed. */
gboolean  jvms_cli_choose_jvm         (const char     *command,
                                       JvmsHistory    *history,
                                       const char     *trace,
                                       gint64          asked,
                                       gboolean        required,
                                       gint64         *pid);

/* TRUE when @name (not a tid) names threads of two JVMs or more in @threads: a command given
 * that name needs the choice. */
gboolean  jvms_cli_name_in_several_jvms (JvmsThreadList *threads,
                                         const char     *name);

/* The thread @key_or_name names: its folder name; or its name, within process @pid first when
 * @pid > 0 (the JVM chosen), else the first thread of that name. A name no thread of @pid has
 * may be another process's thread (a kernel-only trace shows the whole machine, and the one JVM
 * seen in it is taken for the recorded one): the only thread of that name in the trace; when
 * several processes' threads have it, NULL with their number in *@n_elsewhere (else 0). */
const JvmsThreadInfo *jvms_cli_find_thread (JvmsThreadList *threads,
                                            const char     *key_or_name,
                                            gint64          pid,
                                            guint          *n_elsewhere);

G_END_DECLS
