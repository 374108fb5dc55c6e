/* jvms-view-choice.h: a view's own choice in its header (the counters' metric, the object age
 * unit): a GtkDropDown that shows and sets a property of the view. The items come from a fill
 * function, asked again whenever the view notifies @refill_property (the counters recorded
 * change with the trace). */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Appends the values the property may take (strings, or enum nicks) and their labels
 * (translated), in the same order. */
typedef void (*JvmsViewChoiceFill) (GObject      *view,
                                    GStrvBuilder *values,
                                    GStrvBuilder *labels);

/* @property: a string or enum property of @view. @refill_property: NULL when the items never
 * change. @accessible_label: the drop-down's name for assistive technologies (translated). */
GtkWidget *jvms_view_choice_new (GObject            *view,
                                 const char         *property,
                                 const char         *refill_property,
                                 JvmsViewChoiceFill  fill,
                                 const char         *accessible_label);

G_END_DECLS
