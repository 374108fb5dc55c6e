/* jvms-event-type-chooser.h: the event table's choice of event types (docs/events.md): a button
 * that says what is chosen ("All Types", the one type's name, or how many) and opens a popover
 * with a search entry and a check box per type of the store, any number of them ticked, as
 * `jvmscope-cli events --type A --type B` takes them.
 *
 * From the keyboard: the popover opens with the focus in its search entry, which narrows the list;
 * Enter there ticks or unticks the type named exactly as typed, else the first one shown; Tab goes
 * to the check boxes (Space ticks); "All Types" unticks every one.
 *
 * The events view's lanes (jvms_event_type_chooser_new_for_lanes ()) list the types that have
 * events, each with its count beside it; what is ticked is what is drawn, nothing ticked no lane.
 */
#pragma once

#include <gtk/gtk.h>

#include "jvms-event-store.h"

G_BEGIN_DECLS

#define JVMS_TYPE_EVENT_TYPE_CHOOSER (jvms_event_type_chooser_get_type ())
G_DECLARE_FINAL_TYPE (JvmsEventTypeChooser, jvms_event_type_chooser, JVMS, EVENT_TYPE_CHOOSER, GtkWidget)

GtkWidget    *jvms_event_type_chooser_new        (void);
GtkWidget    *jvms_event_type_chooser_new_for_lanes (void);
/* The types to choose from (NULL: none); nothing is chosen after it. Emits no signal. */
void          jvms_event_type_chooser_set_store  (JvmsEventTypeChooser *self,
                                                  JvmsEventStore       *store);
/* The chosen types (guint32 ids of the store, in increasing order); empty: every type. Emits
 * "changed" when it changes. */
const GArray *jvms_event_type_chooser_get_chosen (JvmsEventTypeChooser *self);
/* Ticks or unticks @name's type; FALSE when the store has no such type. */
gboolean      jvms_event_type_chooser_set_type   (JvmsEventTypeChooser *self,
                                                  const char           *name,
                                                  gboolean              chosen);
/* Ticks exactly the types named (NULL: none); one "changed" if that changes anything. */
void          jvms_event_type_chooser_set_chosen_names (JvmsEventTypeChooser *self,
                                                        const char * const   *names);
/* The chosen types' names in type order (never NULL). */
GStrv         jvms_event_type_chooser_dup_chosen_names (JvmsEventTypeChooser *self);
/* Unticks every type. */
void          jvms_event_type_chooser_clear      (JvmsEventTypeChooser *self);
/* The chosen types' names in type order, ';' between them (empty: every type). */
char         *jvms_event_type_chooser_describe   (JvmsEventTypeChooser *self);
/* The popover's rows as shown, in order: "NAME=COUNT" (COUNT empty outside lanes mode), ';' between. */
char         *jvms_event_type_chooser_describe_rows (JvmsEventTypeChooser *self);
/* The popover's search entry (where the keyboard goes when it opens). */
GtkWidget    *jvms_event_type_chooser_get_search (JvmsEventTypeChooser *self);
/* The popover is open. */
gboolean      jvms_event_type_chooser_is_open    (JvmsEventTypeChooser *self);

G_END_DECLS
