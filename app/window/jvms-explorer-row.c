/* jvms-explorer-row.c: a record of the Explorer pane's table (see the header). */
#include "config.h"

#include "jvms-explorer-row.h"

struct _JvmsExplorerRow
{
  GObject parent_instance;
  guint64 row;
};

G_DEFINE_FINAL_TYPE (JvmsExplorerRow, jvms_explorer_row, G_TYPE_OBJECT)

static void
jvms_explorer_row_class_init (JvmsExplorerRowClass *klass)
{
}

static void
jvms_explorer_row_init (JvmsExplorerRow *self)
{
}

JvmsExplorerRow *
jvms_explorer_row_new (guint64 row)
{
  JvmsExplorerRow *self = g_object_new (JVMS_TYPE_EXPLORER_ROW, NULL);
  self->row = row;
  return self;
}

guint64
jvms_explorer_row_get_row (JvmsExplorerRow *self)
{
  g_return_val_if_fail (JVMS_IS_EXPLORER_ROW (self), 0);
  return self->row;
}
