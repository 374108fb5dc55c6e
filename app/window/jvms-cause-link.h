/* jvms-cause-link.h: a link in the side panel to a cause a finding or the critical path names
 * (issue 20: a monitor's holder, a thread that preempted it, a safepoint's straggler, the thread
 * that had a CPU, a waker). Activating it runs the window's action win.show-cause (tid, from, to),
 * which selects that thread's interval in the views and scrolls its row into view. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A button styled as a link, labelled @label; @kind ("holder", "preempted-by", "straggler",
 * "cpu-holder", "waker") says what it links to, for the state dump and tests. */
GtkWidget *jvms_cause_link_new      (const char *kind,
                                     const char *label,
                                     gint64      tid,
                                     gint64      from,
                                     gint64      to);
/* Appends "kind tid from to x y w h;" for every link shown under @container (bounds in its
 * window's coordinates), in the order they are laid out. */
void       jvms_cause_links_describe (GtkWidget *container,
                                      GString   *out);

G_END_DECLS
