/* jvms-jvm-chooser.h: the choice of the JVM to analyse in a trace that shows several and does
 * not say which one was recorded (a kernel-only perf or LTTng trace: docs/analysis.md, "Which
 * JVM"). A modal window listing the JVMs as `jvmscope-cli index` does (pid, name, command,
 * threads) and a few of each one's Java thread names, so that a user knows them apart. */
#pragma once

#include <adwaita.h>

#include "jvms-history.h"

G_BEGIN_DECLS

#define JVMS_TYPE_JVM_CHOOSER (jvms_jvm_chooser_get_type ())
G_DECLARE_FINAL_TYPE (JvmsJvmChooser, jvms_jvm_chooser, JVMS, JVM_CHOOSER, AdwWindow)

/* The JVMs of @history (jvms_scope_list_jvms) with what the chooser shows of each: a
 * GPtrArray of JvmsJvmEntry*, and in *@threads one line per JVM naming its Java threads' pools.
 * Read before any choice is laid over @history (a choice makes the others' threads other
 * processes'). */
GPtrArray      *jvms_jvm_chooser_describe   (JvmsHistory    *history,
                                             GStrv          *threads);

/* Over @parent, for the trace named @trace_name; @jvms and @threads as describe made them,
 * @current the JVM analysed now (0: none). Emits ::chosen (gint64 pid) and closes when a row is
 * activated; closing it otherwise chooses nothing. */
JvmsJvmChooser *jvms_jvm_chooser_new        (GtkWindow      *parent,
                                             const char     *trace_name,
                                             GPtrArray      *jvms,
                                             const char * const *threads,
                                             gint64          current);

/* The rows (pid, and where each is in the window) for tests: section "chooser"
 * (docs/window.md, "State dump"). */
void            jvms_jvm_chooser_dump_state (JvmsJvmChooser *self,
                                             GKeyFile       *key_file);

G_END_DECLS
