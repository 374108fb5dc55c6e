/* jvms-view-catalog.h: the timeline views, by the one name each has everywhere (the window's
 * visible-views flags and view.* actions, `jvmscope-cli render --views`), with its title and
 * constructor, in the order the window stacks them. The window and the render command both read
 * this table, so a view added here is shown by both. */
#pragma once

#include <gtk/gtk.h>

#include "jvms-session.h"

G_BEGIN_DECLS

#define JVMS_N_VIEW_KINDS 12

typedef struct
{
  const char *name;   /* nick in the visible-views flags */
  const char *title;  /* untranslated (N_): the caller translates */
  GtkWidget *(*create) (JvmsSession *session);
} JvmsViewKind;

extern const JvmsViewKind jvms_view_kinds[JVMS_N_VIEW_KINDS];

/* The view called @name, or NULL. */
const JvmsViewKind *jvms_view_kind_lookup (const char *name);

G_END_DECLS
